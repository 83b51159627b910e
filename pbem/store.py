"""The event log (DESIGN §3): append at an expected seq, the hash chain, loading, snapshots."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import engine

from .errors import StaleTurn
from .models import Event, Game, Snapshot

GENESIS = "0" * 64
SNAPSHOT_EVERY = 50


def canonical_json(obj: Any) -> str:
    """The one JSON text of a value that every hash is computed over."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(previous: str, seq: int, kind: str, seat: int | None, payload: Any, at: str) -> str:
    """hash[n] = sha256(hash[n-1] + "\\n" + canonical_json({seq, kind, seat, payload, at}))."""
    body = canonical_json({"seq": seq, "kind": kind, "seat": seat, "payload": payload, "at": at})
    return hashlib.sha256(f"{previous}\n{body}".encode()).hexdigest()


def now_text() -> str:
    """The current UTC time as the ISO 8601 text stored in events."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class LogEntry:
    """One event as stored: the payload decoded."""

    seq: int
    kind: str
    seat: int | None
    payload: dict[str, Any]
    at: str
    hash: str

    @classmethod
    def from_row(cls, row: Event) -> LogEntry:
        """Decode a stored row."""
        return cls(row.seq, row.kind, row.seat, json.loads(row.payload), row.at, row.hash)

    def to_json(self) -> dict[str, Any]:
        """The entry as exported, one JSON object per line."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "seat": self.seat,
            "payload": self.payload,
            "at": self.at,
            "hash": self.hash,
        }


def append(
    session: Session,
    game: Game,
    kind: str,
    payload: dict[str, Any],
    seat: int | None = None,
    at: str | None = None,
) -> LogEntry:
    """Insert the next event after the game's head; a lost race raises StaleTurn."""
    seq = game.head_seq + 1
    at = at or now_text()
    digest = chain_hash(game.head_hash, seq, kind, seat, payload, at)
    row = Event(
        game_id=game.id,
        seq=seq,
        kind=kind,
        seat=seat,
        payload=canonical_json(payload),
        at=at,
        hash=digest,
    )
    if session.get_bind().dialect.name == "sqlite":
        # One process writes SQLite and its write lock serializes writers: no race to lose.
        session.add(row)
    else:
        try:
            with session.begin_nested():
                session.add(row)
                session.flush()
        except IntegrityError as e:
            raise StaleTurn("this turn was already played: another move landed first") from e
    game.head_seq = seq
    game.head_hash = digest
    return LogEntry(seq, kind, seat, payload, at, digest)


def entries(session: Session, game: Game, after: int = -1) -> list[LogEntry]:
    """The game's events with seq > after, in order."""
    rows = session.scalars(
        select(Event).where(Event.game_id == game.id, Event.seq > after).order_by(Event.seq)
    )
    return [LogEntry.from_row(r) for r in rows]


def engine_event(entry: LogEntry) -> engine.Event | None:
    """The engine event a log entry stands for, or None for server-only entries."""
    payload = entry.payload
    if entry.kind == "move":
        return engine.Played(int(entry.seat or 0), str(payload["action"]))
    if entry.kind == "roll":
        return engine.Rolled(tuple(int(v) for v in payload["values"]))
    if entry.kind == "shuffle":
        return engine.Shuffled(tuple(int(v) for v in payload["order"]))
    if entry.kind == "resign":
        return engine.Resigned(int(entry.seat or 0))
    if entry.kind == "timeout":
        action = payload.get("action")
        seat = int(entry.seat or 0)
        return engine.Played(seat, str(action)) if action else engine.Resigned(seat)
    return None


@dataclass(frozen=True)
class Setup:
    """The setup event's content: what game with which rules and options."""

    kind: str
    rules_version: int
    seats: int
    players: tuple[str, ...]
    options: dict[str, Any]
    commitment: str

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> Setup:
        """Read a setup payload."""
        return cls(
            kind=payload["game"],
            rules_version=int(payload["rules_version"]),
            seats=int(payload["seats"]),
            players=tuple(payload["players"]),
            options=dict(payload["options"]),
            commitment=payload["commitment"],
        )


def fold(rules: engine.Rules[Any], setup: Setup, log: Iterable[LogEntry], state: Any = None) -> Any:
    """Replay log entries over a state (a new game when state is None)."""
    if state is None:
        state = rules.start(setup.seats, setup.options)
    for entry in log:
        event = engine_event(entry)
        if event is not None:
            state = engine.step(rules, state, event)
    return state


def load_setup(session: Session, game: Game) -> Setup:
    """The setup of a game, from its event 0."""
    row = session.get(Event, (game.id, 0))
    if row is None:
        raise LookupError(f"game {game.public_id} has no setup event")
    return Setup.from_payload(json.loads(row.payload))


def rebuild(session: Session, game: Game) -> tuple[Setup, Any]:
    """The game's current state: the newest usable snapshot plus the events after it."""
    setup = load_setup(session, game)
    rules = engine.rules_for(setup.kind)
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


@dataclass(frozen=True)
class ChainProblem:
    """The first place a log fails its checks."""

    seq: int
    reason: str


def check_chain(log: Sequence[LogEntry]) -> ChainProblem | None:
    """Recompute every hash; name the first seq whose hash or numbering is wrong."""
    previous = GENESIS
    for expected, entry in enumerate(log):
        if entry.seq != expected:
            return ChainProblem(entry.seq, f"expected seq {expected}, found {entry.seq}")
        digest = chain_hash(previous, entry.seq, entry.kind, entry.seat, entry.payload, entry.at)
        if digest != entry.hash:
            return ChainProblem(entry.seq, "hash does not match the event's content")
        previous = digest
    return None
