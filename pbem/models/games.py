"""Players, games and their seats, the event log, snapshots, dice secrets and counts, nonces."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    column,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, Id


class Player(Base):
    """A person, known by email address; no password."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    mail_pref: Mapped[str] = mapped_column(String(10), default="turn")  # turn | digest | none
    api_token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    digest_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A vacation: time away that overlaps an open decision is added to its deadline.
    away_from: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    away_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A hard bounce marks the address failing: its game mail is held until it works again.
    mail_failing_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    mail_failure: Mapped[str | None] = mapped_column(String(300))
    # Answers to reply mails: "needed" (refused, or the turn goes on) or "every" reply.
    reply_answers: Mapped[str] = mapped_column(
        String(10), default="needed", server_default="needed"
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Raised by signing out: every browser session and sign-in link made before is void.
    session_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Game(Base):
    """One playthrough; its truth is the event log, this row only caches the head."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    kind: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(12), default="active")  # active|finished|aborted
    # Whether a director adjudicated or aborted the game (the ruling event is in the log).
    ruled: Mapped[bool] = mapped_column(Boolean, default=False)
    head_seq: Mapped[int] = mapped_column(Integer)
    head_hash: Mapped[str] = mapped_column(String(64))
    stream: Mapped[str] = mapped_column(String(64))
    chances: Mapped[int] = mapped_column(Integer, default=0)  # roll + shuffle events so far
    deadline_hours: Mapped[int] = mapped_column(Integer, default=72)
    timeout_policy: Mapped[str] = mapped_column(String(10), default="bot")  # bot | forfeit
    # When the current decision began (None when nobody must act) and whether it was reminded.
    await_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    reminded: Mapped[bool] = mapped_column(Boolean, default=False)
    # Hours a director added to the current decision's deadline (from `extend` events).
    extra_hours: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    # The tournament that paired this game, if any (its `pair` event is the truth).
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Played elsewhere and imported from its log: this server did not draw its dice seed.
    imported: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    seats: Mapped[list[GameSeat]] = relationship(
        back_populates="game", order_by="GameSeat.seat", lazy="selectin"
    )


class GameSeat(Base):
    """Which player sits in which seat of a game."""

    __tablename__ = "game_seats"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(lazy="joined")


# The kinds by which a seat may leave a game (a timeout that forfeits, a withdrawal): every
# load asks for them, so they have an index of their own that holds only those rare events.
DEPARTING = ("timeout", "resign")
# What a director did to a game (and a withdrawal from its event, a `resign` that says so):
# the game's page lists them, so they too have an index that holds only those rare events.
DIRECTED = ("extend", "replace", "adjudicate", "abort", "resign")


class Event(Base):
    """One entry of a game's append-only, hash-chained log (docs/architecture.md §4)."""

    __tablename__ = "events"
    __table_args__ = (
        Index("ix_events_departures", "game_id",
              sqlite_where=column("kind").in_(DEPARTING),
              postgresql_where=column("kind").in_(DEPARTING)),
        Index("ix_events_directed", "game_id", "seq",
              sqlite_where=column("kind").in_(DIRECTED),
              postgresql_where=column("kind").in_(DIRECTED)),
    )

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer)
    # Stored as the exact canonical JSON and ISO text that the hash covers.
    payload: Mapped[str] = mapped_column(Text)
    at: Mapped[str] = mapped_column(String(40))
    hash: Mapped[str] = mapped_column(String(64))
    # Log format 2: the salt of a secret event's commitment (hex), kept until it is revealed.
    salt: Mapped[str | None] = mapped_column(String(64))


class Snapshot(Base):
    """A cached engine state after some seq; deleting every snapshot changes nothing."""

    __tablename__ = "snapshots"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    rules_version: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(Text)


class DiceSecret(Base):
    """The secret seed behind a game's committed dice; published by the reveal event."""

    __tablename__ = "dice_secrets"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seed: Mapped[str] = mapped_column(String(64))


class DiceStream(Base):
    """A seed shared by the games of one stream (duplicate dice across tables)."""

    __tablename__ = "dice_streams"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    seed: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DiceCount(Base):
    """How often a face came up on the revealed dice of one size (or an item came first in
    the revealed shuffles of one size): running totals over every game whose seed is
    revealed, added to in the transaction that reveals it.
    """

    __tablename__ = "dice_counts"

    what: Mapped[str] = mapped_column(String(8), primary_key=True)  # die | shuffle
    sides: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    face: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    count: Mapped[int] = mapped_column(BigInteger)


class Submission(Base):
    """A form nonce already used, so a resubmitted form gets the original answer."""

    __tablename__ = "submissions"

    nonce: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
