"""Rolling Swiss from version 2: free players paired so that nobody meets again while avoidable.

Two players are paired by one matching over every free player (`dutch.py`: rematches are its
second tier, colours by FIDE's rules), the spare being whoever became free last; tables are
seated as before (pairs who met weigh second there too). A table that still repeats a pair is
held back, its players waiting for others to become free, unless nobody else can (every
player with games left who is not away is free already) or one of them has waited the
event's `pair_max_wait_hours`. A repeat that goes ahead is named in the pair event, with why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from .. import dutch, pairing
from ..history import History
from ..model import Tournament
from ..plans import Penalty, Rematch
from ..seating import seat_pool, table_sizes

Seated = tuple[list[tuple[str, ...]], list[Penalty], list[str], list[Rematch], list[str]]


def pair_anew(t: Tournament, h: History, queue: Sequence[str], alone: bool,
              late: Mapping[str, bool],
              avoid: Mapping[tuple[str, str], datetime] | None = None,
              now: datetime | None = None) -> Seated:
    """Seat the free players (`queue`: longest waiting first); return the tables, their
    penalties, who waits, the rematches that go ahead and the notes on those held back.

    A pair in `avoid` (undone by the director, with when) waits like a pair that has met,
    unless nobody else can be free to play them or the event's wait has passed since the
    undo.
    """
    waiting: list[str]
    if t.config.two_player:
        pairs, left = dutch.pair_players(h.by_standing(queue), h, list(reversed(queue)),
                                         scored=False)
        tables: Sequence[tuple[str, ...]] = pairs
        penalties: Sequence[Penalty] = [pairing.penalty(a, b, h) for a, b in pairs]
        waiting = [] if left is None else [left]
    else:
        sizes = table_sizes(len(queue), t.config.table_sizes)
        waiting = list(queue[sum(sizes):])
        tables, penalties = seat_pool(h.by_standing(queue[:sum(sizes)]), sizes, h)
    names = {e.player: e.name for e in t.entrants}
    wait = t.config.number("pair_max_wait_hours")
    kept: list[tuple[str, ...]] = []
    costs: list[Penalty] = []
    rematches: list[Rematch] = []
    held: list[str] = []
    avoided = avoid or {}
    for table, cost in zip(tables, penalties, strict=True):
        duos = [(a, b) for i, a in enumerate(table) for b in table[i + 1:]]
        undone = [(a, b) for a, b in duos if (min(a, b), max(a, b)) in avoided]
        waited = wait is not None and now is not None and any(
            now - avoided[min(a, b), max(a, b)] >= timedelta(hours=wait) for a, b in undone)
        if undone and not alone and not waited:
            waiting += table
            held += [f"{names[a]} and {names[b]} wait: their pairing was undone"
                     for a, b in undone]
            continue
        again = [(a, b) for a, b in duos if h.times_met(a, b)]
        if not again:
            kept.append(table)
            costs.append(cost)
            continue
        overdue = [p for p in table if late.get(p)]
        if not alone and not overdue:
            waiting += table
            held += [f"{names[a]} and {names[b]} have met and wait for others to be free"
                     for a, b in again]
            continue
        why = ("nobody else can be free to play them: every player with games left is free"
               if alone else f"{names[overdue[0]]} has waited the {wait:g} hours the event "
               "allows")
        rematches += [Rematch((a, b), h.times_met(a, b) + 1, why) for a, b in again]
        kept.append(table)
        costs.append(cost)
    return kept, costs, waiting, rematches, held
