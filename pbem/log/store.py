"""The event log (docs/architecture.md §4): append, read entries, the setup, the fold."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

from sqlalchemy import Table, inspect, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import engine

from ..errors import StaleTurn
from ..models import Event, Game
from .chain import canonical_json, chain_hash, commitment, new_salt, now_text
from .dice import SCHEMES

# The log format of new games (1: every payload chained as it is; 2: secret payloads chained
# as salted commitments). A game keeps the format it was created with.
LOG_FORMAT = 2
LOG_FORMATS = (1, 2)


@dataclass(frozen=True)
class LogEntry:
    """One event as stored (payload decoded), or as shown to the public.

    In log format 2 a secret event carries the `salt` of its commitment while its payload is
    known (stored, or revealed); while it is still secret the public sees only `commit`, and
    `payload` is empty.
    """

    seq: int
    kind: str
    seat: int | None
    payload: dict[str, Any]
    at: str
    hash: str
    salt: str | None = None
    commit: str | None = None

    @classmethod
    def from_row(cls, row: Event) -> LogEntry:
        """Decode a stored row."""
        return cls(row.seq, row.kind, row.seat, json.loads(row.payload), row.at, row.hash, row.salt)

    @property
    def hidden(self) -> bool:
        """Whether this is a secret event shown by its commitment only."""
        return self.commit is not None and self.salt is None

    @property
    def commitment(self) -> str | None:
        """The commitment of a secret event (format 2), None for every other event."""
        return commitment(self.salt, self.payload) if self.salt is not None else self.commit

    @property
    def covered(self) -> Any:
        """What the chain hashes in the payload's place: the payload, or its commitment."""
        commit = self.commitment
        return {"commit": commit} if commit is not None else self.payload

    @property
    def commitment_problem(self) -> str | None:
        """Why the payload and salt shown do not match the commitment shown, if they do not."""
        if self.salt is not None and self.commit is not None and self.commitment != self.commit:
            return "the revealed payload and salt do not match the event's commitment"
        return None

    def hide(self) -> LogEntry:
        """The entry as the public sees a secret not yet revealed: its commitment only."""
        return replace(self, payload={}, salt=None, commit=self.commitment)

    def to_json(self) -> dict[str, Any]:
        """The entry as exported, one JSON object per line."""
        data: dict[str, Any] = {"seq": self.seq, "kind": self.kind, "seat": self.seat}
        if not self.hidden:
            data["payload"] = self.payload
        if self.salt is not None:
            data["salt"] = self.salt
        commit = self.commitment
        if commit is not None:
            data["commit"] = commit
        data.update(at=self.at, hash=self.hash)
        return data


ADD_EVENT = cast(Table, Event.__table__).insert()
HELD = "pbem.held_games"  # session.info key: ids of the games whose rows this transaction locked


def hold(session: Session, game: Game) -> None:
    """Note that this transaction holds the game's row lock (SELECT ... FOR UPDATE)."""
    session.info.setdefault(HELD, set()).add(game.id)


@contextmanager
def racing(session: Session, lost: str) -> Iterator[None]:
    """Write the block in a savepoint; a key refusing it (a lost race) raises StaleTurn."""
    try:
        with session.begin_nested():
            yield
    except IntegrityError as e:
        raise StaleTurn(lost) from e


def insert(session: Session, row: Any, lost: str) -> None:
    """Insert a log row in a savepoint; the key refusing it (a lost race) raises StaleTurn."""
    with racing(session, lost):
        session.add(row)
        session.flush()


def append(
    session: Session,
    game: Game,
    kind: str,
    payload: dict[str, Any],
    seat: int | None = None,
    at: str | None = None,
    *,
    secret: bool = False,
) -> LogEntry:
    """Insert the next event after the game's head; a lost race raises StaleTurn.

    A secret event (format 2) gets a fresh salt, and the chain covers its commitment.
    """
    seq = game.head_seq + 1
    at = at or now_text()
    entry = LogEntry(seq, kind, seat, payload, at, "", new_salt() if secret else None)
    digest = chain_hash(game.head_hash, seq, kind, seat, entry.covered, at)
    row = {
        "game_id": game.id,
        "seq": seq,
        "kind": kind,
        "seat": seat,
        "payload": canonical_json(payload),
        "at": at,
        "hash": digest,
        "salt": entry.salt,
    }
    # A plain INSERT on the session's connection, not an ORM object: the log is never
    # updated, so the unit of work has nothing to track; and it does not flush the game's
    # pending head first, which is written once, at commit.
    if session.get_bind().dialect.name == "sqlite" or game.id in session.info.get(HELD, ()):
        # SQLite writers take turns, and a game row held FOR UPDATE keeps every other writer
        # of the game waiting: no race to lose, so no savepoint (two round trips) is needed.
        session.connection().execute(ADD_EVENT, row)
    else:
        with racing(session, "this turn was already played: another move landed first"):
            session.connection().execute(ADD_EVENT, row)
    game.head_seq = seq
    game.head_hash = digest
    return replace(entry, hash=digest)


