"""Round-robin schedules: Berger tables for two players, designs or a search for tables."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from ..contract import Format, Setting
from ..designs import resolvable
from ..errors import BadFormat
from ..firsts import reseat
from ..history import SEATS, History, history
from ..model import Config, Tournament
from ..pairing import penalty
from ..plans import Plan, PlannedBye, make_plan
from ..seating import Search, improve, seat_order, table_sizes

# Two players: the circle method (the last player fixed, the others turning), which gives every
# player the first seat in half their games, give or take one; a double round robin repeats the
# cycle with seats swapped; an odd field adds a free round for each. Tables: a field with a
# resolvable design (designs.py: 9 or 15 in triples, 16 in fours, 25 in fives, ...) plays its
# rounds, where every pair meets exactly once; a field that fits one table rotates through every
# seat; any other field is seated round by round by the seating search (pairs who met, squared),
# then each round is searched again against all the others. Seats are then assigned to balance each
# player's seat positions.

REFINE_PASSES = 4


@dataclass(frozen=True)
class Round:
    """One round of a schedule: tables in seat order, and who sits it out."""

    tables: tuple[tuple[str, ...], ...]
    out: tuple[str, ...] = ()


def berger(players: Sequence[str], double: bool = False) -> tuple[Round, ...]:
    """Return a two-player round robin by the circle method (double: seats swapped)."""
    ring: list[str | None] = [*players, None] if len(players) % 2 else list(players)
    n = len(ring)
    m = n - 1
    rounds = []
    for r in range(m):
        pairs = [(ring[r], ring[m]) if r % 2 == 0 else (ring[m], ring[r])]
        pairs += [(ring[(r + i) % m], ring[(r - i) % m]) for i in range(1, n // 2)]
        tables = tuple((a, b) for a, b in pairs if a is not None and b is not None)
        out = tuple(p for a, b in pairs if a is None or b is None for p in (a, b) if p is not None)
        rounds.append(Round(tables, out))
    if double:
        rounds += [Round(tuple((b, a) for a, b in rd.tables), rd.out) for rd in rounds]
    return tuple(rounds)


def schedule_history(players: Sequence[str], rounds: Sequence[Round]) -> History:
    """Return the meetings and seats of the rounds scheduled so far, with no points."""
    met: dict[str, dict[str, int]] = {p: {} for p in players}
    seats = {p: [0] * SEATS for p in players}
    for rd in rounds:
        for table in rd.tables:
            for i, player in enumerate(table):
                seats[player][i] += 1
                for other in table:
                    if other != player:
                        met[player][other] = met[player].get(other, 0) + 1
    return History(
        points=dict.fromkeys(players, 0.0), met=met,
        seats={p: tuple(c) for p, c in seats.items()}, balance=dict.fromkeys(players, 0),
        byes=dict.fromkeys(players, 0), ratings=dict.fromkeys(players), forbidden=frozenset(),
        seeding={p: i for i, p in enumerate(players)},
    )


def balance_seats(players: Sequence[str], rounds: list[Round]) -> None:
    """Reseat each table given all the other rounds, until no table changes."""
    for _ in range(REFINE_PASSES):
        changed = False
        for r, rd in enumerate(rounds):
            h = schedule_history(players, rounds[:r] + rounds[r + 1:])
            tables = tuple(seat_order(sorted(t, key=h.seeding.__getitem__), h)[0]
                           for t in rd.tables)
            if tables != rd.tables:
                rounds[r], changed = Round(tables, rd.out), True
        if not changed:
            return


def cut(players: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Cut players, in order, into tables of these sizes."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players[start:start + size]))
        start += size
    return tables


def searched(players: Sequence[str], allowed: Sequence[int], count: int | None) -> list[Round]:
    """Seat rounds one by one by the seating search, then refine each against the others."""
    n, sizes = len(players), table_sizes(len(players), allowed)
    count = count or -(-n * (n - 1) // sum(s * (s - 1) for s in sizes))
    sat_out = dict.fromkeys(players, 0)
    rounds: list[Round] = []
    previous: list[tuple[str, ...]] = [tuple(players)]
    for _ in range(count):
        h = schedule_history(players, rounds)
        out = sorted(players, key=lambda p: (sat_out[p], -h.seeding[p]))[:n - sum(sizes)]
        # Start from the previous round read column-wise, which splits its tables up.
        where = {p: (table.index(p), t) for t, table in enumerate(previous) for p in table}
        tables = cut(sorted((p for p in players if p not in out), key=where.__getitem__), sizes)
        improve(tables, Search(h, use_ratings=False), reach=len(tables))
        rounds.append(Round(tuple(map(tuple, tables)), tuple(p for p in players if p in out)))
        for p in out:
            sat_out[p] += 1
        previous = [*rounds[-1].tables, rounds[-1].out]
    for _ in range(REFINE_PASSES):
        for r, rd in enumerate(rounds):
            tables = [list(t) for t in rd.tables]
            h = schedule_history(players, rounds[:r] + rounds[r + 1:])
            improve(tables, Search(h, use_ratings=False), reach=len(tables))
            rounds[r] = Round(tuple(map(tuple, tables)), rd.out)
    return rounds


def table_schedule(
    players: Sequence[str], allowed: Sequence[int], count: int | None, version: int = 2
) -> tuple[Round, ...]:
    """Return a round robin of tables: each pair meeting as evenly as the sizes allow."""
    n = len(players)
    rounds: list[Round] = []
    design = next((d for size in allowed if (d := resolvable(n, size)) is not None), None)
    if design is not None and count in (None, len(design)):
        rounds = [Round(tuple(tuple(players[i] for i in line) for line in parallel))
                  for parallel in design]
    elif n in allowed:
        return tuple(Round((tuple(players[(s + r) % n] for s in range(n)),))
                     for r in range(count or n))
    else:
        rounds = searched(players, allowed, count)
    if version >= 2:
        seated = reseat(players, [rd.tables for rd in rounds])
        return tuple(Round(tuple(tables), rd.out) for tables, rd in zip(seated, rounds,
                                                                        strict=True))
    balance_seats(players, rounds)
    return tuple(rounds)


def schedule(
    players: Sequence[str], allowed: Sequence[int], rounds: int | None, version: int = 2
) -> tuple[Round, ...]:
    """Return the whole round robin of an event, from its seeding order."""
    if tuple(allowed) == (2,):
        return berger(players, double=rounds == 2)
    return table_schedule(players, allowed, rounds, version)


@lru_cache(maxsize=32)
def kept_schedule(
    players: tuple[str, ...], allowed: tuple[int, ...], rounds: int | None, version: int = 2
) -> tuple[Round, ...]:
    """Return a round robin's schedule (kept, since every round's plan needs it)."""
    return schedule(players, allowed, rounds, version)


def plan_round_robin(t: Tournament, version: int = 2) -> Plan | None:
    """Return the next round of the schedule; players who left are not paired (at tables,
    version 2 balances first seats over the whole schedule, version 1 each round's seats)."""
    config = t.config
    rounds = kept_schedule(tuple(e.player for e in t.entrants), config.table_sizes,
                           config.whole("rounds"), version)
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
        elif len(left) in config.table_sizes:
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


class RoundRobin(Format):
    """Every game paired at the start and played at the same time (ICCF style)."""

    system = "round-robin"
    title = "Round robin"
    summary = "Round robin: every game at once"
    settings = (Setting("rounds", "Rounds", "1 single or 2 double (seats swapped)", most=30,
                        example=1),)
    allows_duplicate = True
    version = 2  # 2: first seats at tables balanced over the whole schedule
    derives = (1,)

    def most_entrants(self, config: Config) -> int:
        """Every game of a round robin is started at once: at most 64 entrants."""
        return 64

    def check(self, config: Config, where: str) -> None:
        """Two players meet once or twice."""
        if config.two_player and config.whole("rounds") not in (None, 1, 2):
            raise BadFormat(
                f"{where}: a two-player round robin has rounds 1 (single) or 2 (double)")

    def plan(self, t: Tournament, now: datetime, away: Collection[str]) -> Plan | None:
        """The next round of the schedule (asked until None, so all go out at once)."""
        return plan_round_robin(t, self.version)

    def plan_as(self, version: int, t: Tournament, now: datetime,
                away: Collection[str]) -> Plan | None:
        """Version 1 balanced the seats at tables round by round."""
        return plan_round_robin(t, version)

    def is_over(self, t: Tournament) -> bool:
        """Every round of the schedule has been paired (and played)."""
        return plan_round_robin(t) is None

    def forecast(self, t: Tournament, now: datetime, open_end: datetime,
                 step: timedelta) -> datetime:
        """The games in play, or one game's time for rounds still to pair."""
        return open_end if plan_round_robin(t) is None else max(open_end, now + step)

    def describe(self, config: Config) -> list[str]:
        """All games at once, once or twice."""
        return ["Every game is paired at the start and played at the same time"
                + (", twice with seats swapped." if config.whole("rounds") == 2 else ".")]

    def next_pairing(self, t: Tournament) -> str:
        """Nothing is paired after the start."""
        return "every game was paired at the start"

    def nothing_due(self, t: Tournament) -> str:
        """Every round went out at the start."""
        return "a round robin pairs every round at the start; nothing is left to pair"


FORMAT = RoundRobin()
