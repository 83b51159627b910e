"""Rolling Swiss: no rounds; free players are paired among themselves as they become free."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from ..errors import utc
from ..history import history
from ..model import Tournament
from ..plans import Plan, make_plan
from ..seating import table_sizes
from .swiss import seat

# A player is free when active, not away, playing fewer than c games and with fewer than G games
# played or going. The free players are paired when at least P are free, when the longest-waiting
# free player has waited W hours, or when nobody else could join them (every player with games left
# is free already). A player waits from the last time their games changed: the start, their latest
# pairing or their latest finished game. When the free players do not fill whole tables (or an even
# number of pairs), those who became free last wait for the next tick.


def going(t: Tournament, player: str) -> int:
    """Return how many games a player is playing now."""
    return sum(1 for tb in t.games_of.get(player, ()) if tb.result is None and tb.annulled is None)


def has_games_left(t: Tournament, player: str) -> bool:
    """Tell whether a player has fewer than G games played or going."""
    return len(t.games_of.get(player, ())) < (t.config.games_per_player or 0)


def is_free(t: Tournament, player: str) -> bool:
    """Tell whether an active player could start another game now (away aside)."""
    return going(t, player) < (t.config.max_concurrent or 0) and has_games_left(t, player)


def waiting_since(t: Tournament, player: str) -> datetime:
    """Return when a player's games last changed: the start, a pairing or a finish."""
    assert t.started_at is not None
    moments = [t.started_at]
    for table in t.games_of.get(player, ()):
        moments.append(table.paired_at)
        if table.result is not None:
            moments.append(table.result.finished_at)
    return max(moments)


def plan_rolling(t: Tournament, now: datetime, away: Collection[str]) -> Plan | None:
    """Return the tables to start now among the free players, or None when none are due."""
    config, now = t.config, utc(now)
    active = t.active()
    free = [p for p in active if p not in away and is_free(t, p)]
    if len(free) < config.table_sizes[0]:
        return None
    since = {p: waiting_since(t, p) for p in free}
    longest = min(since.values())
    alone = all(is_free(t, p) for p in active if p not in away and has_games_left(t, p))
    due = (
        (config.pair_min_free is None and config.pair_max_wait_hours is None)
        or (config.pair_min_free is not None and len(free) >= config.pair_min_free)
        or (config.pair_max_wait_hours is not None
            and now - longest >= timedelta(hours=config.pair_max_wait_hours))
        or alone
    )
    if not due:
        return None
    h = history(t)
    queue = sorted(free, key=lambda p: (since[p], h.seeding[p]))
    sizes = (2,) * (len(free) // 2) if config.two_player else table_sizes(
        len(free), config.table_sizes)
    chosen, waiting = queue[:sum(sizes)], queue[sum(sizes):]
    tables, penalties = seat(h.by_standing(chosen), sizes, h)
    names = {e.player: e.name for e in t.entrants}
    notes = [f"{len(free)} free players; waiting longest since {longest.isoformat()}"]
    notes += [f"{names[p]} waits for the next pairing (free since {since[p].isoformat()})"
              for p in waiting]
    notes += [f"{names[p]} is away and is not paired" for p in active
              if p in away and is_free(t, p)]
    resting = [p for p in active if p in away]
    return make_plan(t, None, tables, (), penalties, notes, resting)
