"""The rules object of Martianopolis 500: options and setup, joined to the game's parts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...core import Event, Option, Pending, Played, Resigned, Rules, Shuffled
from ...errors import IllegalAction, SetupError
from . import actions, rounds, views
from .cards import DECK
from .endings import STOPPED
from .notation import read_action
from .state import ORDER, SETASIDE, MartianopolisState, dump_state, load_state, seat_name
from .track import LANES


class Martianopolis500(Rules[MartianopolisState]):
    """Martianopolis 500 for 2 to 4 players: cards played face-up or face-down move trios."""

    kind = "martianopolis-500"
    title = "Martianopolis 500"
    version = 2  # 2: the turn limit is off by default and named in the outcome
    limits_named = True  # version switch: see Martianopolis500V1
    seats = (2, 3, 4)
    options: tuple[Option, ...] = (
        Option("laps", 5, "laps to race before a racer leaves the track", minimum=1, maximum=20),
        Option(
            "lanes",
            None,
            "starting lane of each seat in seat order, e.g. 'db' (none: a, b, c, d)",
            kind=str,
        ),
        Option(
            "max_turns",
            0,
            "not in the rulebook: stop the race after this many turns and rank it by distance "
            "(0: no limit)",
            minimum=0,
        ),
    )
    presets = {
        "standard": {},
        "sprint": {"laps": 1},
    }

    def start(self, seats: int, options: Mapping[str, object] | None = None) -> MartianopolisState:
        """Start with an empty grid and an unshuffled deck; with 3, a face card is set aside."""
        self.check_seats(seats)
        opts = self.resolve_options(options)
        laps, max_turns, lanes_text = opts["laps"], opts["max_turns"], opts["lanes"]
        if not isinstance(laps, int) or not isinstance(max_turns, int):
            raise SetupError("options laps and max_turns must be whole numbers")
        lanes = self._lanes(str(lanes_text or ""), seats)
        return MartianopolisState(
            seats=seats,
            laps=laps,
            max_turns=max_turns,
            lanes=lanes,
            phase=SETASIDE if seats == 3 else ORDER,
            set_aside=None,
            orders=(None,) * seats,
            racers=(),
            piles=((),) * seats,
            discards=DECK,
            turn=0,
            choices=(None,) * seats,
            table=((),) * seats,
            stage=None,
            value=0,
            movers=(),
            moved=(),
            recovered=(),
            rounds=0,
            resigned=(),
            notes=(),
            result=None,
        )

    @staticmethod
    def _lanes(text: str, seats: int) -> tuple[int, ...]:
        letters = re.sub(r"[\s,]", "", text.lower())
        if not letters:
            return tuple(range(seats))
        if len(letters) != seats or len(set(letters)) != seats or set(letters) - set(LANES):
            raise SetupError(
                f"option 'lanes': {text!r} must give {seats} different lanes of a, b, c, d, "
                "one per seat in seat order"
            )
        return tuple(LANES.index(c) for c in letters)

    def seat_count(self, state: MartianopolisState) -> int:
        return state.seats

    def seat_name(self, state: MartianopolisState, seat: int) -> str:
        return seat_name(seat)

    def pending(self, state: MartianopolisState) -> Pending:
        return rounds.pending(state)

    def apply(self, state: MartianopolisState, event: Event) -> MartianopolisState:
        after = self._apply(state, event)
        if after.result is not None and state.result is None and not self.limits_named:
            old = f"the race was stopped after {after.max_turns} turns; ranked by distance"
            reason = after.result.reason.replace(STOPPED.format(after.max_turns), old)
            after = replace(after, result=replace(after.result, reason=reason))
        return after

    def _apply(self, state: MartianopolisState, event: Event) -> MartianopolisState:
        if state.result is not None:
            raise IllegalAction("the game is over")
        if isinstance(event, Resigned):
            return actions.resigned(state, event.seat)
        if isinstance(event, Shuffled):
            return rounds.shuffled(state, event.order)
        if isinstance(event, Played):
            return actions.played(state, event.seat, event.action)
        raise IllegalAction(f"{self.title} has no use for {type(event).__name__}")

    def legal(self, state: MartianopolisState, seat: int) -> tuple[str, ...]:
        """Every legal action; a move is one racer's, one entry per distinct end square."""
        return actions.legal(state, seat)

    def same_turn(self, before: MartianopolisState, after: MartianopolisState) -> bool:
        """Still the same game turn: a card played, then that seat's racers moved one by one."""
        return before.turn == after.turn and after.result is None

    def is_secret(self, state: MartianopolisState, event: Event) -> bool:
        """Whether the event must be hidden from the other seats (see views.is_secret)."""
        return views.is_secret(state, event)

    def is_revealed(
        self, before: MartianopolisState, event: Event, now: MartianopolisState
    ) -> bool:
        """Round answers become public when the round completes; deals at the end."""
        return views.is_revealed(before, event, now)

    def bot_action(self, state: MartianopolisState, seat: int) -> str:
        """Fast racer in front; low cards face-down; move the racer that gets furthest."""
        action = actions.bot_action(state, seat)
        return action if action is not None else super().bot_action(state, seat)

    def parse_action(self, state: MartianopolisState, seat: int, text: str) -> str:
        """Read an order, a card choice or racers' moves; clauses for racers lying flat drop."""
        return read_action(state, text)

    def describe(self, state: MartianopolisState, played: Played, viewer: int | None) -> str:
        """The sentence for one viewer; a secret choice reads in full for its own seat only."""
        return views.describe(state, played, viewer)

    def view(self, state: MartianopolisState, seat: int | None) -> dict[str, Any]:
        """The track, the cards each viewer may see, whose choices are in; secrets removed."""
        return views.view(state, seat, self.kind)

    def dump(self, state: MartianopolisState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> MartianopolisState:
        return load_state(data)


class Martianopolis500V1(Martianopolis500):
    """Version 1: a 500-turn limit by default, its outcome not naming it as a limit."""

    version = 1
    limits_named = False
    options = tuple(
        replace(o, default=500) if o.name == "max_turns" else o for o in Martianopolis500.options
    )


RULES = Martianopolis500()
VERSIONS = (Martianopolis500V1(),)
