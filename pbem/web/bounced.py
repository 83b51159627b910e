"""Failing addresses on pages: shown to the player's opponents and directors, and to them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Player


def notices(
    players: Iterable[Player], viewer: Player | None, *, may_see: bool
) -> list[dict[str, Any]]:
    """The players whose mail bounces, for a viewer who may see it (or who is that player)."""
    shown = []
    for player in players:
        if player.mail_failing_at is None:
            continue
        you = viewer is not None and viewer.id == player.id
        if may_see or you:
            shown.append({
                "name": player.name, "you": you, "why": player.mail_failure or "",
                "since": player.mail_failing_at.strftime("%d %B %Y"),
            })
    return shown


def event_notices(session: Session, entrant_ids: Iterable[str], viewer: Player | None,
                  *, directs: bool) -> list[dict[str, Any]]:
    """The entrants of an event whose mail bounces, for its director and its entrants."""
    ids = [int(i) for i in entrant_ids if str(i).isdigit()]
    may_see = directs or (viewer is not None and viewer.id in ids)
    if not ids or not may_see:
        return []
    failing = session.scalars(
        select(Player).where(Player.id.in_(ids), Player.mail_failing_at.is_not(None))
    )
    return notices(failing, viewer, may_see=may_see)
