"""A tournament as the fold of its event log sees it: entrants, tables, results and byes.

A tournament is an append-only log like a game's (DESIGN section 3). Each event has a
`seq` (0, 1, 2, ...), a `kind`, a JSON `payload` and a time `at`. Kinds and payloads, as
the server stores and exports them (times are ISO 8601 UTC, players are id strings):

- `create` {name, system: a registered format ("round-robin", "swiss", "rolling-swiss",
  "knockout", or an installed one), kind, preset, options, table_sizes: [allowed seats per
  table], the format's settings (rounds, games_per_player, max_concurrent, pair_min_free,
  pair_max_wait_hours, advance for the built-ins), deadline_hours, timeout_policy,
  scoring: {"by": "places" | "game-points"}, tiebreaks: [names], rated,
  registration_closes: ISO or null, director, and who may enter: description, max_players,
  starts_at, private, rating_min, rating_max, min_rated_games; a Swiss's timetable:
  round_starts: [ISO: the time by which each round from 2 to `rounds` starts] and
  unfinished_games: "adjudicate" | "carry" (what becomes of the last round's games still
  unfinished then)}; see `config.parse_config`.
- `register` {player, name, rating: number or null, rated_games (optional), by (optional:
  who entered or invited them, for a private event)}. After the start, a late entry where
  the format takes one (see `entries.py`).
- `withdraw` {player, reason}: before the start the player leaves; after it, they stop
  being paired and keep the games they played.
- `replace` {player, by, name}: player `by` takes `player`'s place, history and standing.
- `start` {entrants: [player ids in seeding order]}: registered players left out drop out.
- `pair` {round: int or null, tables: [{game, seats: [player ids in seat order]}],
  byes: [{player, points}], away: [player ids not paired because they were away],
  inputs: sha256 hex of the canonical JSON of the pairing inputs, algorithm: "name/version"}.
  A bye of 0 points is a round sat out (away, or a round robin's free round).
- `result` {game, ranks: [per seat, 1 best, equal for a shared place], scores: [per seat]
  or null, flags: ["forfeit", "timeout", "bot", "adjudicated", "annulled", ...],
  finished_at: ISO, head: the game log's head hash, timed_out: [seats] (optional; by
  default, with a "timeout" flag, the seats ranked last)}.
- `director` {by, reason, action, ...}: "forbid" {players: [a, b]}, "bye" {player,
  round, points}, "disqualify" {player}, "undo" {game} (an unplayed pairing), "annul"
  {game}, "adjudicate" {game, ranks, scores}, "extend" {hours, and game or round},
  "add-director" {player, name}: a co-director, added by the lead director;
  "hand-over" {player, name}: the lead passes the event on and stops directing it;
  "message" {text}: a message to every entrant, its subject in `reason`,
  "close_entries" {} (no more entries, late ones included).
- `close` {standings: sha256 hex of the canonical JSON of the export's standings}.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

ACTIVE, WITHDRAWN, DISQUALIFIED = "active", "withdrawn", "disqualified"


@dataclass(frozen=True)
class Config:
    """What a `create` event sets up: the format, the game and the rules of the event.

    `settings` holds the format's own settings that the event gives (see `contract.Setting`).
    """

    name: str
    system: str
    kind: str
    preset: str | None
    options: Mapping[str, Any]
    table_sizes: tuple[int, ...]
    settings: Mapping[str, int | float]
    deadline_hours: float
    timeout_policy: str
    scoring: str
    tiebreaks: tuple[str, ...]
    rated: bool
    registration_closes: datetime | None
    director: str
    duplicate: bool = False  # every table of a round rolls the same addressed dice
    description: str = ""  # the director's notes for the entrants, as written
    max_players: int | None = None  # the most entrants the director takes
    starts_at: datetime | None = None  # the event starts by itself then (once enough entered)
    private: bool = False  # entry by the director's invitation only
    rating_min: float | None = None  # entrants' rating in the game, at least
    rating_max: float | None = None  # and at most
    min_rated_games: int | None = None  # rated games of the game an entrant has played
    round_starts: tuple[datetime, ...] = ()  # a Swiss's timetable: round 2, 3, ... starts by
    unfinished_games: str | None = None  # then: "adjudicate" or "carry" the late games

    def round_due(self, round_: int) -> datetime | None:
        """Return the time by which a round starts on the timetable (None: when it is due)."""
        index = round_ - 2
        return self.round_starts[index] if 0 <= index < len(self.round_starts) else None

    @property
    def game_hours(self) -> int:
        """The hours each game gives a decision: the event's deadline, in whole hours.

        A new event may only ask for whole hours (config.check_limits); one created before
        that rule with a fraction has its games given the nearest whole hour (at least 1).
        """
        return max(1, round(self.deadline_hours))

    @property
    def two_player(self) -> bool:
        """Tell whether every table seats two players (pairing by matching, chess tie-breaks)."""
        return self.table_sizes == (2,)

    def whole(self, name: str) -> int | None:
        """Return a whole-number setting of the format, or None when the event leaves it out."""
        value = self.settings.get(name)
        return None if value is None else int(value)

    def number(self, name: str) -> float | None:
        """Return a setting of the format as a number, or None when the event leaves it out."""
        value = self.settings.get(name)
        return None if value is None else float(value)

    # The built-in formats' settings as attributes, as code read them before formats were
    # plug-ins; a format's own code reads `whole(name)` or `number(name)`.
    rounds = property(lambda self: self.whole("rounds"))
    games_per_player = property(lambda self: self.whole("games_per_player"))
    max_concurrent = property(lambda self: self.whole("max_concurrent"))
    pair_min_free = property(lambda self: self.whole("pair_min_free"))
    pair_max_wait_hours = property(lambda self: self.number("pair_max_wait_hours"))
    advance = property(lambda self: self.whole("advance"))


@dataclass(frozen=True)
class Event:
    """One event of a tournament's log, as the server stores it."""

    seq: int
    kind: str
    payload: Mapping[str, Any]
    at: datetime


