"""Martianopolis 500: what each viewer is told, and which events stay secret (views.py)."""

from __future__ import annotations

from dataclasses import replace

from engine import Played, Resigned, Shuffled, step
from engine.games.martianopolis import is_secret
from tests.engine.test_martianopolis import (
    P1,
    P2,
    P3,
    RULES,
    UP,
    choose,
    dealt,
    moving,
    two_lying_flat_again,
)


def test_a_resignation_is_public_even_in_the_middle_of_a_secret_round():
    state = dealt(3)
    assert is_secret(state, Played(P1, UP))
    assert not is_secret(state, Resigned(P1))
    start = RULES.start(2)
    assert is_secret(start, Played(P1, "order L M S"))
    assert not is_secret(start, Resigned(P1))


def test_nothing_is_secret_once_the_game_is_over():
    # A race that ends while a deal is due: the deal is no longer anyone's secret.
    state = step(RULES, dealt(3), Resigned(P1))
    over = replace(step(RULES, state, Resigned(P2)), phase="shuffle")
    assert over.result is not None
    assert not is_secret(over, Shuffled(tuple(range(51))))
    assert not is_secret(replace(over, phase="choose"), Played(P3, UP))


def test_a_move_of_several_racers_reads_as_one_sentence_per_racer():
    state = moving(dealt(2, lanes="ac"), P1, 3)
    assert RULES.describe(state, Played(P1, "L: F3; M: O F2"), None) == (
        "Red moves L from a48 to a3 (F3); Red moves M from a47 to b2 (O F2)"
    )


def test_racers_lying_flat_again_are_named_together_when_their_orders_are_ignored():
    state = two_lying_flat_again()
    action = RULES.parse_action(state, P1, "L: F2; M: F3; S: F5")
    assert action == "L: flat; M: flat; S: F5"
    assert RULES.describe(state, Played(P1, action), P2) == (
        "Red moves S from b20 to b25 (F5) (L and M only lie flat again after their crash, "
        "so their orders are ignored)"
    )


def test_an_unreadable_order_is_described_as_the_text_played():
    state = RULES.start(2)
    assert RULES.describe(state, Played(P1, "order L L S"), P1) == "Red plays order L L S"
    assert RULES.describe(state, Played(P1, "order"), P1) == "Red plays order"


def test_a_viewer_outside_the_game_sees_what_the_public_sees():
    state = choose(dealt(2), {P1: UP})
    public = RULES.view(state, None)
    for outsider in (2, 7, -1):
        view = RULES.view(state, outsider)
        assert view["card"] is None
        assert {**view, "viewer": None} == public
