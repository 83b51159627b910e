"""What ratings read: one row per finished game, derived from its log (a cache of it)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class RatedGameRow(Base):
    """A finished game as ratings see it: players, places, timeouts, and whether it counts.

    Written when the game ends and by `pbem ratings rebuild`; deleting every row and
    rebuilding gives the same rows back.
    """

    __tablename__ = "rated_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # JSON: [{"player": id or null (not rated), "rank": int or null, "timed_out": bool}]
    seats: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(24))
    adjudicated: Mapped[bool] = mapped_column(Boolean, default=False)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
