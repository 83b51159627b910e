"""When a decision expires: its start, the game's deadline, and the players' time away."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from .models import Game, Player


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """SQLite returns naive datetimes; the app stores UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def time_away(player: Player, since: datetime) -> timedelta:
    """How much of the player's vacation falls after `since`."""
    if player.away_from is None or player.away_until is None:
        return timedelta(0)
    start = max(as_utc(player.away_from), since)
    end = as_utc(player.away_until)
    return max(end - start, timedelta(0))


def deadline_of(game: Game, awaited: Iterable[Player] = ()) -> datetime | None:
    """When the current decision expires, paused for as long as an awaited player is away."""
    if game.await_since is None:
        return None
    since = as_utc(game.await_since)
    paused = max((time_away(p, since) for p in awaited), default=timedelta(0))
    return since + timedelta(hours=game.deadline_hours + (game.extra_hours or 0)) + paused


def is_away(player: Player, now: datetime) -> bool:
    """Whether the player is on vacation right now."""
    if player.away_from is None or player.away_until is None:
        return False
    return as_utc(player.away_from) <= now < as_utc(player.away_until)


def away_note(player: Player) -> str:
    """"away until 30 Nov" while the player is on vacation, else ""."""
    if not is_away(player, datetime.now(UTC)) or player.away_until is None:
        return ""
    last_day = as_utc(player.away_until) - timedelta(days=1)
    return f"away until {last_day:%d %b}"