@dataclass(frozen=True)
class Leaving:
    """How an entrant left the event: withdrawn or disqualified, by whom (None: themselves),
    why and when."""

    how: str
    by: str | None
    reason: str
    at: datetime


@dataclass(frozen=True)
class Entrant:
    """A player in the event; `replaced` lists the earlier holders of this place."""

    player: str
    name: str
    status: str
    rating: float | None
    replaced: tuple[str, ...] = ()
    left: Leaving | None = None
    entered_at: datetime | None = None  # a late entry's moment (None: entered before the start)

    @property
    def active(self) -> bool:
        """Tell whether the player is still paired."""
        return self.status == ACTIVE


@dataclass(frozen=True)
class Result:
    """How a game of the event ended, as its `result` (or an adjudication) says."""

    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None
    flags: tuple[str, ...]
    finished_at: datetime
    head: str
    timed_out: tuple[int, ...]
    seq: int


@dataclass(frozen=True)
class Table:
    """A game of the event: who sits where, when it was paired and how it ended."""

    game: str
    round: int | None
    seats: tuple[str, ...]
    paired_at: datetime
    seq: int
    result: Result | None = None
    annulled: str | None = None
    extra_hours: float = 0.0

    def deadline(self, hours: float) -> datetime:
        """Return when the game should be over, counting the director's extensions."""
        return self.paired_at + timedelta(hours=hours + self.extra_hours)


@dataclass(frozen=True)
class Undone:
    """A pairing the director took back before anyone moved: its table as it stood, with
    any extension it had been given, and who undid it, why and when."""

    table: Table
    by: str
    reason: str
    seq: int
    at: datetime


@dataclass(frozen=True)
class Bye:
    """Points without a game: from a pairing (`by` None) or from the director."""

    player: str
    round: int | None
    points: float
    seq: int
    by: str | None = None
    late: bool = False  # a round missed by a late entrant: not a pairing bye


@dataclass(frozen=True)
class Pairing:
    """One `pair` event: when, which round, which games, and what it was derived from."""

    seq: int
    round: int | None
    at: datetime
    games: tuple[str, ...]
    away: tuple[str, ...]
    inputs: str
    algorithm: str


