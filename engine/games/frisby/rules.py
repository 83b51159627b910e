"""The rules object of Martian Frisby: options and setup, joined to the game's parts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...capabilities import Duplicate, TwoDiceLuck
from ...core import Event, Option, Pending, Played, Resigned, Rolled, Rules
from ...errors import IllegalAction, SetupError
from . import turns, views
from .board import start_board
from .bot import bot_turn
from .notation import parse_turn
from .state import FrisbyState, dump_state, load_state, pending


class MartianFrisby(Rules[FrisbyState]):
    """Martian Frisby for two players, with the change-columns variant as an option."""

    kind = "martian-frisby"
    title = "Martian Frisby"
    version = 2  # 2: an outcome decided by the half-turn limit names it
    limits_named = True  # version switch: see MartianFrisbyV1
    seats = (2,)
    options = (
        Option("change_columns", False, "a move may end in either column", kind=bool),
        Option(
            "max_turns",
            1000,
            "not in the rulebook: the game is a draw after this many half-turns (0: no limit)",
            minimum=0,
        ),
        Option(
            "first_player",
            None,
            "seat that moves first (0 South, 1 North); empty: chosen by a roll",
            minimum=0,
            maximum=1,
        ),
    )
    presets = {
        "standard": {},
        "change-columns": {"change_columns": True},
    }
    mirror = True  # two players, one deal: a match of two games with the seats swapped
    luck = TwoDiceLuck(lambda state: state.to_move)  # None: the roll for who starts
    duplicate = Duplicate()

    def start(self, seats: int, options: Mapping[str, object] | None = None) -> FrisbyState:
        """Both nests at home; the first player is a chance event unless given."""
        self.check_seats(seats)
        opts = self.resolve_options(options)
        first = opts["first_player"]
        max_turns = opts["max_turns"]
        if not isinstance(max_turns, int) or not (first is None or isinstance(first, int)):
            raise SetupError("options max_turns and first_player must be whole numbers")
        return FrisbyState(
            change_columns=bool(opts["change_columns"]),
            max_turns=max_turns,
            board=start_board(),
            to_move=first,
            dice=None,
            turns=0,
            result=None,
            last=None,
        )

    def seat_count(self, state: FrisbyState) -> int:
        return 2

    def seat_name(self, state: FrisbyState, seat: int) -> str:
        return views.seat_name(seat)

    def chance_address(self, state: FrisbyState) -> str | None:
        """The roll for the first player, or the dice of a half-turn: "turn7/seat1"."""
        if state.result is not None or state.dice is not None:
            return None
        return "first" if state.to_move is None else f"turn{state.turns}/seat{state.to_move}"

    def pending(self, state: FrisbyState) -> Pending:
        return pending(state)

    def apply(self, state: FrisbyState, event: Event) -> FrisbyState:
        after = self._apply(state, event)
        if not self.limits_named and after.result is not None and state.result is None:
            reason = after.result.reason
            if reason == turns.LIMIT_DRAW.format(after.max_turns):
                reason = f"draw: {after.max_turns} half-turns were played"
            after = replace(after, result=replace(after.result, reason=reason))
        return after

    def _apply(self, state: FrisbyState, event: Event) -> FrisbyState:
        if state.result is not None:
            raise IllegalAction("the game is over")
        if isinstance(event, Resigned):
            return turns.resigned(state, event.seat)
        if isinstance(event, Rolled):
            return turns.rolled(state, event.values)
        if isinstance(event, Played):
            return turns.played(state, event.seat, event.action)
        raise IllegalAction(f"Martian Frisby has no use for {type(event).__name__}")

    def legal(self, state: FrisbyState, seat: int) -> tuple[str, ...]:
        return turns.legal(state, seat)

    def annotate(self, state: FrisbyState, seat: int, action: str) -> dict[str, Any]:
        """The first piece's square, and where the turn's moves land."""
        return views.annotate(action)

    def bot_action(self, state: FrisbyState, seat: int) -> str:
        """Win if possible, else bring the pieces furthest towards the goal."""
        action = bot_turn(state, seat)
        return action if action is not None else super().bot_action(state, seat)

    def parse_action(self, state: FrisbyState, seat: int, text: str) -> str:
        return parse_turn(text)

    def describe(self, state: FrisbyState, played: Played, viewer: int | None) -> str:
        return views.describe(state, played.seat, played.action)

    def view(self, state: FrisbyState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat, self.kind)

    def dump(self, state: FrisbyState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> FrisbyState:
        return load_state(data)


class MartianFrisbyV1(MartianFrisby):
    """Version 1: a draw at the half-turn limit did not name it as a limit."""

    version = 1
    limits_named = False


RULES = MartianFrisby()
VERSIONS = (MartianFrisbyV1(),)
