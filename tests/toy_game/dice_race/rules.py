"""The rules of Dice Race: each turn two dice are rolled and the player moves by one of them.

The first to reach the finish (square `length`) wins; the others rank by how far they got,
and those who resigned rank last. Standard library only, like every game's rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine import (
    Await,
    Duplicate,
    Event,
    Finished,
    IllegalAction,
    InvalidAction,
    LuckModel,
    Option,
    Outcome,
    Pending,
    Played,
    Resigned,
    Roll,
    Rolled,
    RollLuck,
    Rules,
)

COLOURS = ("Red", "Blue", "Green", "Yellow")
DIE = re.compile(r"[1-6]")


@dataclass(frozen=True)
class RaceState:
    """Where every rider stands, whose turn it is, and the dice waiting to be used."""

    length: int
    positions: tuple[int, ...]
    to_move: int
    turn: int  # turns played so far: the address of the next roll
    dice: tuple[int, ...] | None
    resigned: tuple[int, ...]  # in the order the seats resigned
    winner: int | None


class LargerDie(LuckModel):
    """A turn is worth its larger die, against the average larger of two dice (161/36)."""

    explain = "the larger of each turn's two dice against 4.47, its average"

    def roll(self, state: Any, values: tuple[int, ...]) -> RollLuck | None:
        """Every roll is a turn's: the seat to move, its larger die, and the average."""
        return RollLuck(state.to_move, float(max(values)), 161 / 36)


class DiceRace(Rules[RaceState]):
    """Dice Race for 2 to 4 players."""

    kind = "dice-race"
    title = "Dice Race"
    version = 1
    seats = (2, 3, 4)
    options = (Option("length", 20, "squares from start to finish", minimum=5, maximum=100),)
    presets = {"standard": {}, "sprint": {"length": 10}}
    luck = LargerDie()
    duplicate = Duplicate()

    def start(self, seats: int, options: Mapping[str, object] | None = None) -> RaceState:
        """Everyone on square 0; the first seat rolls first."""
        self.check_seats(seats)
        length = self.resolve_options(options)["length"]
        assert isinstance(length, int)
        return RaceState(length, (0,) * seats, 0, 0, None, (), None)

    def seat_count(self, state: RaceState) -> int:
        return len(state.positions)

    def seat_name(self, state: RaceState, seat: int) -> str:
        return COLOURS[seat]

    def pending(self, state: RaceState) -> Pending:
        outcome = self._outcome(state)
        if outcome is not None:
            return Finished(outcome)
        if state.dice is None:
            return Roll(2)
        return Await((state.to_move,), "move")

    def chance_address(self, state: RaceState) -> str | None:
        """The roll of turn n: the same at every table that has played as many turns."""
        return f"turn{state.turn}" if isinstance(self.pending(state), Roll) else None

    def apply(self, state: RaceState, event: Event) -> RaceState:
        if isinstance(event, Rolled):
            return replace(state, dice=event.values)
        if isinstance(event, Resigned):
            gone = replace(state, resigned=(*state.resigned, event.seat))
            if event.seat != state.to_move:
                return gone
            used = state.dice is not None  # a roll made for a rider who then resigned
            return replace(gone, to_move=self._next(gone), dice=None, turn=state.turn + used)
        if not isinstance(event, Played):
            raise IllegalAction(f"Dice Race has no use for {type(event).__name__}")
        steps = int(self.parse_action(state, event.seat, event.action))
        moved = list(state.positions)
        moved[event.seat] = min(state.length, moved[event.seat] + steps)
        after = replace(state, positions=tuple(moved), dice=None, turn=state.turn + 1)
        if moved[event.seat] == state.length:
            return replace(after, winner=event.seat)
        return replace(after, to_move=self._next(after))

    def _next(self, state: RaceState) -> int:
        seats = len(state.positions)
        for step in range(1, seats + 1):
            seat = (state.to_move + step) % seats
            if seat not in state.resigned:
                return seat
        return state.to_move

    def legal(self, state: RaceState, seat: int) -> tuple[str, ...]:
        """The distinct dice of the roll, smaller first, if it is this seat's turn."""
        if state.dice is None or seat != state.to_move or self._outcome(state) is not None:
            return ()
        return tuple(str(d) for d in sorted(set(state.dice)))

    def parse_action(self, state: RaceState, seat: int, text: str) -> str:
        """The die to move by, written as its number ("5", "move 5", "take the 5")."""
        found = DIE.findall(text)
        if len(found) != 1:
            raise InvalidAction(f"write the one die you move by, like 5; not {text.strip()!r}")
        if found[0] not in self.legal(state, seat):
            dice = " or ".join(self.legal(state, seat)) or "nothing"
            raise IllegalAction(f"{COLOURS[seat]} may move by {dice} now, not {found[0]}")
        return found[0]

    def bot_action(self, state: RaceState, seat: int) -> str:
        """The larger die."""
        return self.legal(state, seat)[-1]

    def describe(self, state: RaceState, played: Played, viewer: int | None) -> str:
        start = state.positions[played.seat]
        end = min(state.length, start + int(played.action))
        won = " and wins" if end == state.length else ""
        return f"{COLOURS[played.seat]} moves {played.action}, from {start} to {end}{won}"

    def view(self, state: RaceState, seat: int | None) -> dict[str, Any]:
        outcome = self._outcome(state)
        return {
            "players": list(COLOURS[: len(state.positions)]),
            "length": state.length,
            "positions": list(state.positions),
            "to_move": None if outcome else state.to_move,
            "dice": list(state.dice) if state.dice else None,
            "resigned": list(state.resigned),
            "outcome": outcome.to_json() if outcome else None,
            "viewer": seat,
        }

    def _outcome(self, state: RaceState) -> Outcome | None:
        seats = len(state.positions)
        left = [s for s in range(seats) if s not in state.resigned]
        if state.winner is None and len(left) > 1:
            return None
        winner = state.winner if state.winner is not None else left[0]
        ranks = [1] * seats
        racing = [s for s in left if s != winner]
        for seat in racing:  # behind the winner, by distance; equal distances share a place
            ranks[seat] = 2 + sum(state.positions[o] > state.positions[seat] for o in racing)
        for place, seat in enumerate(reversed(state.resigned)):  # the first to resign is last
            ranks[seat] = len(left) + 1 + place
        how = "reached the finish" if state.winner is not None else "is the last one racing"
        scores = tuple(float(p) for p in state.positions)
        return Outcome(tuple(ranks), scores, f"{COLOURS[winner]} {how}")

    def dump(self, state: RaceState) -> dict[str, Any]:
        return {
            "length": state.length,
            "positions": list(state.positions),
            "to_move": state.to_move,
            "turn": state.turn,
            "dice": list(state.dice) if state.dice is not None else None,
            "resigned": list(state.resigned),
            "winner": state.winner,
        }

    def load(self, data: Mapping[str, Any]) -> RaceState:
        dice = data["dice"]
        return RaceState(
            int(data["length"]),
            tuple(data["positions"]),
            int(data["to_move"]),
            int(data["turn"]),
            tuple(dice) if dice is not None else None,
            tuple(data["resigned"]),
            data["winner"],
        )


RULES = DiceRace()
