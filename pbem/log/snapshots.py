"""Cached states: snapshot rows every N events and in-process caches by head, all only caches."""

from __future__ import annotations

import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

from sqlalchemy import Table, and_, bindparam, delete, func, select, union_all
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

import engine

from ..models import Event, Game, Snapshot
from .chain import canonical_json
from .store import ENTRY_COLUMNS, LogEntry, Setup, entries, fold

# Chosen by measurement (bench/bench_rebuild.py, its interval table): a cold read costs a
# fixed 0.15 ms or so of CPU plus about 20 us for each event after the newest snapshot, and
# a full replay of 1,000 events about 20 ms. Every 10 events a cold read of a long game is
# 60 to 80 times faster than a replay on average (at worst, 9 events after the snapshot,
# about 55), every 25 under 50 times; a snapshot write (about 0.1 ms) every 5 moves of two
# events costs a move about 0.02 ms, as a snapshot every 50 events did through the ORM.
SNAPSHOT_EVERY = 10
T = TypeVar("T")


# A cold read in one statement, built once: the setup (event 0), the events from the newest
# snapshot at or before the head to the end of the log, and that snapshot's state on its own
# event's row (a snapshot at seq s is the state after event s).
NEWEST = (
    select(func.coalesce(func.max(Snapshot.seq), 0))
    .where(Snapshot.game_id == bindparam("game_id"), Snapshot.seq <= bindparam("head"))
    .scalar_subquery()
)
SNAPSHOT_OF_ROW = and_(Snapshot.game_id == Event.game_id, Snapshot.seq == Event.seq,
                       Snapshot.seq <= bindparam("head"))
# Two ranges of the key rather than one OR, which SQLite answers by reading every event of the
# game: the setup, then the newest snapshot's event and every event after it.
READ = union_all(
    *(
        select(Event.seq.label("seq"), *ENTRY_COLUMNS[1:], Snapshot.rules_version, Snapshot.state)
        .select_from(Event)
        .outerjoin(Snapshot, SNAPSHOT_OF_ROW)
        .where(Event.game_id == bindparam("game_id"), *where)
        for where in ((Event.seq == 0,), (Event.seq >= NEWEST, Event.seq > 0))
    )
).order_by("seq")


@dataclass(frozen=True)
class Cold:
    """What a cold read finds: the setup, the newest snapshot at or before the head (seq 0
    and no state when there is none), and the events after it, to the end of the log."""

    setup: Setup
    seq: int
    rules_version: int | None
    state: str | None
    log: list[LogEntry]


def read_newest(session: Session, game: Game) -> Cold:
    """The setup, the newest snapshot and the events after it, in one statement."""
    rows = session.execute(READ, {"game_id": game.id, "head": game.head_seq}).all()
    if not rows or rows[0][0] != 0:
        raise LookupError(f"game {game.public_id} has no setup event")
    setup = Setup.from_payload(json.loads(rows[0][3]))
    newest = rows[1] if len(rows) > 1 and rows[1][8] is not None else rows[0]
    log = [LogEntry(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5], row[6])
           for row in rows if row[0] > newest[0]]
    return Cold(setup, newest[0], newest[7], newest[8], log)


def rebuild(session: Session, game: Game) -> tuple[Setup, Any]:
    """The game's current state: the newest usable snapshot plus the events after it."""
    cold = read_newest(session, game)
    setup = cold.setup
    rules = setup.rules()
    if cold.state is None:  # no snapshot: the log is the whole game
        state = None
    elif cold.rules_version == rules.version:
        state = rules.load(json.loads(cold.state))
    else:  # the newest snapshot is of other rules: look for an older one of these
        return setup, rebuild_by_version(session, game, setup, rules)
    return setup, fold(rules, setup, cold.log, state)


def rebuild_by_version(
    session: Session, game: Game, setup: Setup, rules: engine.Rules[Any]
) -> Any:
    """The state from the newest snapshot of the rules' version, else from the start."""
    snapshot = session.scalars(
        select(Snapshot)
        .where(Snapshot.game_id == game.id, Snapshot.rules_version == rules.version)
        .order_by(Snapshot.seq.desc())
        .limit(1)
    ).first()
    if snapshot is not None and snapshot.seq <= game.head_seq:
        state = rules.load(json.loads(snapshot.state))
        return fold(rules, setup, entries(session, game, after=snapshot.seq), state)
    return fold(rules, setup, entries(session, game, after=0))


