"""The game state: scores, rounds, the turn in progress and the duel; and its snapshots."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...core import Await, Finished, Outcome, Pending, Roll
from .dice import DICE, DUEL_DICE, Counts, counts_of

COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange", "Pink", "White")


@dataclass(frozen=True)
class LastTurn:
    """How a finished turn went, for the next mail: rolls, picks, what was aside, points."""

    seat: int
    rolls: tuple[tuple[int, ...], ...]
    picks: tuple[str, ...]
    aside: Counts
    points: int
    ending: str  # "stopped", "no pick", "all dice aside" or "resigned"


@dataclass(frozen=True)
class DiceState:
    """The scores, the round, and the turn in progress: what is aside and what was rolled."""

    seats: int
    duel_retie: str
    first: int | None  # the starting seat; None until the chance event that picks it
    to_move: int | None
    scores: tuple[int, ...]
    resigned: tuple[int, ...]  # in the order the seats resigned
    round: int
    played: tuple[int, ...]  # seats that have had their turn in this round, in order
    end_triggered: bool  # someone reached TARGET: this round is the last
    aside: Counts
    rolled: tuple[int, ...] | None  # d6 values of the roll awaiting a pick (tanks included)
    rolls: tuple[tuple[int, ...], ...]  # every roll of the turn in progress
    picks: tuple[str, ...]  # every action of the turn in progress
    dueling: bool
    duels: tuple[tuple[tuple[int, int], ...], ...]  # duel rounds of (seat, rays rolled)
    result: Outcome | None
    last: LastTurn | None

    @property
    def available(self) -> int:
        """Count the dice not set aside."""
        return DICE - sum(self.aside)

    def active(self) -> tuple[int, ...]:
        """List the seats still playing, in play order from the starting seat."""
        first = self.first or 0
        order = ((first + i) % self.seats for i in range(self.seats))
        return tuple(s for s in order if s not in self.resigned)


def seat_name(seat: int) -> str:
    """Name a seat by its colour: "Red"."""
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"


def seat_names(seats: Sequence[int]) -> str:
    """Join seat names for a sentence: "Red", "Red and Blue", "Red, Blue and Green"."""
    names = [seat_name(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def pending(state: DiceState) -> Pending:
    """Say what the game waits for: the starting roll, a turn's roll, a duel roll or a pick."""
    if state.result is not None:
        return Finished(state.result)
    if state.first is None:
        return Roll(1, sides=state.seats)  # face n: seat n - 1 starts
    if state.dueling:
        return Roll(DUEL_DICE)
    if state.rolled is None:
        return Roll(state.available)
    assert state.to_move is not None
    return Await((state.to_move,), "pick")


def chance_address(state: DiceState) -> str | None:
    """Name the pending roll: "first", "duel2/1" or "round3/seat1/roll2"."""
    if state.result is not None:
        return None
    if state.first is None:
        return "first"
    if state.dueling:
        return f"duel{len(state.duels)}/{len(state.duels[-1]) if state.duels else 0}"
    if state.rolled is not None:
        return None
    return f"round{state.round}/seat{state.to_move}/roll{len(state.rolls) + 1}"


def remaining_after(state: DiceState, face: int) -> int | None:
    """Count the dice left after taking that type from the roll awaiting a pick, if any."""
    if state.rolled is None:
        return None
    taken = counts_of(state.rolled)[face]
    return state.available - taken if taken else None


def dump_state(state: DiceState) -> dict[str, Any]:
    """Write the state as a JSON snapshot."""
    last = state.last
    return {
        "seats": state.seats,
        "duel_retie": state.duel_retie,
        "first": state.first,
        "to_move": state.to_move,
        "scores": list(state.scores),
        "resigned": list(state.resigned),
        "round": state.round,
        "played": list(state.played),
        "end_triggered": state.end_triggered,
        "aside": list(state.aside),
        "rolled": list(state.rolled) if state.rolled is not None else None,
        "rolls": [list(r) for r in state.rolls],
        "picks": list(state.picks),
        "dueling": state.dueling,
        "duels": [[[s, r] for s, r in rnd] for rnd in state.duels],
        "result": state.result.to_json() if state.result else None,
        "last": None if last is None else _dump_last(last),
    }


def _dump_last(last: LastTurn) -> dict[str, Any]:
    return {
        "seat": last.seat,
        "rolls": [list(r) for r in last.rolls],
        "picks": list(last.picks),
        "aside": list(last.aside),
        "points": last.points,
        "ending": last.ending,
    }


def load_state(data: Mapping[str, Any]) -> DiceState:
    """Read the state a snapshot was made from."""
    last = data["last"]
    rolled = data["rolled"]
    return DiceState(
        seats=int(data["seats"]),
        duel_retie=str(data["duel_retie"]),
        first=_seat(data["first"]),
        to_move=_seat(data["to_move"]),
        scores=_ints(data["scores"]),
        resigned=_ints(data["resigned"]),
        round=int(data["round"]),
        played=_ints(data["played"]),
        end_triggered=bool(data["end_triggered"]),
        aside=_counts(data["aside"]),
        rolled=_ints(rolled) if rolled is not None else None,
        rolls=_rolls(data["rolls"]),
        picks=tuple(str(p) for p in data["picks"]),
        dueling=bool(data["dueling"]),
        duels=tuple(tuple((int(s), int(r)) for s, r in rnd) for rnd in data["duels"]),
        result=Outcome.from_json(data["result"]) if data["result"] else None,
        last=None if last is None else _load_last(last),
    )


def _load_last(last: Mapping[str, Any]) -> LastTurn:
    return LastTurn(
        seat=int(last["seat"]),
        rolls=_rolls(last["rolls"]),
        picks=tuple(str(p) for p in last["picks"]),
        aside=_counts(last["aside"]),
        points=int(last["points"]),
        ending=str(last["ending"]),
    )


def _seat(value: Any) -> int | None:
    return None if value is None else int(value)


def _ints(values: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def _rolls(rolls: Any) -> tuple[tuple[int, ...], ...]:
    return tuple(_ints(r) for r in rolls)


def _counts(values: Any) -> Counts:
    t, r, h, c, k = (int(v) for v in values)
    return (t, r, h, c, k)
