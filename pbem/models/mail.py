"""The outbox: mails to send, written in the transaction of the event that caused them."""

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
