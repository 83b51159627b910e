"""A tournament's log: append at the head and read back, chained exactly like a game's log."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..errors import NotFound
from ..log.chain import canonical_json, chain_hash, now_text
from ..log.store import LogEntry, insert
from ..models import Tournament, TournamentEvent
from .core.fold import fold
from .core.model import Event
from .core.model import Tournament as State


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


def entries(session: Session, tournament: Tournament) -> list[LogEntry]:
    """The tournament's events in order."""
    rows = session.scalars(
        select(TournamentEvent)
        .where(TournamentEvent.tournament_id == tournament.id)
        .order_by(TournamentEvent.seq)
    )
    return [
        LogEntry(r.seq, r.kind, None, json.loads(r.payload), r.at, r.hash) for r in rows
    ]


def core_events(log: Sequence[LogEntry]) -> list[Event]:
    """The log as the pure core reads it: payloads and times, without the hashes."""
    return [Event(e.seq, e.kind, e.payload, datetime.fromisoformat(e.at)) for e in log]


@dataclass(frozen=True)
class Held:
    """A tournament's row, its log as the core reads it, and the state folded from it."""

    row: Tournament
    state: State
    events: tuple[Event, ...]

    @property
    def public_id(self) -> str:
        """The tournament's id in URLs."""
        return self.row.public_id


def load(session: Session, public_id: str, *, for_update: bool = False) -> Held:
    """Fold a tournament's log; NotFound if there is no such tournament."""
    query = select(Tournament).where(Tournament.public_id == public_id)
    if for_update:
        query = query.with_for_update()
    row = session.scalars(query).first()
    if row is None:
        raise NotFound(f"there is no tournament {public_id!r}")
    events = tuple(core_events(entries(session, row)))
    return Held(row, fold(events), events)
