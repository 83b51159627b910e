"""Multiplayer knockout: the top k of each table go on, until the survivors fit one final table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..history import history
from ..model import Table, Tournament
from ..plans import Plan, PlannedBye, make_plan
from ..scoring import average_places
from ..seating import Search, seat_order, table_sizes


@dataclass(frozen=True)
class Stage:
    """Where a multiplayer knockout stands: the round to play, or its winner."""

    round: int
    survivors: tuple[str, ...]
    losers: tuple[str, ...]
    replay: tuple[tuple[str, ...], ...] = ()
    waiting: bool = False
    winner: str | None = None
    over: bool = False


def ranked(t: Tournament, table: Table) -> list[str]:
    """Return a finished table's players best first (ties: the better seed)."""
    assert table.result is not None
    places = average_places(table.result.ranks)
    order = sorted(zip(places, table.seats, strict=True), key=lambda x: (x[0], t.seeding[x[1]]))
    return [player for _, player in order]


def stage(t: Tournament) -> Stage:
    """Replay the rounds so far and return the one to play next."""
    k = t.config.whole("advance") or 1
    survivors = tuple(t.active())
    losers: tuple[str, ...] = ()
    round_ = 1
    while True:
        tables = [tb for tb in t.tables if tb.round == round_]
        byes = [b.player for b in t.byes if b.round == round_]
        if not tables and not byes:
            if len(survivors) <= 1:
                return Stage(round_, survivors, losers, winner=next(iter(survivors), None),
                             over=True)
            return Stage(round_, survivors, losers)
        played = [tb for tb in tables if tb.annulled is None]
        replay = tuple(tb.seats for tb in tables if tb.annulled is not None
                       and not any(set(p.seats) == set(tb.seats) for p in played))
        if replay or any(tb.result is None for tb in played):
            return Stage(round_, survivors, losers, replay, waiting=not replay)
        if len(played) == 1 and not byes:
            return Stage(round_, survivors, losers, winner=ranked(t, played[0])[0], over=True)
        going_on, out = list(byes), []
        for table in played:
            order = ranked(t, table)
            going_on += order[:k]
            out += [(place, t.seeding[p], p) for place, p in enumerate(order) if place >= k]
        survivors = tuple(sorted((p for p in going_on if t.entrant(p).active),
                                 key=t.seeding.__getitem__))
        losers = tuple(p for _, _, p in sorted(out) if t.entrant(p).active)
        round_ += 1


def snake(players: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Deal players (best seed first) across tables back and forth, each up to its size."""
    tables: list[list[str]] = [[] for _ in sizes]
    queue, forward = list(players), True
    while queue:
        for lane in range(len(sizes)) if forward else reversed(range(len(sizes))):
            if queue and len(tables[lane]) < sizes[lane]:
                tables[lane].append(queue.pop(0))
        forward = not forward
    return tables


def plan_tables(t: Tournament, version: int = 2) -> Plan | None:
    """Return the next knockout round of tables (or a replay of an annulled table).

    Whoever cannot be seated goes on with a bye: from version 2 the best seeds among those
    with the fewest byes so far (nobody has a second before everyone has had one); version 1
    gave them to the top seeds every round.
    """
    now = stage(t)
    if now.over or now.waiting:
        return None
    h = history(t)
    search = Search(h, use_ratings=False)
    names = {e.player: e.name for e in t.entrants}
    if now.replay:
        tables = [seat_order(list(seats), h)[0] for seats in now.replay]
        notes = ["an annulled table plays again"]
        return make_plan(t, now.round, tables, (), [search.penalty(x) for x in tables], notes)
    allowed = t.config.table_sizes
    players, notes = list(now.survivors), []
    if len(players) <= allowed[-1]:
        size = min(s for s in allowed if s >= len(players))
        extra = list(now.losers[:size - len(players)])
        notes += [f"{names[p]} joins the final as one of the best of the last round's losers"
                  for p in extra]
        sizes: tuple[int, ...] = (size,)
        players += extra
    else:
        sizes = table_sizes(len(players), allowed)
    count = len(players) - sum(sizes)
    if version >= 2:
        resting = sorted(players, key=lambda p: (h.byes[p], t.seeding[p]))[:count]
        why = "the best seed among those with the fewest byes"
    else:
        resting, why = players[:count], "a top seed nobody could be seated with"
    byes = [PlannedBye(p, 1.0) for p in resting]
    notes += [f"{names[p]} goes on with a bye ({why})" for p in resting]
    seated = [p for p in players if p not in resting]
    dealt = snake(sorted(seated, key=t.seeding.__getitem__), sizes)
    tables = [seat_order(table, h)[0] for table in dealt]
    return make_plan(t, now.round, tables, byes, [search.penalty(x) for x in tables], notes)


def rounds_to_go(t: Tournament) -> int:
    """Return how many rounds are not over yet, the current one included (tables full)."""
    now = stage(t)
    if now.over:
        return 0
    k, allowed = t.config.whole("advance") or 1, t.config.table_sizes
    n, rounds = len(now.survivors), 1
    while n > allowed[-1]:
        sizes = table_sizes(n, allowed)
        n, rounds = n - sum(sizes) + k * len(sizes), rounds + 1
    return rounds
