"""What to pair now for each format, whether an event is over, and when it should end."""

from __future__ import annotations

import math
from collections.abc import Collection
from datetime import datetime, timedelta
from functools import lru_cache

from . import elimination, knockout, roundrobin
from .errors import utc
from .history import history
from .model import Table, Tournament
from .pairing import penalty
from .plans import Plan, PlannedBye, make_plan
from .rolling import plan_rolling
from .seating import Search
from .swiss import plan_swiss

# `plan(t, now, away)` is a pure function of the folded log, the time and who is away: round robin
# pairs its schedule round by round (the server asks again until None, so all rounds go out at
# once), Swiss pairs the next round when the last is over, rolling Swiss pairs free players as they
# come, knockout pairs the next round or a drawn match's replay. Game deadlines are
# `deadline_hours` (plus extensions) after a game is paired.


def plan(t: Tournament, now: datetime, away: Collection[str] = frozenset()) -> Plan | None:
    """Return what to pair now, or None when nothing is due."""
    if not t.started or t.closed:
        return None
    system = t.config.system
    if system == "swiss":
        return plan_swiss(t, away)
    if system == "rolling-swiss":
        return plan_rolling(t, now, away)
    if system == "knockout":
        return knockout.plan_two_player(t) if t.config.two_player else elimination.plan_tables(t)
    return plan_round_robin(t)


@lru_cache(maxsize=32)
def schedule(
    players: tuple[str, ...], allowed: tuple[int, ...], rounds: int | None
) -> tuple[roundrobin.Round, ...]:
    """Return a round robin's schedule (kept, since every round's plan needs it)."""
    return roundrobin.schedule(players, allowed, rounds)


def plan_round_robin(t: Tournament) -> Plan | None:
    """Return the next round of the schedule; players who left are not paired."""
    rounds = schedule(tuple(e.player for e in t.entrants), t.config.table_sizes, t.config.rounds)
    round_ = t.last_round() + 1
    if round_ > len(rounds):
        return None
    names = {e.player: e.name for e in t.entrants}
    scheduled = rounds[round_ - 1]
    active = set(t.active())
    tables: list[tuple[str, ...]] = []
    out = [p for p in scheduled.out if p in active]
    notes = [f"{names[p]} has a free round (0 points)" for p in out]
    for table in scheduled.tables:
        left = tuple(p for p in table if p in active)
        gone = ", ".join(names[p] for p in table if p not in active)
        if len(left) == len(table):
            tables.append(table)
        elif len(left) in t.config.table_sizes:
            tables.append(left)
            notes.append(f"{', '.join(names[p] for p in left)} play without {gone}, who left")
        else:
            out += left
            notes += [f"{names[p]} sits out: {gone} left the table" for p in left]
    h = history(t)
    search = Search(h, use_ratings=False)
    penalties = [penalty(*x, h) if len(x) == 2 else search.penalty(x) for x in tables]
    byes = [PlannedBye(p, 0.0) for p in out]
    return make_plan(t, round_, tables, byes, penalties, notes)


def unfinished(t: Tournament) -> tuple[Table, ...]:
    """Return the games with no result that are not annulled."""
    return tuple(tb for tb in t.tables if tb.result is None and tb.annulled is None)


def is_over(t: Tournament) -> bool:
    """Tell whether nothing is left to pair or to play."""
    if t.closed:
        return True
    if not t.started or unfinished(t):
        return False
    system, config = t.config.system, t.config
    if system == "round-robin":
        return plan_round_robin(t) is None
    if system == "swiss":
        return t.last_round() >= (config.rounds or 0)
    if system == "rolling-swiss":
        left = [p for p in t.active() if len(t.games_of[p]) < (config.games_per_player or 0)]
        return len(left) < config.table_sizes[0]
    if config.two_player:
        return knockout.champion(t) is not None or len(t.entrants) < 2
    return elimination.stage(t).over


def forecast_end(t: Tournament, now: datetime) -> datetime | None:
    """Return when the event should be over if every game takes its full deadline."""
    try:
        return _forecast_end(t, now)
    except OverflowError:  # beyond the calendar: an event made before its numbers were bounded
        return None


def _forecast_end(t: Tournament, now: datetime) -> datetime | None:
    if not t.started:
        return None
    now = utc(now)
    if is_over(t):
        finished = [tb.result.finished_at for tb in t.tables if tb.result is not None]
        return max(finished, default=t.started_at)
    step = timedelta(hours=t.config.deadline_hours)
    going = unfinished(t)
    open_end = max([tb.deadline(t.config.deadline_hours) for tb in going] + [now])
    system, config = t.config.system, t.config
    if system == "round-robin":
        return open_end if plan_round_robin(t) is None else max(open_end, now + step)
    if system == "swiss":
        left = (config.rounds or 0) - t.last_round()
        return (open_end if going else now) + left * step
    if system == "rolling-swiss":
        most, total = config.max_concurrent or 1, config.games_per_player or 0
        batches = max((math.ceil((total - len(t.games_of[p])) / most) for p in t.active()),
                      default=0)
        return open_end + batches * step
    to_go = knockout.rounds_to_go(t) if config.two_player else elimination.rounds_to_go(t)
    current = max((tb.round or 0 for tb in t.tables), default=0)
    playing = any(tb.round == current for tb in going)
    return open_end + (to_go - 1) * step if playing else now + to_go * step