@dataclass(frozen=True)
class RoundStart:
    """A round started before the last one was over: by the director, or by the server on
    the timetable; the last round's unfinished games were adjudicated or carried."""

    seq: int
    round: int
    at: datetime
    by: str
    reason: str
    unfinished: str  # "adjudicate" or "carry"
    games: tuple[str, ...]
    timetable: bool


@dataclass(frozen=True)
class Message:
    """A director's message to every entrant, kept on the event's page."""

    seq: int
    at: datetime
    by: str
    subject: str
    text: str


@dataclass(frozen=True)
class Tournament:
    """The state of a tournament after folding its log."""

    config: Config
    created_at: datetime
    entrants: tuple[Entrant, ...]
    tables: tuple[Table, ...]
    byes: tuple[Bye, ...]
    forbidden: tuple[tuple[str, str], ...]
    pairings: tuple[Pairing, ...]
    started_at: datetime | None
    closed_at: datetime | None
    standings_hash: str | None
    head: int
    # Players replaced: (who left, who took the place, at which seq), in the log's order.
    former: tuple[tuple[str, str, int], ...] = ()
    undone: tuple[Undone, ...] = ()
    directors: tuple[str, ...] = ()  # player ids: the lead director first, then co-directors
    messages: tuple[Message, ...] = ()
    entries_closed: datetime | None = None  # when the director closed the entries
    round_starts: tuple[RoundStart, ...] = ()  # rounds started before the last was over

    @cached_property
    def carried(self) -> frozenset[str]:
        """Return the games carried into a later round: they no longer hold their round open."""
        return frozenset(g for s in self.round_starts if s.unfinished == "carry"
                         for g in s.games)

    def holding(self, round_: int) -> tuple[Table, ...]:
        """Return the games that keep the next round from starting: open and not carried."""
        return tuple(t for t in self.open_tables(round_) if t.game not in self.carried)

    def round_start(self, round_: int) -> RoundStart | None:
        """Return how a round was started early, if it was."""
        return next((s for s in self.round_starts if s.round == round_), None)

    @property
    def started(self) -> bool:
        """Tell whether the `start` event has been folded."""
        return self.started_at is not None

    @property
    def closed(self) -> bool:
        """Tell whether the `close` event has been folded."""
        return self.closed_at is not None

    @cached_property
    def seeding(self) -> Mapping[str, int]:
        """Return each entrant's index: seeding order after the start, else registration."""
        return {e.player: i for i, e in enumerate(self.entrants)}

    @cached_property
    def by_game(self) -> Mapping[str, Table]:
        """Return the tables by game id."""
        return {table.game: table for table in self.tables}

    @cached_property
    def games_of(self) -> Mapping[str, tuple[Table, ...]]:
        """Return each entrant's tables in pairing order."""
        found: dict[str, list[Table]] = {e.player: [] for e in self.entrants}
        for table in self.tables:
            for player in table.seats:
                found.setdefault(player, []).append(table)
        return {player: tuple(tables) for player, tables in found.items()}

    def entrant(self, player: str) -> Entrant:
        """Return the entrant with this id; KeyError names an unknown one."""
        index = self.seeding.get(player)
        if index is None:
            raise KeyError(f"{player!r} is not an entrant of {self.config.name!r}")
        return self.entrants[index]

    def active(self) -> tuple[str, ...]:
        """Return the active entrants in seeding order."""
        return tuple(e.player for e in self.entrants if e.active)

    def is_open(self, table: Table) -> bool:
        """Tell whether a game holds its round open: no result, not annulled, nobody gone."""
        if table.result is not None or table.annulled is not None:
            return False
        return all(self.entrants[self.seeding[p]].active for p in table.seats)

    def open_tables(self, round_: int | None = None) -> tuple[Table, ...]:
        """Return the games that hold a round open (all rounds when `round_` is None)."""
        return tuple(
            t for t in self.tables if (round_ is None or t.round == round_) and self.is_open(t)
        )

    def unfinished(self) -> tuple[Table, ...]:
        """Return the games with no result that are not annulled (a gone player's too)."""
        return tuple(t for t in self.tables if t.result is None and t.annulled is None)

    def last_round(self) -> int:
        """Return the highest round paired so far (0 before the first)."""
        return max((p.round for p in self.pairings if p.round is not None), default=0)
