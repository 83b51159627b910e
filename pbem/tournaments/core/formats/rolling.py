"""Rolling Swiss: no rounds; free players are paired among themselves as they become free."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence, Set
from dataclasses import replace
from datetime import datetime, timedelta

from engine.figures import counted

from ..contract import Format, Setting
from ..draft import Draft
from ..errors import BadFormat, IllegalEvent, utc
from ..history import history
from ..model import Config, Tournament
from ..plans import Penalty, Plan, Rematch, make_plan
from ..seating import seat_pool, table_sizes
from .fresh import pair_anew

# A player is free when active, not away, playing fewer than c games and with fewer than G games
# played or going. The free players are paired when at least P are free, when the longest-waiting
# free player has waited W hours, or when nobody else could join them (every player with games left
# is free already). A player waits from the last time their games changed: the start (or their
# late entry), their latest pairing or their latest finished game. When the free players do not
# fill whole tables (or an even number of pairs), those who became free last wait for the next
# tick. From version 2 a pair that
# has met is not paired again while anyone else could still join them (see `fresh.py`).
# From version 3 a pair whose pairing the director undid since the latest pairing is kept apart
# in the next one, and waits as a rematch would, however long they waited before the undo.


def undone_pairs(t: Tournament) -> dict[tuple[str, str], datetime]:
    """Return the pairs of players whose pairing was undone since the latest pairing, each
    with when it was undone."""
    latest = max((p.seq for p in t.pairings), default=-1)
    found: dict[tuple[str, str], datetime] = {}
    for undone in t.undone:
        if undone.seq > latest:
            seats = undone.table.seats
            for i, a in enumerate(seats):
                for b in seats[i + 1:]:
                    found[(min(a, b), max(a, b))] = undone.at
    return found


def going(t: Tournament, player: str) -> int:
    """Return how many games a player is playing now."""
    return sum(1 for tb in t.games_of.get(player, ()) if tb.result is None and tb.annulled is None)


def has_games_left(t: Tournament, player: str) -> bool:
    """Tell whether a player has fewer than G games played or going."""
    return len(t.games_of.get(player, ())) < (t.config.whole("games_per_player") or 0)


def is_free(t: Tournament, player: str) -> bool:
    """Tell whether an active player could start another game now (away aside)."""
    most = t.config.whole("max_concurrent") or 0
    return going(t, player) < most and has_games_left(t, player)


def waiting_since(t: Tournament, player: str) -> datetime:
    """Return when a player's games last changed: the start, a pairing or a finish."""
    assert t.started_at is not None
    entered = t.entrants[t.seeding[player]].entered_at
    moments = [t.started_at if entered is None else entered]
    for table in t.games_of.get(player, ()):
        moments.append(table.paired_at)
        if table.result is not None:
            moments.append(table.result.finished_at)
    return max(moments)


def plan_rolling(t: Tournament, now: datetime, away: Collection[str],
                 version: int = 2) -> Plan | None:
    """Return the tables to start now among the free players, or None when none are due."""
    config, now = t.config, utc(now)
    active = t.active()
    free = [p for p in active if p not in away and is_free(t, p)]
    if len(free) < config.table_sizes[0]:
        return None
    since = {p: waiting_since(t, p) for p in free}
    longest = min(since.values())
    alone = all(is_free(t, p) for p in active if p not in away and has_games_left(t, p))
    least, wait = config.whole("pair_min_free"), config.number("pair_max_wait_hours")
    due = (
        (least is None and wait is None)
        or (least is not None and len(free) >= least)
        or (wait is not None and now - longest >= timedelta(hours=wait))
        or alone
    )
    if not due:
        return None
    h = history(t)
    avoid = undone_pairs(t) if version >= 3 else {}
    if avoid:
        h = replace(h, forbidden=h.forbidden | frozenset(avoid))
    queue = sorted(free, key=lambda p: (since[p], h.seeding[p]))
    names = {e.player: e.name for e in t.entrants}
    notes = [f"{len(free)} free players; waiting longest since {longest.isoformat()}"]
    rematches: list[Rematch] = []
    tables: Sequence[tuple[str, ...]]
    penalties: Sequence[Penalty]
    if version >= 2:
        late = {p: now - since[p] >= timedelta(hours=wait) for p in free} if wait else {}
        tables, penalties, waiting, rematches, held = pair_anew(t, h, queue, alone, late,
                                                                avoid, now)
        notes += held
    else:
        sizes = table_sizes(len(free), config.table_sizes)
        chosen, waiting = queue[:sum(sizes)], queue[sum(sizes):]
        tables, penalties = seat_pool(h.by_standing(chosen), sizes, h)
    if not tables:
        return None
    notes += [f"{names[p]} waits for the next pairing (free since {since[p].isoformat()})"
              for p in waiting]
    notes += [f"{names[p]} is away and is not paired" for p in active
              if p in away and is_free(t, p)]
    resting = [p for p in active if p in away]
    return make_plan(t, None, tables, (), penalties, notes, resting, rematches)


