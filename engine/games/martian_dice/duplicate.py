"""Duplicate Martian Dice: tables of one deal compared turn by turn, each seat's score."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...capabilities import Duplicate, ScoredTurn
from .dice import FACE_OF_VALUE, LETTERS
from .state import DiceState, seat_name


class TurnByTurn(Duplicate):
    """Each seat's score on a turn against every table that played that seat and turn."""

    by = "turn"
    legend = "Faces: T tank, R death ray, H human, C cow, K chicken."

    def turns(self, before: Any, after: Any) -> Iterable[tuple[tuple[int, int], ScoredTurn]]:
        """The turn an event finished, by (round, seat), with its rolls as face letters."""
        assert isinstance(before, DiceState) and isinstance(after, DiceState)
        last = after.last
        if last is None or last is before.last:
            return ()
        rolls = tuple(
            "".join(sorted((LETTERS[FACE_OF_VALUE[v]] for v in roll), key=LETTERS.index))
            for roll in last.rolls
        )
        turn = ScoredTurn(rolls, last.picks, last.points, last.ending)
        return (((before.round, last.seat), turn),)

    def label(self, round_: int, seat: int) -> str:
        """Name a turn by its round and the seat's colour: "Round 2, Blue"."""
        return f"Round {round_}, {seat_name(seat)}"
