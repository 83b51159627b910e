"""Martianopolis 500: the messages of a move out of turn or that cannot be read."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.games.martianopolis.movement import moved
from tests.engine.test_martianopolis import P1, P2, S, dealt, moving, placed


def red_to_move():
    return moving(placed(dealt(2), {"b10": (P1, S), "c30": (P2, S)}), P1, 3)


def test_a_move_out_of_turn_names_the_mover_and_the_seat_that_tried():
    with pytest.raises(IllegalAction, match="^it is Red's move, not Yellow's$"):
        moved(red_to_move(), P2, "S: F5")


def test_an_unreadable_move_names_the_seat_that_must_move():
    with pytest.raises(IllegalAction, match="^Red must move racers now: .+"):
        moved(red_to_move(), P1, "nonsense")
