"""Martianopolis 500: snapshots read back exactly what was written, at every point of a game."""

from __future__ import annotations

import json

from engine import Resigned, step
from tests.engine.test_martianopolis import P1, P2, RULES, L, S, dealt, placed


def round_trip(state):
    return RULES.load(json.loads(json.dumps(RULES.dump(state))))


def test_a_snapshot_round_trips_before_the_grid_with_nothing_chosen_yet():
    state = RULES.start(2)
    assert state.set_aside is None and state.stage is None and state.orders == (None, None)
    loaded = round_trip(state)
    assert loaded == state and loaded.stage is None and loaded.set_aside is None


def test_a_snapshot_round_trips_a_standing_and_a_finished_racer():
    state = placed(dealt(2), {"a11": (P1, L, 11, True), "c5": (P2, S, 5)})
    assert [(r.standing, r.removed) for r in state.racers if r.seat == P1] == [
        (False, True),
        (False, True),
        (True, False),
    ]
    assert round_trip(state) == state


def test_a_snapshot_round_trips_a_finished_game_with_its_outcome():
    state = step(RULES, step(RULES, dealt(3), Resigned(P1)), Resigned(P2))
    assert state.result is not None and state.set_aside is not None
    loaded = round_trip(state)
    assert loaded == state and loaded.result == state.result
