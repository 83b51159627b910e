"""Tournaments: each an append-only, hash-chained event log of its own, and caches of it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, Id


class Tournament(Base):
    """One event; its truth is its log, this row only caches the head and what lists show."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(40))
    system: Mapped[str] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(12))  # registering | running | closed
    director_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    head_seq: Mapped[int] = mapped_column(Integer)
    head_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # What kept the server from carrying the event on (pairing, starting games, closing),
    # in words, and since when; cleared when it carries on (not part of the log).
    problem: Mapped[str | None] = mapped_column(Text)
    problem_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class TournamentEvent(Base):
    """One entry of a tournament's log, chained exactly as a game's events are."""

    __tablename__ = "tournament_events"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(16))
    # Stored as the exact canonical JSON and ISO text that the hash covers.
    payload: Mapped[str] = mapped_column(Text)
    at: Mapped[str] = mapped_column(String(40))
    hash: Mapped[str] = mapped_column(String(64))


class TournamentFold(Base):
    """A tournament's log folded up to one event, as JSON: a cache, deleting it changes nothing.

    Read only when the log holds the same event at `seq` (same `hash`: the same events up
    to there) and the fold was stored by the same model (`version`); a new server process
    loads it and folds on from it instead of folding the whole log.
    """

    __tablename__ = "tournament_folds"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[str] = mapped_column(String(40))
    state: Mapped[str] = mapped_column(Text)


class TournamentSecret(Base):
    """The secret seed behind a tournament's committed seeding; revealed when it closes."""

    __tablename__ = "tournament_secrets"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    seed: Mapped[str] = mapped_column(String(64))


class TournamentEntrant(Base):
    """Who is entered in a tournament (a cache of its register/withdraw/replace events)."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    status: Mapped[str] = mapped_column(String(12))  # active | withdrawn | disqualified
