"""Cached states: snapshot rows every N events and in-process caches by head, all only caches."""

from __future__ import annotations

import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, Generic, Protocol, TypeVar

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

import engine

from ..models import Game, Snapshot
from .chain import canonical_json
from .store import LogEntry, Setup, entries, fold, load_setup

SNAPSHOT_EVERY = 50
T = TypeVar("T")


def rebuild(session: Session, game: Game) -> tuple[Setup, Any]:
    """The game's current state: the newest usable snapshot plus the events after it."""
    setup = load_setup(session, game)
    rules = setup.rules()
    snapshot = session.scalars(
        select(Snapshot)
        .where(Snapshot.game_id == game.id, Snapshot.rules_version == rules.version)
        .order_by(Snapshot.seq.desc())
        .limit(1)
    ).first()
    if snapshot is not None and snapshot.seq <= game.head_seq:
        state = rules.load(json.loads(snapshot.state))
        return setup, fold(rules, setup, entries(session, game, after=snapshot.seq), state)
    return setup, fold(rules, setup, entries(session, game, after=0))


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


def keep(session: Session, game: Game, seq: int, rules: engine.Rules[Any], state: Any) -> None:
    """Cache the state after event seq."""
    session.merge(
        Snapshot(
            game_id=game.id,
            seq=seq,
            rules_version=rules.version,
            state=canonical_json(rules.dump(state)),
        )
    )


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
