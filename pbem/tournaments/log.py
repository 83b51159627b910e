"""A tournament's log: append at the head and read back, chained exactly like a game's log.

Its folded state is kept in this process by head (`FOLDS`), like a game's state: every page
and API answer of one head shares one fold, and a longer log is folded on from the newest
fold kept for a shorter one, reading only the events after it. The server also stores the
fold in the database (`TournamentFold`) whenever the log reaches a multiple of FOLD_EVERY
events, in the transaction that appends the event, so a new process loads it and folds on
from there rather than folding the whole log.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..errors import NotFound
from ..log.chain import canonical_json, chain_hash, now_text
from ..log.snapshots import HeadCache
from ..log.store import LogEntry, insert
from ..models import Tournament, TournamentEvent, TournamentFold
from .core import stored
from .core.crosstable import Crosstable
from .core.fold import VERSION as FOLD_VERSION
from .core.fold import fold
from .core.model import Event
from .core.model import Tournament as State
from .core.standings import Standing, standings


def append(
    session: Session,
    tournament: Tournament,
    kind: str,
    payload: dict[str, Any],
    at: str | None = None,
) -> LogEntry:
    """Insert the next event after the tournament's head; a lost race raises StaleTurn."""
    seq = tournament.head_seq + 1
    at = at or now_text()
    digest = chain_hash(tournament.head_hash, seq, kind, None, payload, at)
    row = TournamentEvent(
        tournament_id=tournament.id,
        seq=seq,
        kind=kind,
        payload=canonical_json(payload),
        at=at,
        hash=digest,
    )
    insert(session, row, "another change to this tournament landed at the same moment")
    tournament.head_seq = seq
    tournament.head_hash = digest
    return LogEntry(seq, kind, None, payload, at, digest)


def entries(session: Session, tournament: Tournament, after: int = -1,
            kinds: Sequence[str] | None = None) -> list[LogEntry]:
    """The tournament's events after seq `after` (all of them by default), in order; only
    those of the given kinds when `kinds` is set."""
    # Columns rather than ORM objects: the log is never updated, so there is nothing to track.
    query = (
        select(TournamentEvent.seq, TournamentEvent.kind, TournamentEvent.payload,
               TournamentEvent.at, TournamentEvent.hash)
        .where(TournamentEvent.tournament_id == tournament.id, TournamentEvent.seq > after)
        .order_by(TournamentEvent.seq)
    )
    if kinds is not None:
        query = query.where(TournamentEvent.kind.in_(kinds))
    rows = session.execute(query)
    return [LogEntry(seq, kind, None, json.loads(payload), at, digest)
            for seq, kind, payload, at, digest in rows]


def core_events(log: Sequence[LogEntry]) -> list[Event]:
    """The log as the pure core reads it: payloads and times, without the hashes."""
    return [Event(e.seq, e.kind, e.payload, datetime.fromisoformat(e.at)) for e in log]


class Folded:
    """A tournament's state at one head, and what pages work out from it, each once.

    Shared by every request of that head in this process, so nothing here is ever changed
    after it is worked out.
    """

    def __init__(self, state: State) -> None:
        self.state = state

    @cached_property
    def standings(self) -> tuple[Standing, ...]:
        """The standings, in order."""
        return standings(self.state)

    @cached_property
    def crosstable(self) -> Crosstable:
        """The crosstable's index: ranks and byes by player."""
        return Crosstable.of(self.state, self.standings)

    @cached_property
    def standing_of(self) -> dict[str, Standing]:
        """Each entrant's line of the standings."""
        return {row.player: row for row in self.standings}


FOLDS: HeadCache[Folded] = HeadCache(64)
FOLD_EVERY = 50  # the fold is stored when the log reaches a multiple of this many events
STORED = f"{FOLD_VERSION}/{stored.SHAPE}"  # a stored fold of another version is never read


def folded(session: Session, row: Tournament) -> Folded:
    """The fold of the tournament's log at its head: kept, folded on from a shorter log, or new.

    A fold kept for a shorter log (in this process, or stored) is a start only if this log
    holds the same event at its head seq (same hash: the same events up to there), so a fold
    is never taken from another database or another log.
    """
    found = FOLDS.get(row)
    if found is not None:
        return found
    state = start(session, row)
    after = -1 if state is None else state.head
    found = Folded(fold(core_events(entries(session, row, after)), after=state))
    FOLDS.keep(row, found)
    return found


def start(session: Session, row: Tournament) -> State | None:
    """The newest fold of this log up to an event, kept in this process or stored: a start.

    The stored fold is read only when this process keeps none as recent (the events between
    cost less to fold than the stored fold to load).
    """
    kept = FOLDS.newest(row.id)
    if kept is not None and kept[0] > row.head_seq:
        kept = None
    if kept is None or row.head_seq - kept[0] >= FOLD_EVERY:
        found = session.execute(
            select(TournamentFold.seq, TournamentFold.hash, TournamentFold.state)
            .where(TournamentFold.tournament_id == row.id, TournamentFold.version == STORED,
                   TournamentFold.seq <= row.head_seq,
                   TournamentFold.seq > (-1 if kept is None else kept[0]))
        ).first()
        if found is not None and holds(session, row, found.seq, found.hash):
            try:
                return stored.load(json.loads(found.state))
            except (ValueError, TypeError, KeyError, IndexError):
                pass  # only a cache: a row that does not read back is no start
    if kept is not None and holds(session, row, kept[0], kept[1]):
        return kept[2].state
    return None


def holds(session: Session, row: Tournament, seq: int, digest: str) -> bool:
    """Tell whether the tournament's log holds the event of this hash at this seq."""
    if seq == row.head_seq:
        return digest == row.head_hash
    return digest == session.scalar(select(TournamentEvent.hash).where(
        TournamentEvent.tournament_id == row.id, TournamentEvent.seq == seq))


def store(session: Session, tournament_id: int, digest: str, state: State) -> None:
    """Store the fold of a tournament's log up to its event `state.head`, of this hash."""
    session.merge(TournamentFold(
        tournament_id=tournament_id, seq=state.head, hash=digest, version=STORED,
        state=json.dumps(stored.dump(state), separators=(",", ":"))))


def stored_on_append(session: Session, row: Tournament, state: State) -> None:
    """Store the fold just appended to when the log reaches a multiple of FOLD_EVERY."""
    if row.head_seq % FOLD_EVERY == 0 and row.head_seq > 0:
        store(session, row.id, row.head_hash, state)


@dataclass(frozen=True)
class Held:
    """A tournament's row and its log folded at the row's head."""

    row: Tournament
    fold: Folded

    @property
    def state(self) -> State:
        """The tournament as its log describes it."""
        return self.fold.state

    @property
    def standings(self) -> tuple[Standing, ...]:
        """The standings, worked out once per head."""
        return self.fold.standings

    @property
    def public_id(self) -> str:
        """The tournament's id in URLs."""
        return self.row.public_id

    @property
    def lead(self) -> str:
        """The lead director's player id: the first named in the log, else the creator."""
        directors = self.state.directors
        return directors[0] if directors else str(self.row.director_id)


def load(session: Session, public_id: str, *, for_update: bool = False) -> Held:
    """A tournament and its fold; NotFound if there is no such tournament."""
    query = select(Tournament).where(Tournament.public_id == public_id)
    if for_update:
        query = query.with_for_update()
    row = session.scalars(query).first()
    if row is None:
        raise NotFound(f"there is no tournament {public_id!r}")
    return Held(row, folded(session, row))
