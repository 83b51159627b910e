"""Martianopolis 500: the notation's limits and messages (notation.py)."""

from __future__ import annotations

import pytest

from engine import IllegalAction, InvalidAction
from engine.games.martianopolis import parse_clauses
from tests.engine.test_martianopolis import (
    DOWN,
    P1,
    RULES,
    UP,
    M,
    S,
    dealt,
    two_lying_flat_again,
)


def test_an_unreadable_path_names_the_three_steps_in_capitals():
    with pytest.raises(InvalidAction) as caught:
        parse_clauses("S: F3 X")
    assert (
        "steps are F (straight on), I (diagonally inward) and O (diagonally outward)"
        in str(caught.value)
    )


def test_a_step_counted_zero_times_is_named_in_capitals_whatever_the_case_written():
    with pytest.raises(InvalidAction) as caught:
        parse_clauses("s: f2 i0")
    assert "I0 in 'f2 i0' is no step at all" in str(caught.value)


def test_a_path_of_ninety_nine_steps_is_read_and_one_more_is_refused():
    assert parse_clauses("S: F99") == ((S, ("F",) * 99),)
    assert parse_clauses("M: F90 O F8") == ((M, ("F",) * 90 + ("O",) + ("F",) * 8),)
    with pytest.raises(InvalidAction, match="'f99 f' has 100 steps; no move is that long"):
        parse_clauses("S: F99 F")


def test_a_text_of_exactly_three_hundred_characters_is_still_read():
    state = dealt(2)
    assert RULES.parse_action(state, P1, "up".ljust(300)) == UP
    assert RULES.parse_action(state, P1, "face down".rjust(300)) == DOWN
    with pytest.raises(InvalidAction, match="that is 301 characters long"):
        RULES.parse_action(state, P1, "up".ljust(301))


def test_orders_only_for_racers_lying_flat_again_are_refused_naming_them_all():
    state = two_lying_flat_again()
    with pytest.raises(IllegalAction) as caught:
        RULES.parse_action(state, P1, "L: F2; M: F3")
    assert str(caught.value) == (
        "L and M crashed last turn and only lie flat again this turn, which happens by "
        "itself; give the moves of your other racers"
    )
