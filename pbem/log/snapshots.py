"""Cached states: snapshot rows every N events and an in-process cache, both only caches."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

import engine

from ..models import Game, Snapshot
from .chain import canonical_json
from .store import Setup, entries, fold, load_setup

SNAPSHOT_EVERY = 50


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


class StateCache:
    """Recently built states by (game id, head seq, head hash): a cache, like snapshots.

    A key names one exact log (the head hash covers every event), and states are immutable,
    so a hit is always the state that replaying that log gives.
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._states: OrderedDict[tuple[int, int, str], tuple[Setup, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game: Game) -> tuple[Setup, Any] | None:
        """The cached setup and state at the game's head, if any."""
        key = (game.id, game.head_seq, game.head_hash)
        with self._lock:
            found = self._states.get(key)
            if found is not None:
                self._states.move_to_end(key)
            return found

    def put(self, game: Game, setup: Setup, state: Any) -> None:
        """Remember the state at the game's head."""
        with self._lock:
            self._states[(game.id, game.head_seq, game.head_hash)] = (setup, state)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._states.clear()


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
        session.merge(
            Snapshot(
                game_id=game.id,
                seq=game.head_seq,
                rules_version=rules.version,
                state=canonical_json(rules.dump(state)),
            )
        )


def drop_snapshots(session: Session, game: Game) -> None:
    """Forget the cached states of a game."""
    session.execute(delete(Snapshot).where(Snapshot.game_id == game.id))
