"""The rules object of Martian Dice: options and setup, joined to the game's parts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import Event, Option, Pending, Played, Resigned, Roll, Rolled, Rules
from ...errors import IllegalAction, SetupError
from . import turns, views
from .bot import bot_pick
from .dice import NOTHING
from .duplicate import TurnByTurn
from .luck import TurnLuck
from .notation import parse_pick
from .state import DiceState, chance_address, dump_state, load_state, pending, seat_name


class MartianDice(Rules[DiceState]):
    """Martian Dice for 2 to 8 players, with the death-ray duel's re-tie rule as an option."""

    kind = "martian-dice"
    title = "Martian Dice"
    version = 1
    seats = (2, 3, 4, 5, 6, 7, 8)
    options = (
        Option(
            "duel_retie",
            "repeat",
            "a tied death-ray duel is rolled again (repeat) or the tie is shared (shared)",
            kind=str,
            choices=("repeat", "shared"),
        ),
        Option(
            "first_player",
            None,
            "seat that starts (0 is the first seat); empty: chosen by a roll",
            minimum=0,
            maximum=7,
        ),
    )
    presets = {
        "standard": {},
        "shared-duel-ties": {"duel_retie": "shared"},
    }
    luck = TurnLuck()
    duplicate = TurnByTurn()

    def start(self, seats: int, options: Mapping[str, object] | None = None) -> DiceState:
        """Start with every score at zero; the starting seat is a chance event unless given."""
        self.check_seats(seats)
        opts = self.resolve_options(options)
        first = opts["first_player"]
        if first is not None and (not isinstance(first, int) or first >= seats):
            raise SetupError(
                f"option 'first_player': {first} is not a seat of a {seats}-player game "
                f"(0 to {seats - 1})"
            )
        return DiceState(
            seats=seats,
            duel_retie=str(opts["duel_retie"]),
            first=first,
            to_move=first,
            scores=(0,) * seats,
            resigned=(),
            round=1 if first is not None else 0,
            played=(),
            end_triggered=False,
            aside=NOTHING,
            rolled=None,
            rolls=(),
            picks=(),
            dueling=False,
            duels=(),
            result=None,
            last=None,
        )

    def seat_count(self, state: DiceState) -> int:
        return state.seats

    def seat_name(self, state: DiceState, seat: int) -> str:
        return seat_name(seat)

    def pending(self, state: DiceState) -> Pending:
        return pending(state)

    def chance_address(self, state: DiceState) -> str | None:
        """The starting roll, a duel roll, or roll k of a seat's turn in a round."""
        return chance_address(state)

    def apply(self, state: DiceState, event: Event) -> DiceState:
        if state.result is not None:
            raise IllegalAction("the game is over")
        if isinstance(event, Resigned):
            return turns.resigned(state, event.seat)
        if isinstance(event, Rolled):
            return turns.rolled(state, event.values)
        if isinstance(event, Played):
            return turns.played(state, event.seat, event.action)
        raise IllegalAction(f"Martian Dice has no use for {type(event).__name__}")

    def scores(self, state: DiceState) -> tuple[int, ...]:
        """Each seat's score so far (a tournament adjudicates an unfinished game on them)."""
        return state.scores

    def legal(self, state: DiceState, seat: int) -> tuple[str, ...]:
        """Each allowed pick with 'roll' and 'stop', or bare when it takes the last dice."""
        return turns.legal(state, seat)

    def parse_action(self, state: DiceState, seat: int, text: str) -> str:
        """Read a pick in letters or words; the decision is dropped when no dice would remain."""
        return parse_pick(state, text)

    def same_turn(self, before: DiceState, after: DiceState) -> bool:
        """The same seat picking again with the picks of its turn so far kept.

        In play a pick either adds one to the turn's picks or passes the dice on, so the
        picks never stay as they were: asking for as many picks (>=) instead of more would
        differ only for a state compared with itself, which continues nothing.
        """
        return (
            before.to_move == after.to_move
            and before.round == after.round
            and len(after.picks) > len(before.picks)
            and after.picks[: len(before.picks)] == before.picks
        )

    def bot_action(self, state: DiceState, seat: int) -> str:
        """Look one roll ahead; see bot.bot_choice."""
        action = bot_pick(state, seat)
        return action if action is not None else super().bot_action(state, seat)

    def describe(self, state: DiceState, played: Played, viewer: int | None) -> str:
        return views.describe(state, played.seat, played.action)

    def describe_roll(self, state: DiceState, values: tuple[int, ...]) -> str | None:
        """The faces a roll of the dice shows: "Rolled 2 death rays, 1 human (3 2 4)"."""
        if state.first is None or not isinstance(pending(state), Roll):
            return None  # the opening roll for who starts is a plain number, even on a d6
        return views.rolled_words(values)

    def view(self, state: DiceState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat, self.kind)

    def dump(self, state: DiceState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> DiceState:
        return load_state(data)


RULES = MartianDice()
