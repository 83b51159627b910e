"""Martianopolis 500: what a player is told when a path does not use every point."""

from __future__ import annotations

import pytest

from engine import IllegalAction, Played, step
from engine.games.martianopolis.movement import moved
from tests.engine.test_martianopolis import (
    DOWN,
    P1,
    P2,
    RULES,
    UP,
    L,
    S,
    choose,
    dealt,
    moving,
    placed,
    play,
    with_piles,
)


def one_step_from(square: str) -> str:
    """The refusal of "S: F" for Red's S alone on this square with value 3 (5 points)."""
    state = moving(placed(dealt(2), {square: (P1, S), "c30": (P2, S)}), P1, 3)
    with pytest.raises(IllegalAction) as caught:
        play(state, "S: F")
    return str(caught.value)


def test_a_short_path_is_refused_with_the_first_four_possible_paths_and_how_many_more():
    # S on b10 with value 3 has 5 points on an empty stretch. Exact paths: F5 (b15), one
    # diagonal and three F (a14 by I, c14 by O), or two diagonals and one F (b13 by I O,
    # d13 by O O). Ends sorted by lane then steps: a14, b13, b15, c14, d13; each path is
    # rebuilt straight first, then inward, then outward.
    assert one_step_from("b10") == (
        "S has 4 of its 5 points left on b11 and can still step on: all points must be used "
        "(possible paths include F3 I, F I O, F5, F3 O and 1 more)"
    )


def test_with_exactly_four_possible_paths_all_are_shown_and_no_more():
    # On a10 (the inner edge) no I first: F5 (a15), F3 O (b14), F O O (c13), F O I (a13).
    assert one_step_from("a10") == (
        "S has 4 of its 5 points left on a11 and can still step on: all points must be used "
        "(possible paths include F O I, F5, F3 O, F O O)"
    )


def test_a_racer_off_the_track_cannot_be_moved_again():
    state = placed(dealt(2), {"b46": (P1, L, 238), "c20": (P1, S, 20), "c5": (P2, S, 5)})
    after = play(moving(state, P1, 4), "L: F3")
    assert after.movers == (P1,)
    with pytest.raises(IllegalAction, match="^L has already finished the race$"):
        play(after, "L: F")


def test_flat_is_only_for_a_racer_that_crashed_and_such_a_racer_takes_no_path():
    racers = {"a11": (P1, L, 11, True), "b20": (P1, S), "c30": (P2, S)}
    state = with_piles(placed(dealt(2), racers), {P1: ["3♠"], P2: ["4♠"]})
    state = choose(state, {P1: UP, P2: DOWN})
    assert state.recovered == (L,)
    with pytest.raises(IllegalAction) as caught:
        step(RULES, state, Played(P1, "S: flat"))
    assert str(caught.value) == (
        "S did not crash last turn, so it must move; 'flat' is only for a racer that crashed "
        "last turn"
    )
    # The rules turn such a clause into 'flat' when reading it; moving it directly is refused.
    with pytest.raises(IllegalAction) as caught:
        moved(state, P1, "L: F4; S: F5")
    assert str(caught.value) == (
        "L crashed last turn: it only lies flat again this turn, which happens by itself and "
        "needs no order"
    )


def test_a_path_past_the_finish_or_beyond_the_points_is_refused_naming_the_racer():
    state = placed(dealt(2), {"b46": (P1, L, 238), "c20": (P1, S, 20), "c5": (P2, S, 5)})
    with pytest.raises(IllegalAction) as caught:
        play(moving(state, P1, 4), "L: F5")
    assert str(caught.value) == (
        "L leaves the track after F3, having finished the race; the rest of the path cannot "
        "be used"
    )
    with pytest.raises(IllegalAction) as caught:
        play(moving(state, P1, 3), "S: I I I")
    assert str(caught.value) == "S has 5 points: after I I only 1 remain and I costs 2"