GAMES = cast(Table, Game.__table__)
GAME_COLUMNS = frozenset(GAMES.c.keys())


def write_game(session: Session, game: Game) -> None:
    """Write the game row's changed columns now with one plain UPDATE.

    The unit of work would write the same UPDATE at commit, at several times the cost (a
    flush plans every object the session holds); afterwards the row counts as written, so the
    commit has nothing left to flush for it. Anything else changed (its seats) is left to
    the unit of work, and so is the row then.
    """
    state = inspect(game)
    changed = state.committed_state
    # Marking the row written takes SQLAlchemy's own `_commit_all` (what a flush calls; not a
    # public name): where a release lacks it, the unit of work writes the row as before.
    mark_written = getattr(state, "_commit_all", None)
    if mark_written is None or not state.modified or not changed \
            or not GAME_COLUMNS.issuperset(changed):
        return
    session.connection().execute(
        update(GAMES).where(GAMES.c.id == game.id), {key: state.dict[key] for key in changed}
    )
    mark_written(state.dict, session.identity_map)


ENTRY_COLUMNS = (Event.seq, Event.kind, Event.seat, Event.payload, Event.at, Event.hash, Event.salt)


def entries(
    session: Session, game: Game, after: int = -1, through: int | None = None
) -> list[LogEntry]:
    """The game's events with after < seq <= through (to the head by default), in order."""
    # Columns rather than ORM objects: the log is never updated, so there is nothing to track.
    query = select(*ENTRY_COLUMNS).where(Event.game_id == game.id, Event.seq > after)
    if through is not None:
        query = query.where(Event.seq <= through)
    rows = session.execute(query.order_by(Event.seq))
    return [LogEntry(*row[:3], json.loads(row[3]), *row[4:]) for row in rows]


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
    log_format: int = 1
    dice_scheme: int = 1

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> Setup:
        """Read a setup payload (without `log_format` it is format 1); ValueError says why not."""
        players = field(payload, "players", list)
        if not all(isinstance(name, str) for name in players):
            raise ValueError("the setup's players must be names (text)")
        seats = field(payload, "seats", int)
        if not 1 <= seats <= MAX_SEATS or len(players) != seats:
            raise ValueError(f"the setup names {len(players)} players for {seats} seats")
        log_format = payload.get("log_format", 1)
        if log_format not in LOG_FORMATS or isinstance(log_format, bool):
            raise ValueError(f"the setup's log_format {log_format!r} is not one of {LOG_FORMATS}")
        dice_scheme = payload.get("dice_scheme", 1)
        if dice_scheme not in SCHEMES or isinstance(dice_scheme, bool):
            raise ValueError(f"the setup's dice_scheme {dice_scheme!r} is not one of {SCHEMES}")
        commitment = field(payload, "commitment", str)
        if not is_hex(commitment, 64):
            raise ValueError("the setup's dice commitment is not 64 hex digits")
        return cls(
            kind=field(payload, "game", str),
            rules_version=field(payload, "rules_version", int),
            seats=seats,
            players=tuple(players),
            options=dict(field(payload, "options", dict)),
            commitment=commitment,
            log_format=int(log_format),
            dice_scheme=int(dice_scheme),
        )

    def rules(self) -> engine.Rules[Any]:
        """The rules this game was created with; UnknownGame if this server lacks them."""
        return engine.rules_for(self.kind, self.rules_version)


MAX_SEATS = 64
T = TypeVar("T")


def field(payload: Any, name: str, kind: type[T]) -> T:
    """A payload's field of the given JSON type; ValueError if it is missing or not one."""
    value = payload.get(name) if isinstance(payload, dict) else None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"{name!r} must be {JSON_TYPES.get(kind, kind.__name__)}, not {value!r}")
    return value


JSON_TYPES: dict[type, str] = {
    int: "a whole number",
    str: "text",
    list: "a list",
    dict: "an object",
    bool: "true or false",
}


def is_hex(text: object, length: int) -> bool:
    """Whether a value is `length` lower-case hex digits."""
    return isinstance(text, str) and len(text) == length and all(c in HEX for c in text)


HEX = frozenset("0123456789abcdef")


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
