"""What a game may offer besides playing: a luck model, and duplicate play of one deal.

Each is optional. A game without a luck model shows no luck; a game without a duplicate
model cannot be played as duplicate tables. The server asks the rules for these and never
looks inside a game's state itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RollLuck:
    """One roll as luck sees it: whose it was, what it was worth, and what was expected."""

    seat: int
    received: float
    expected: float


class LuckModel(ABC):
    """How much each roll of a game was worth to the seat it was rolled for."""

    # How a roll's worth is measured, for the page showing the figures.
    explain: str

    @abstractmethod
    def roll(self, state: Any, values: tuple[int, ...]) -> RollLuck | None:
        """A roll about to be applied to `state`, as luck; None if it does not count."""


class TwoDiceLuck(LuckModel):
    """A turn's two dice allow their total in movement, against an average of 7."""

    explain = "the total of each turn's two dice against 7"
    AVERAGE = 7.0

    def __init__(self, mover: Callable[[Any], int | None]) -> None:
        self.mover = mover  # the seat a state's next roll is for, if any

    def roll(self, state: Any, values: tuple[int, ...]) -> RollLuck | None:
        """The pair's total against 7; any other roll (who starts, say) does not count."""
        seat = self.mover(state)
        if len(values) != 2 or seat is None:
            return None
        return RollLuck(seat, float(sum(values)), self.AVERAGE)


@dataclass(frozen=True)
class ScoredTurn:
    """One seat's finished turn, for comparing tables turn by turn: the rolls, picks, score."""

    rolls: tuple[str, ...]
    picks: tuple[str, ...]
    points: int
    ending: str


class Duplicate:
    """How tables that played the same deal are compared: by default seat by seat.

    Seat by seat, each seat's result (its rank, then its score) is matchpointed against the
    same seat at the other tables. A game whose turns each score on their own may compare
    turn by turn instead (`by = "turn"`): it then lists each finished turn.
    """

    by = "seat"
    legend = ""  # what the letters of a turn's rolls stand for, under the board

    def turns(self, before: Any, after: Any) -> Iterable[tuple[tuple[int, int], ScoredTurn]]:
        """The turns an event finished: ((round, seat), the turn), for `by = "turn"`."""
        return ()

    def label(self, round_: int, seat: int) -> str:
        """The name of one seat's turn in a round, for a row of the board."""
        return f"Round {round_}, seat {seat + 1}"


__all__ = ["Duplicate", "LuckModel", "RollLuck", "ScoredTurn", "TwoDiceLuck"]
