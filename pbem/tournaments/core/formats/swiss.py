"""Swiss rounds: the next round once the last one is over, by matching or by seating tables."""

from __future__ import annotations

from collections.abc import Collection

from .. import pairing
from ..history import History, history
from ..model import Tournament
from ..plans import Penalty, Plan, PlannedBye, make_plan
from ..scoring import bye_points
from ..seating import seat_tables, table_sizes


def plan_swiss(t: Tournament, away: Collection[str]) -> Plan | None:
    """Return the next Swiss round, or None while a round is open or when all are played."""
    last = t.last_round()
    if t.config.rounds is None or last >= t.config.rounds or (last and t.open_tables(last)):
        return None
    round_ = last + 1
    h = history(t)
    names = {e.player: e.name for e in t.entrants}
    resting = [p for p in t.active() if p in away]
    pool = h.by_standing(p for p in t.active() if p not in away)
    byes = [PlannedBye(p, 0.0) for p in resting]
    notes = [f"{names[p]} is away and sits round {round_} out (0 points)" for p in resting]
    sizes = (2,) * (len(pool) // 2) if t.config.two_player else table_sizes(
        len(pool), t.config.table_sizes)
    points = bye_points(t)
    for player in choose_byes(pool, len(pool) - sum(sizes), h):
        byes.append(PlannedBye(player, points))
        notes.append(f"{names[player]} gets the bye ({points:g} point"
                     f"{'' if points == 1 else 's'}): the lowest score among those with the "
                     "fewest byes")
    tables, penalties = seat(pool, sizes, h)
    return make_plan(t, round_, tables, byes, penalties, notes, resting)


def seat(
    pool: list[str], sizes: tuple[int, ...], h: History
) -> tuple[tuple[tuple[str, ...], ...], tuple[Penalty, ...]]:
    """Pair (two players) or seat (tables) a pool given in standing order."""
    if all(size == 2 for size in sizes):
        pairs = pairing.pair_players(pool, h)
        return pairs, tuple(pairing.penalty(a, b, h) for a, b in pairs)
    return seat_tables(pool, sizes, h)


def choose_byes(pool: list[str], count: int, h: History) -> list[str]:
    """Take `count` players out of the pool for byes, one at a time by the bye rule."""
    chosen = []
    for _ in range(count):
        player = pairing.choose_bye(pool, h)
        pool.remove(player)
        chosen.append(player)
    return chosen