class Headed(Protocol):
    """A row with a log: a game's, or a tournament's."""

    @property
    def id(self) -> int: ...

    @property
    def head_seq(self) -> int: ...

    @property
    def head_hash(self) -> str: ...


class HeadCache(Generic[T]):
    """Values worked out from one exact log, by (row id, head seq, head hash): a cache.

    A key names one exact log (the head hash covers every event), and the values kept are
    never changed, so a hit is always what working it out from that log again would give.
    """

    every: weakref.WeakSet[HeadCache[Any]] = weakref.WeakSet()  # for a fresh start, in tests

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[int, int, str], T] = OrderedDict()
        self._lock = threading.Lock()
        HeadCache.every.add(self)

    def get(self, game: Headed) -> T | None:
        """The value kept for the game's log as it is now, if any."""
        key = (game.id, game.head_seq, game.head_hash)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def keep(self, game: Headed, value: T) -> None:
        """Remember a value worked out from the game's log as it is now."""
        with self._lock:
            self._kept[(game.id, game.head_seq, game.head_hash)] = value
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def newest(self, ident: int) -> tuple[int, str, T] | None:
        """The value kept for the longest log of this row id: its head seq and hash, and it.

        Only a start for working out a longer log's value: the caller checks that its log
        holds that hash at that seq (the same database, the same events).
        """
        with self._lock:
            found = [(seq, digest, value) for (key, seq, digest), value in self._kept.items()
                     if key == ident]
        return max(found, key=lambda kept: kept[0], default=None)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._kept.clear()

    @classmethod
    def clear_every(cls) -> None:
        """Forget everything in every cache of this process, as a fresh process would."""
        for cache in list(cls.every):
            cache.clear()


class StateCache(HeadCache[tuple[Setup, Any]]):
    """Recently built states with their setups, by game head."""

    def put(self, game: Game, setup: Setup, state: Any) -> None:
        """Remember the state at the game's head."""
        self.keep(game, (setup, state))


CACHE = StateCache()


def current(session: Session, game: Game) -> tuple[Setup, Any]:
    """The game's state at its head: from the cache, else rebuilt from the log."""
    found = CACHE.get(game)
    if found is None:
        found = rebuild(session, game)
        CACHE.put(game, *found)
    return found


def maybe_snapshot(session: Session, game: Game, rules: engine.Rules[Any], state: Any) -> None:
    """Cache the state when the head crosses a multiple of SNAPSHOT_EVERY."""
    if game.head_seq % SNAPSHOT_EVERY == 0 and game.head_seq > 0:
        keep(session, game, game.head_seq, rules, state)


SNAPSHOTS = cast(Table, Snapshot.__table__)
# Write a snapshot, or replace the one at that seq, in each database's words: a plain
# statement on the connection (the unit of work would first ask whether the row exists).
PUT = {
    name: dialect.insert(SNAPSHOTS).on_conflict_do_update(
        index_elements=["game_id", "seq"],
        set_={"rules_version": dialect.insert(SNAPSHOTS).excluded.rules_version,
              "state": dialect.insert(SNAPSHOTS).excluded.state},
    )
    for name, dialect in (("postgresql", postgresql), ("sqlite", sqlite))
}


def keep(session: Session, game: Game, seq: int, rules: engine.Rules[Any], state: Any) -> None:
    """Cache the state after event seq."""
    row = {"game_id": game.id, "seq": seq, "rules_version": rules.version,
           "state": canonical_json(rules.dump(state))}
    session.connection().execute(PUT[session.get_bind().dialect.name], row)


def checkpoints(
    rules: engine.Rules[Any], setup: Setup, log: Iterable[LogEntry]
) -> tuple[list[tuple[int, Any]], Any]:
    """The states after each event whose seq is a multiple of SNAPSHOT_EVERY, and at the end."""
    state = rules.start(setup.seats, setup.options)
    kept = []
    for entry in log:
        state = fold(rules, setup, (entry,), state)
        if entry.seq % SNAPSHOT_EVERY == 0 and entry.seq > 0:
            kept.append((entry.seq, state))
    return kept, state


def drop_snapshots(session: Session, game: Game) -> None:
    """Forget the cached states of a game."""
    session.execute(delete(Snapshot).where(Snapshot.game_id == game.id))
