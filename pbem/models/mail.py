"""The outbox, the mails that came in, the bounces they carried, and mail commands to confirm."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, Id


class Outbox(Base):
    """A mail to send, written in the transaction of the event that caused it."""

    __tablename__ = "outbox"
    __table_args__ = (
        UniqueConstraint("message_id"),
        Index("ix_outbox_due", "sent_at", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    message_id: Mapped[str] = mapped_column(String(255))
    purpose: Mapped[str] = mapped_column(String(20))  # turn | invite | signin | result ...
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), index=True)
    to_addr: Mapped[str] = mapped_column(String(320), index=True)
    subject: Mapped[str] = mapped_column(String(300))
    body_text: Mapped[str] = mapped_column(Text)
    body_html: Mapped[str | None] = mapped_column(Text)
    headers: Mapped[str] = mapped_column(Text, default="{}")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    # Set aside: a mail that cannot be built or sent as it is, never tried again on its own.
    failed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Held: its address bounced for good; sent when the address works again.
    held_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class InboundMail(Base):
    """A mail that came in (pipe, HTTP or IMAP), kept once by its digest, with what it did."""

    __tablename__ = "inbound_mails"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)  # SHA-256 of its bytes
    source: Mapped[str] = mapped_column(String(200))
    sender: Mapped[str] = mapped_column(String(320))
    kind: Mapped[str] = mapped_column(String(12))  # reply | bounce | command | automatic ...
    outcome: Mapped[str] = mapped_column(Text)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class Bounce(Base):
    """A delivery failure reported for one of our mails: hard, soft, or merely delayed."""

    __tablename__ = "mail_bounces"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    outbox_id: Mapped[int | None] = mapped_column(ForeignKey("outbox.id"), index=True)
    address: Mapped[str] = mapped_column(String(320), index=True)
    kind: Mapped[str] = mapped_column(String(8))  # hard | soft | delayed
    status: Mapped[str] = mapped_column(String(16))  # the DSN status, 5.1.1, or ""
    diagnostic: Mapped[str] = mapped_column(String(500))
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MailCommand(Base):
    """Commands mailed by a player that change something, waiting for their confirmation."""

    __tablename__ = "mail_commands"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    commands: Mapped[str] = mapped_column(Text)  # a JSON list of command lines
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    outcome: Mapped[str | None] = mapped_column(Text)