class RollingSwiss(Format):
    """No rounds: each player plays G games, at most c at once, paired as they become free."""

    system = "rolling-swiss"
    title = "Rolling Swiss"
    summary = "Rolling Swiss: no rounds, free players are paired as they come"
    settings = (
        Setting("games_per_player", "Games per player", "how many games each plays", most=200,
                example=3),
        Setting("max_concurrent", "Games at once", "the most a player plays at once", most=20,
                example=1),
        Setting("pair_min_free", "Pair when this many are free", "free players are paired "
                "once this many are free", least=2, most=512),
        Setting("pair_max_wait_hours", "Or when one has waited (hours)", "or once the longest-"
                "waiting free player has waited this long", whole=False, unit="hours", most=720),
    )
    has_rounds = False
    version = 3  # 2: no rematch while avoidable, FIDE's colours; 3: an undone pair waits
    derives = (1, 2)

    def check(self, config: Config, where: str) -> None:
        """G and c are needed; P is at least a table; W is positive."""
        most, least = config.whole("max_concurrent"), config.whole("pair_min_free")
        if config.whole("games_per_player") is None or most is None:
            raise BadFormat(f"{where}: a rolling Swiss needs games_per_player and max_concurrent")
        smallest = config.table_sizes[0]
        if least is not None and least < smallest:
            raise BadFormat(f"{where}: pair_min_free {least} is less than one table ({smallest})")
        wait = config.number("pair_max_wait_hours")
        if wait is not None and wait <= 0:
            raise BadFormat(f"{where}: pair_max_wait_hours must be positive, got {wait}")

    def check_players(self, d: Draft, players: Set[str], where: str) -> None:
        """Each newly paired player stays within c games at once and G in all."""
        assert d.config is not None
        most = d.config.whole("max_concurrent") or 0
        total = d.config.whole("games_per_player") or 0
        for player in sorted(players):
            tables = [d.tables[g] for g in d.games.get(player, [])]
            playing = sum(1 for t in tables if t.result is None and t.annulled is None)
            if playing + 1 > most:
                raise IllegalEvent(
                    f"{where}: {player!r} already plays {playing} of {most} games at once")
            if len(tables) + 1 > total:
                raise IllegalEvent(f"{where}: {player!r} has had all {total} games")

    def late_entry(self, config: Config, last_round: int) -> str | None:
        """Late entry is the point of a rolling event: a late entrant is one more free player."""
        return None

    def plan(self, t: Tournament, now: datetime, away: Collection[str]) -> Plan | None:
        """The free players, once enough are free or one has waited long enough."""
        return plan_rolling(t, now, away, self.version)

    def plan_as(self, version: int, t: Tournament, now: datetime,
                away: Collection[str]) -> Plan | None:
        """Version 1 paired the free players even when they had met, whoever else was due;
        version 2 paired again at once a pair whose pairing the director had undone."""
        return plan_rolling(t, now, away, version)

    def is_over(self, t: Tournament) -> bool:
        """Fewer players with games left than one table seats."""
        total = t.config.whole("games_per_player") or 0
        left = [p for p in t.active() if len(t.games_of[p]) < total]
        return len(left) < t.config.table_sizes[0]

    def forecast(self, t: Tournament, now: datetime, open_end: datetime,
                 step: timedelta) -> datetime:
        """The games each player has left, c at a time, after the games in play."""
        most = t.config.whole("max_concurrent") or 1
        total = t.config.whole("games_per_player") or 0
        batches = max((math.ceil((total - len(t.games_of[p])) / most) for p in t.active()),
                      default=0)
        return open_end + batches * step

    def describe(self, config: Config) -> list[str]:
        """G, c, and when free players are paired."""
        hours = config.number("pair_max_wait_hours")
        wait = f" or one has waited {counted(hours, 'hour')}" if hours else ""
        return [
            f"No rounds: each player plays "
            f"{counted(config.whole('games_per_player') or 0, 'game')}, at most "
            f"{config.whole('max_concurrent')} at once; free players are paired when "
            f"{config.whole('pair_min_free') or config.table_sizes[0]} are free{wait}."
        ]

    def expected_games(self, t: Tournament) -> int:
        """G games for each player, a table at a time."""
        total = t.config.whole("games_per_player") or 1
        return max(1, total * len(t.entrants) // t.config.table_sizes[0])


FORMAT = RollingSwiss()
