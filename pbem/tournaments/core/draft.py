"""The tournament while its log is being folded: a mutable draft, frozen once at the end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .errors import IllegalEvent, InvalidEvent, text
from .model import (
    ACTIVE,
    Bye,
    Config,
    Entrant,
    Message,
    Pairing,
    RoundStart,
    Table,
    Tournament,
    Undone,
)


@dataclass
class Draft:
    """The tournament while its log is being read: mutable, private to folding.

    Copying a frozen Tournament for every result would make a fold quadratic in the
    number of games, so the fold fills a draft and freezes it once at the end.
    """

    config: Config | None = None
    created_at: datetime | None = None
    entrants: dict[str, Entrant] = field(default_factory=dict)
    former: dict[str, tuple[str, int]] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    games: dict[str, list[str]] = field(default_factory=dict)
    byes: list[Bye] = field(default_factory=list)
    forbidden: list[tuple[str, str]] = field(default_factory=list)
    pairings: list[Pairing] = field(default_factory=list)
    undone: list[Undone] = field(default_factory=list)
    started_at: datetime | None = None
    closed_at: datetime | None = None
    standings_hash: str | None = None
    head: int = -1
    directors: list[str] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    entries_closed: datetime | None = None
    round_starts: list[RoundStart] = field(default_factory=list)
    # (seq of a register event, active entrants after it): the next register event counts
    # on from it instead of counting every entrant again, so registering n players is linear.
    # Only right just after that event (any other event may change who is active).
    counted: tuple[int, int] | None = None

    def active_count(self) -> int:
        """The active entrants now."""
        if self.counted is not None and self.counted[0] == self.head:
            return self.counted[1]
        return sum(1 for x in self.entrants.values() if x.status == ACTIVE)

    def freeze(self) -> Tournament:
        """Return the Tournament this draft holds."""
        if self.config is None or self.created_at is None:
            raise InvalidEvent("an empty log: a tournament starts with a create event")
        return Tournament(
            config=self.config,
            created_at=self.created_at,
            entrants=tuple(self.entrants.values()),
            tables=tuple(self.tables.values()),
            byes=tuple(self.byes),
            forbidden=tuple(self.forbidden),
            pairings=tuple(self.pairings),
            started_at=self.started_at,
            closed_at=self.closed_at,
            standings_hash=self.standings_hash,
            head=self.head,
            entries_closed=self.entries_closed,
            former=tuple((old, new, seq) for old, (new, seq) in self.former.items()),
            undone=tuple(self.undone),
            directors=tuple(self.directors),
            messages=tuple(self.messages),
            round_starts=tuple(self.round_starts),
        )

    @classmethod
    def thaw(cls, t: Tournament) -> Draft:
        """A draft holding a folded tournament, to fold later events onto (copies only)."""
        games: dict[str, list[str]] = {}
        for table in t.tables:
            for player in table.seats:
                games.setdefault(player, []).append(table.game)
        return cls(
            config=t.config,
            created_at=t.created_at,
            entrants={e.player: e for e in t.entrants},
            former={old: (new, seq) for old, new, seq in t.former},
            tables={table.game: table for table in t.tables},
            games=games,
            byes=list(t.byes),
            forbidden=list(t.forbidden),
            pairings=list(t.pairings),
            started_at=t.started_at,
            closed_at=t.closed_at,
            standings_hash=t.standings_hash,
            head=t.head,
            undone=list(t.undone),
            directors=list(t.directors),
            messages=list(t.messages),
            entries_closed=t.entries_closed,
            round_starts=list(t.round_starts),
        )

    def entrant(self, payload: Mapping[str, Any], key: str, where: str) -> Entrant:
        """Read a player field naming a known entrant."""
        player = text(payload, key, where)
        found = self.entrants.get(player)
        if found is None:
            if player in self.former:
                by, seq = self.former[player]
                raise IllegalEvent(f"{where}: {player!r} was replaced by {by!r} at event {seq}")
            raise IllegalEvent(f"{where}: {player!r} is not registered")
        return found

    def table(self, payload: Mapping[str, Any], where: str) -> Table:
        """Read a game field naming a game of this event."""
        game = text(payload, "game", where)
        found = self.tables.get(game)
        if found is None:
            raise IllegalEvent(f"{where}: game {game!r} is not part of this tournament")
        return found

    def is_open(self, table: Table) -> bool:
        """Tell whether a game holds its round open (see Tournament.is_open)."""
        if table.result is not None or table.annulled is not None:
            return False
        if any(table.game in s.games for s in self.round_starts if s.unfinished == "carry"):
            return False
        return all(self.entrants[p].status == ACTIVE for p in table.seats)
