"""Sign-in links that were used: each works once."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class UsedSignin(Base):
    """A sign-in link that signed someone in, by the nonce inside it; kept past its hour."""

    __tablename__ = "used_signins"

    nonce: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
