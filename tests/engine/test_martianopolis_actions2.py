"""Martianopolis 500: the refusals of an action from outside the race, of a second order and
of an action while the game waits for a shuffle."""

from __future__ import annotations

import pytest

from engine import IllegalAction, Played, step
from engine.games.martianopolis.actions import played
from tests.engine.test_martianopolis import P1, P2, RULES


def test_a_seat_outside_a_two_seat_race_is_told_it_is_not_in_the_race():
    with pytest.raises(IllegalAction, match="^Green is not in the race$"):
        played(RULES.start(2), 2, "order L M S")


def test_a_second_order_from_the_same_seat_is_refused_by_name():
    state = played(RULES.start(2), P1, "order L M S")
    with pytest.raises(IllegalAction, match="^Red has already lined up the racers$"):
        played(state, P1, "order S M L")


def test_a_move_before_the_order_asks_the_seat_by_name_to_line_up_first():
    with pytest.raises(IllegalAction, match="^Red must first line up the racers: write .+"):
        played(RULES.start(2), P1, "S: F5")


def test_no_seat_acts_while_the_game_waits_for_the_shuffle():
    state = RULES.start(2)
    for seat in (P1, P2):
        state = step(RULES, state, Played(seat, "order L M S"))
    with pytest.raises(
        IllegalAction, match="^no player acts now: the game waits for the server to shuffle$"
    ):
        played(state, P1, "order L M S")
