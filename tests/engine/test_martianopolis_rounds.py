"""Martianopolis 500: one turn's flow (rounds.py)."""

from __future__ import annotations

from engine import Await
from tests.engine.test_martianopolis import (
    P1,
    P2,
    RULES,
    UP,
    L,
    S,
    choose,
    dealt,
    placed,
    with_piles,
)


def test_a_mover_whose_racers_only_lie_flat_again_passes_to_the_next_mover():
    # Red's one racer left crashed last turn: it lies flat again and Red has nothing to
    # move, so Yellow moves next in the same face-up group.
    racers = {"a11": (P1, L, 11, True), "c30": (P2, S)}
    state = with_piles(placed(dealt(2), racers), {P1: ["K♠"], P2: ["4♠"]})
    state = choose(state, {P1: UP, P2: UP})
    assert "Red lays L flat again." in state.notes
    assert state.movers == (P2,) and state.value == 4
    assert RULES.pending(state) == Await((P2,), "move")
