"""The contract every game implements: events, what a game waits for, and the fold."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .capabilities import Duplicate, LuckModel
from .errors import IllegalAction, InvalidAction, SetupError

# --- events: what happened, in past tense -------------------------------------------


@dataclass(frozen=True)
class Played:
    """A seat took an action, written in the game's canonical notation."""

    seat: int
    action: str


@dataclass(frozen=True)
class Rolled:
    """The server rolled dice; the values are data, never drawn by the engine."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class Shuffled:
    """The server shuffled n items; `order` is a permutation of range(n)."""

    order: tuple[int, ...]


@dataclass(frozen=True)
class Resigned:
    """A seat gave up."""

    seat: int


Event = Played | Rolled | Shuffled | Resigned

# --- choices in stages: a question at a time, for a page with many legal actions ----------


@dataclass(frozen=True)
class Question:
    """One narrowing stage: the key it sets, what it asks and its answers (value, label, square)."""

    key: str
    text: str
    answers: tuple[tuple[str, str, str | None], ...]


@dataclass(frozen=True)
class Menu:
    """A seat's choices narrowed by the answers given so far (key, value, label).

    `question` is the next stage to answer, or None when `actions` (canonical notation, each
    one of legal()) are few enough to show.
    """

    picked: tuple[tuple[str, str, str], ...]
    question: Question | None
    actions: tuple[str, ...]


# --- what a game waits for ------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """The game needs `count` dice of `sides` faces from the server."""

    count: int
    sides: int = 6


@dataclass(frozen=True)
class Shuffle:
    """The game needs a permutation of n items from the server."""

    n: int


@dataclass(frozen=True)
class Await:
    """These seats must choose; several at once means simultaneous secret choices."""

    seats: tuple[int, ...]
    kind: str = "move"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: a rank per seat (1 is best), optional scores, why."""

    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None
    reason: str

    @classmethod
    def from_winner(cls, winner: int, seats: int, reason: str) -> Outcome:
        """One seat wins, every other seat shares second place."""
        return cls(tuple(1 if s == winner else 2 for s in range(seats)), None, reason)

    @classmethod
    def from_draw(cls, seats: int, reason: str) -> Outcome:
        """Every seat shares first place."""
        return cls((1,) * seats, None, reason)

    @classmethod
    def from_scores(cls, scores: Iterable[float], reason: str) -> Outcome:
        """Rank by score, highest first; equal scores share a rank."""
        values = tuple(scores)
        ranks = tuple(1 + sum(other > mine for other in values) for mine in values)
        return cls(ranks, values, reason)

    def to_json(self) -> dict[str, Any]:
        """The outcome as a JSON-able dict."""
        scores = list(self.scores) if self.scores is not None else None
        return {"ranks": list(self.ranks), "scores": scores, "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """The outcome a to_json dict was made from."""
        scores = data.get("scores")
        return cls(
            tuple(int(r) for r in data["ranks"]),
            tuple(scores) if scores is not None else None,
            str(data["reason"]),
        )

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats ranked first."""
        return tuple(s for s, r in enumerate(self.ranks) if r == 1)


@dataclass(frozen=True)
class Finished:
    """The game is over."""

    outcome: Outcome


Pending = Roll | Shuffle | Await | Finished

# --- options ----------------------------------------------------------------------------

OptionValue = bool | int | str | None


@dataclass(frozen=True)
class Option:
    """A setting a game creator may choose, with its default and allowed values."""

    name: str
    default: OptionValue
    help: str
    kind: type = int
    choices: tuple[OptionValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, value: object) -> OptionValue:
        """Check and convert a value given as text or as a JSON value."""
        if value is None or value == "":
            if self.default is None:
                return None
            raise SetupError(f"option {self.name!r} needs a value")
        converted: OptionValue
        try:
            converted = self._convert(value)
        except (TypeError, ValueError) as e:
            raise SetupError(
                f"option {self.name!r}: {value!r} is not a valid {self.kind.__name__}"
            ) from e
        if self.choices is not None and converted not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise SetupError(f"option {self.name!r}: {value!r} is not one of {allowed}")
        if isinstance(converted, int) and not isinstance(converted, bool):
            if self.minimum is not None and converted < self.minimum:
                raise SetupError(f"option {self.name!r}: {converted} is below {self.minimum}")
            if self.maximum is not None and converted > self.maximum:
                raise SetupError(f"option {self.name!r}: {converted} is above {self.maximum}")
        return converted

    def _convert(self, value: object) -> OptionValue:
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        if self.kind is int:
            if isinstance(value, bool):
                raise ValueError(value)
            if isinstance(value, int):
                return value
            return int(str(value).strip())
        return str(value).strip()


# --- the rules of one game ----------------------------------------------------------

S = TypeVar("S")


class Rules(ABC, Generic[S]):
    """The definition of one game: pure functions from states and events to states."""

    kind: str
    title: str
    version: int
    seats: tuple[int, ...]
    options: tuple[Option, ...] = ()
    presets: Mapping[str, Mapping[str, OptionValue]] = {}
    # Optional capabilities, none by default (engine/capabilities.py): a mirror match (two
    # games of one deal, the seats swapped), a luck model, duplicate tables of one deal.
    mirror: bool = False
    luck: LuckModel | None = None
    duplicate: Duplicate | None = None

    def resolve_options(
        self, options: Mapping[str, object] | None = None, preset: str | None = None
    ) -> dict[str, OptionValue]:
        """Merge defaults, a preset and explicit options into a complete, checked dict."""
        specs = {o.name: o for o in self.options}
        resolved: dict[str, OptionValue] = {o.name: o.default for o in self.options}
        if preset is not None:
            if preset not in self.presets:
                known = ", ".join(self.presets) or "none"
                raise SetupError(f"unknown preset {preset!r}; presets: {known}")
            for key, setting in self.presets[preset].items():
                if key not in specs:
                    raise SetupError(f"preset {preset!r} sets unknown option {key!r}")
                resolved[key] = specs[key].parse(setting)
        for name, value in (options or {}).items():
            if name not in specs:
                known = ", ".join(specs) or "none"
                raise SetupError(f"unknown option {name!r}; options: {known}")
            resolved[name] = specs[name].parse(value)
        return resolved

    def check_seats(self, seats: int) -> None:
        """Raise SetupError unless the game can be played by this many seats."""
        if seats not in self.seats:
            allowed = ", ".join(str(n) for n in self.seats)
            raise SetupError(f"{self.title} is played by {allowed} players, not {seats}")

    @abstractmethod
    def seat_count(self, state: S) -> int:
        """How many seats the game has."""

    def seat_name(self, state: S, seat: int) -> str:
        """The name of a seat in sentences ("South", "Red")."""
        return f"Player {seat + 1}"

    @abstractmethod
    def start(self, seats: int, options: Mapping[str, object] | None = None) -> S:
        """A new game; bad options raise SetupError naming the option."""

    @abstractmethod
    def pending(self, state: S) -> Pending:
        """What the game waits for."""

    @abstractmethod
    def apply(self, state: S, event: Event) -> S:
        """The state after the event; raise IllegalAction if it is not allowed."""

    @abstractmethod
    def legal(self, state: S, seat: int) -> tuple[str, ...]:
        """Every legal action of that seat now, one per distinct outcome."""

    def is_secret(self, state: S, event: Event) -> bool:
        """Whether an event applied to this state must be hidden from the other seats."""
        return False

    def is_revealed(self, before: S, event: Event, now: S) -> bool:
        """Whether a secret event applied to `before` may be shown to all in the state `now`."""
        return not self.is_secret(before, event) or self.outcome(now) is not None

    def chance_address(self, state: S) -> str | None:
        """Where the pending roll or shuffle is used ("round2/seat1/roll3"), for dice scheme 2.

        Two games in the same position of the same deal name the same address, however they
        got there, so duplicate tables see the same dice. None: the game names no addresses
        and the server numbers its chance events in order, as in scheme 1.
        """
        return None

    def annotate(self, state: S, seat: int, action: str) -> dict[str, Any]:
        """Where an action starts and ends on the board ({"from": sq, "to": [sq, ...]}), if so."""
        return {}

    def describe_roll(self, state: S, values: tuple[int, ...]) -> str | None:
        """A roll in the game's words ("Rolled 2 humans, 1 tank"); None: the numbers say it."""
        return None

    def menu(self, state: S, seat: int, picked: Mapping[str, str]) -> Menu | None:
        """The seat's choices in stages, narrowed by `picked` (None: list legal() whole)."""
        return None

    def series_by_game_points(self, options: Mapping[str, OptionValue]) -> bool:
        """Whether the rulebook scores a series of games by each game's points (not places)."""
        return False

    def same_turn(self, before: S, after: S) -> bool:
        """Whether `after` continues the turn being played in `before` (no new mail needed)."""
        return False

    def bot_action(self, state: S, seat: int) -> str:
        """The house bot's choice for a seat that must act (used when a deadline expires)."""
        actions = self.legal(state, seat)
        if not actions:
            raise IllegalAction(f"{self.seat_name(state, seat)} has no legal action now")
        return actions[0]

    @abstractmethod
    def parse_action(self, state: S, seat: int, text: str) -> str:
        """What a player typed, as canonical notation; InvalidAction shows the form."""

    @abstractmethod
    def describe(self, state: S, played: Played, viewer: int | None) -> str:
        """A sentence for one reader about a seat's action taken in this state.

        The sentence names the acting seat (`played.seat`; in a simultaneous round the state
        alone cannot say who acts). `viewer` is the seat reading it, None for the public. A
        secret action (see is_secret) reads in full for its own seat only; any other viewer
        reads what the rules let them see at that moment, such as "Red plays a card in
        secret". Every other action reads the same for every viewer.
        """

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """A JSON-able picture of the game for one seat, or a spectator (None)."""

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        pending = self.pending(state)
        return pending.outcome if isinstance(pending, Finished) else None

    @abstractmethod
    def dump(self, state: S) -> dict[str, Any]:
        """A JSON snapshot of the state."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> S:
        """The state a snapshot was made from."""


def awaited_text(rules: Rules[Any], state: Any, pending: Pending) -> str:
    """Say in words what the game waits for."""
    if isinstance(pending, Await):
        names = " and ".join(rules.seat_name(state, s) for s in pending.seats)
        return f"the game waits for {names} ({pending.kind})"
    if isinstance(pending, Roll):
        return f"the game waits for a roll of {pending.count} dice"
    if isinstance(pending, Shuffle):
        return f"the game waits for a shuffle of {pending.n} cards"
    return "the game is over"


def step(rules: Rules[S], state: S, event: Event) -> S:
    """Apply one event after checking that it is what the game waits for."""
    pending = rules.pending(state)
    if isinstance(pending, Finished):
        raise IllegalAction("the game is over")
    if isinstance(event, Played):
        if not isinstance(pending, Await) or event.seat not in pending.seats:
            who = rules.seat_name(state, event.seat)
            raise IllegalAction(f"it is not {who}'s turn: {awaited_text(rules, state, pending)}")
    elif isinstance(event, Rolled):
        if not isinstance(pending, Roll):
            raise IllegalAction(f"no roll is due: {awaited_text(rules, state, pending)}")
        if len(event.values) != pending.count or not all(
            1 <= v <= pending.sides for v in event.values
        ):
            raise IllegalAction(
                f"a roll of {pending.count} dice of {pending.sides} sides is due, "
                f"not {list(event.values)}"
            )
    elif isinstance(event, Shuffled):
        if not isinstance(pending, Shuffle):
            raise IllegalAction(f"no shuffle is due: {awaited_text(rules, state, pending)}")
        if sorted(event.order) != list(range(pending.n)):
            raise IllegalAction(f"a shuffle must order 0..{pending.n - 1} exactly once each")
    elif isinstance(event, Resigned):
        if not 0 <= event.seat < rules.seat_count(state):
            raise IllegalAction(f"there is no seat {event.seat} in this game")
    return rules.apply(state, event)


def replay(
    rules: Rules[S], seats: int, options: Mapping[str, object] | None, events: Iterable[Event]
) -> S:
    """Fold the events over a new game."""
    state = rules.start(seats, options)
    for event in events:
        state = step(rules, state, event)
    return state


def split_actions(text: str) -> list[str]:
    """Split a mail's move text into actions: one per line or separated by ';'."""
    parts = [p.strip() for line in text.splitlines() for p in line.split(";")]
    return [p for p in parts if p]


__all__ = [
    "Await",
    "Event",
    "Finished",
    "IllegalAction",
    "InvalidAction",
    "Option",
    "OptionValue",
    "Outcome",
    "Pending",
    "Played",
    "Resigned",
    "Roll",
    "Rolled",
    "Rules",
    "Shuffle",
    "Shuffled",
    "awaited_text",
    "replay",
    "split_actions",
    "step",
]
