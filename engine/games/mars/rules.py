"""The Rules shared by Martian Race and Mad Dog, joined to the parts of the movement system."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...capabilities import Duplicate, TwoDiceLuck
from ...core import (
    Await,
    Event,
    Finished,
    Menu,
    OptionValue,
    Pending,
    Played,
    Resigned,
    Roll,
    Rolled,
    Rules,
)
from ...errors import IllegalAction
from . import choices, present, reading, turns
from .geometry import COLOURS, RESERVE, Params, Piece
from .state import MarsState, dump_state, load_state
from .words import seat_name, square_label

ROLL_TWO = Roll(2)
MOVE_AWAITS = tuple(Await((seat,), "move") for seat in range(len(COLOURS)))
PUSH_AWAITS = tuple(Await((seat,), "push") for seat in range(len(COLOURS)))


class MarsRules(Rules[MarsState]):
    """Rules on the shared movement engine; subclasses give names, options and parameters."""

    piece_word = "Martian"
    goal_names: tuple[str, str, str, str] = (
        "Home",
        "Government Center",
        "Supply Depot",
        "Launch Pad",
    )
    goal_roles: tuple[str, str, str, str] = ("home", "goal1", "goal2", "goal3")
    luck = TwoDiceLuck(lambda state: state.to_move)
    duplicate = Duplicate()
    # Version switches (see engine/games/__init__.py): what older rules versions did.
    chain_last = True  # from version 2: the last event keeps its whole chain of sentences
    limits_named = True  # from version 3: a limit's outcome says "ended by the ... limit"
    dog_push_ends = True  # from version 4: a push onto the Dog needs an end of its push

    @abstractmethod
    def make_params(self, seats: int, options: Mapping[str, OptionValue]) -> Params:
        """The rule parameters for this many seats and these resolved options."""

    def start(self, seats: int, options: Mapping[str, object] | None = None) -> MarsState:
        """Everyone's Martians in reserve as smalls; the first seat rolls first."""
        self.check_seats(seats)
        params = self.make_params(seats, self.resolve_options(options))
        if self.dog_push_ends:
            params = replace(params, dog_push_ends=True)
        pieces = tuple(Piece(s, 1, RESERVE) for s in range(seats) for _ in range(params.martians))
        return MarsState(
            params=params,
            seats=seats,
            pieces=pieces,
            dog=None,
            victims=0,
            winner=None,
            to_move=0,
            roll=None,
            dice=(),
            queue=(),
            stage=0,
            chooser=None,
            seen=(),
            turns=0,
            calm=0,
            dog_turns=0,
            resigned=(),
            result=None,
            last=None,
        )

    def seat_count(self, state: MarsState) -> int:
        return state.seats

    def seat_name(self, state: MarsState, seat: int) -> str:
        return seat_name(seat)

    def chance_address(self, state: MarsState) -> str | None:
        """The dice of a turn: "turn12/seat2" (the same turn of the same seat at every table)."""
        if state.result is not None or state.chooser is not None or state.roll is not None:
            return None
        return f"turn{state.turns}/seat{state.to_move}"

    def pending(self, state: MarsState) -> Pending:
        if state.result is not None:
            return Finished(state.result)
        # Pending values are frozen: the common ones are made once, not at every event.
        if state.chooser is not None:
            return PUSH_AWAITS[state.chooser]
        if state.roll is None:
            return ROLL_TWO
        return MOVE_AWAITS[state.to_move]

    def same_turn(self, before: MarsState, after: MarsState) -> bool:
        """The same mover with dice still to play, or a push answered within the turn."""
        return before.turns == after.turns and before.to_move == after.to_move

    def square_label(self, params: Params, square: int) -> str:
        """'h2 (Government Center)' for a special square, 'c4' otherwise."""
        return square_label(self, params, square)

    def apply(self, state: MarsState, event: Event) -> MarsState:
        after = self._apply(state, event)
        if not self.chain_last and after.last is not None and len(after.last[2]) > 1:
            seat, action, sentences = after.last
            after = replace(after, last=(seat, action, sentences[-1:]))
        return after

    def _apply(self, state: MarsState, event: Event) -> MarsState:
        if state.result is not None:
            raise IllegalAction("the game is over")
        if isinstance(event, Rolled):
            return turns.rolled(self, state, event.values)
        if isinstance(event, Played):
            return turns.played(self, state, event.seat, event.action)
        if isinstance(event, Resigned):
            return turns.resigned(self, state, event.seat)
        raise IllegalAction(f"{self.title} has no use for {type(event).__name__}")

    def scores(self, state: MarsState) -> tuple[int, ...]:
        """Finished pieces per seat, plus the Dog's bonus for the winner in the Mad Dog phase."""
        return turns.scores(state)

    def legal(self, state: MarsState, seat: int) -> tuple[str, ...]:
        return choices.legal(state, seat)

    def bot_action(self, state: MarsState, seat: int) -> str:
        """The house bot: the move that brings its pieces nearest home; pushes take the first."""
        return choices.bot_action(state, seat)

    def parse_action(self, state: MarsState, seat: int, text: str) -> str:
        return reading.canonical(self, state, seat, text)

    def annotate(self, state: MarsState, seat: int, action: str) -> dict[str, Any]:
        """Where a move's piece starts and lands, or where a pushed piece goes."""
        return reading.annotate(self, state, seat, action)

    def menu(self, state: MarsState, seat: int, picked: Mapping[str, str]) -> Menu:
        """A move in stages: the die, the piece, where it ends, how it faces; then the moves."""
        return choices.menu(self, state, seat, picked)

    def describe(self, state: MarsState, played: Played, viewer: int | None) -> str:
        return present.describe(self, state, played.seat, played.action)

    def view(self, state: MarsState, seat: int | None) -> dict[str, Any]:
        return present.board_view(self, state, seat, self.pending(state), self.scores(state))

    def dump(self, state: MarsState) -> dict[str, Any]:
        data = dump_state(state)
        if not data["params"]["dog_push_ends"]:  # versions 1 to 3 had no such parameter
            del data["params"]["dog_push_ends"]
        if not self.chain_last and data["last"] is not None:
            data["last"][2] = data["last"][2][-1]  # version 1 kept one sentence
        return data

    def load(self, data: Mapping[str, Any]) -> MarsState:
        return load_state(data)
