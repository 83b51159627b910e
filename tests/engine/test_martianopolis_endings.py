"""Martianopolis 500: how a finished race is ranked (endings.py)."""

from __future__ import annotations

from engine import Resigned, step
from engine.games.martianopolis.endings import ranked
from tests.engine.test_martianopolis import P1, P2, P3, RULES, dealt, distance


def test_a_seat_still_racing_ranks_above_a_resigned_one_even_behind_the_line():
    # On the grid a file stands on columns 48, 47, 46: progress 0, -1 and -2, distance -3.
    state = step(RULES, dealt(3), Resigned(P1))
    assert [distance(state, seat) for seat in (P1, P2, P3)] == [-3, -3, -3]
    outcome = ranked(state, "stopped", None)
    assert outcome.ranks == (3, 1, 1)
    assert outcome.scores == (-3.0, -3.0, -3.0)
