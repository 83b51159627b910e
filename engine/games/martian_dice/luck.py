"""Luck in Martian Dice: a roll is worth the points its turn can still expect after it.

Each roll of a turn is worth the points the turn can still expect after it, with the best
pick and the best choices to stop or roll on from there (a roll that allows no pick ends
the turn with what is aside); its expectation is the same figure averaged over every roll
of the dice not aside (see `odds`). A turn from nothing expects about 3.11 points.
"""

from __future__ import annotations

from typing import Any

from ...capabilities import LuckModel, RollLuck
from .dice import counts_of
from .odds import expected_roll, roll_worth
from .state import DiceState


class TurnLuck(LuckModel):
    """The points a turn could still expect after each roll, against the average roll."""

    explain = (
        "the points a turn could still expect after each roll, with the best choices, "
        "against the average roll"
    )

    def roll(self, state: Any, values: tuple[int, ...]) -> RollLuck | None:
        """A turn's roll; who starts and the death-ray duel are not dice a turn is played with.

        No seat is to move before the starting seat is drawn, nor in the duel (`finish`
        clears the seat to move before it starts one), so `to_move` alone tells them apart.
        """
        assert isinstance(state, DiceState)
        if state.to_move is None:
            return None
        got = roll_worth(state.aside, counts_of(values))
        return RollLuck(state.to_move, got, expected_roll(state.aside))
