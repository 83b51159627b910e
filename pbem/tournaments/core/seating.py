"""Table sizes, and seating a pool: by matching for two, by a local search for tables of 3 to 8."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

from . import pairing
from .history import History
from .plans import Penalty

# The search swaps players between tables while the swap lowers the lexicographic total of the
# tables' penalties (see plans.Penalty): pairs kept apart by the director, pairs who met before
# (squared count), score spread, repeated seats, rating spread. It scans swaps in a fixed order and
# takes the first improvement, so the same inputs always give the same tables. The seat cost of a
# table is its best seat order, found by trying every order of up to 5 players (greedily beyond),
# and is only computed when the tiers above it tie, because it is the expensive one.

EXACT_SEATING_UP_TO = 5
MAX_PASSES = 30
EPSILON = 1e-9


def table_sizes(n: int, allowed: Sequence[int]) -> tuple[int, ...]:
    """Return table sizes for as many of n players as can sit: fewest tables, most even sizes."""
    sizes = sorted(set(allowed))
    pairs = list(itertools.combinations_with_replacement(sizes, 2))
    for seated in range(n, 0, -1):
        for count in range(-(-seated // sizes[-1]), seated // sizes[0] + 1):
            splits = [s for lo, hi in pairs if (s := two_sizes(seated, count, lo, hi))]
            if splits:
                return min(splits, key=lambda split: split[0] - split[-1])
    return ()


def two_sizes(n: int, count: int, lo: int, hi: int) -> tuple[int, ...] | None:
    """Return `count` tables of lo or hi players seating n, the big ones first, or None."""
    if lo == hi:
        return (lo,) * count if lo * count == n else None
    big, rest = divmod(n - count * lo, hi - lo)
    if rest or not 0 <= big <= count:
        return None
    return (hi,) * big + (lo,) * (count - big)


@cache
def orders(n: int) -> tuple[tuple[int, ...], ...]:
    """Return every seat order of n players, in a fixed order."""
    return tuple(itertools.permutations(range(n)))


def seat_order(players: Sequence[str], h: History) -> tuple[tuple[str, ...], int]:
    """Seat a table (players in standing order) so that few sit where they sat before."""
    counts = [h.seats[p] for p in players]
    n = len(players)
    if n > EXACT_SEATING_UP_TO:
        free, seated, cost = list(range(n)), [""] * n, 0
        for i, player in enumerate(players):
            best = min(free, key=lambda s: (counts[i][s], s))
            free.remove(best)
            seated[best], cost = player, cost + counts[i][best]
        return tuple(seated), cost
    best_cost, best_order = None, orders(n)[0]
    for order in orders(n):
        cost = sum(counts[i][s] for i, s in enumerate(order))
        if best_cost is None or cost < best_cost:
            best_cost, best_order = cost, order
    seated = [""] * n
    for i, s in enumerate(best_order):
        seated[s] = players[i]
    return tuple(seated), best_cost or 0


def best_seat_cost(counts: tuple[tuple[int, ...], ...]) -> int:
    """Return the least repeated-seat cost of players with these seat counts, in any order."""
    n = len(counts)
    if n > EXACT_SEATING_UP_TO:
        free, cost = set(range(n)), 0
        for row in counts:
            best = min(free, key=lambda s: (row[s], s))
            free.remove(best)
            cost += row[best]
        return cost
    return min(sum(row[s] for row, s in zip(counts, order, strict=True)) for order in orders(n))


Head = tuple[int, int, float]
Tail = tuple[int, float]


def compare(old: Sequence[tuple[float, ...]], new: Sequence[tuple[float, ...]]) -> int:
    """Return -1 if the new tables cost less tier by tier, 1 if more, 0 if the same."""
    for k in range(len(old[0])):
        delta = sum(x[k] for x in new) - sum(x[k] for x in old)
        if abs(delta) > EPSILON:
            return -1 if delta < 0 else 1
    return 0


class Search:
    """The penalty tiers of tables under improvement; seat costs cached by seat history."""

    def __init__(self, h: History, use_ratings: bool = True) -> None:
        self.h = h
        self.use_ratings = use_ratings
        self.any_forbidden = bool(h.forbidden)
        self.any_ratings = use_ratings and any(r is not None for r in h.ratings.values())
        self.seat_costs: dict[tuple[tuple[int, ...], ...], int] = {}

    def head(self, table: Sequence[str]) -> Head:
        """Return the cheap tiers of a table: kept apart, met before (squared), score spread."""
        h, met, forbidden = self.h, 0, 0
        for i, a in enumerate(table):
            seen = h.met.get(a)
            if seen:
                for b in table[i + 1:]:
                    times = seen.get(b)
                    if times:
                        met += times * times
            if self.any_forbidden:
                forbidden += sum(h.kept_apart(a, b) for b in table[i + 1:])
        points = [h.points[p] for p in table]
        return forbidden, met, max(points) - min(points)

    def tail(self, table: Sequence[str]) -> Tail:
        """Return the dear tiers of a table: repeated seats, rating spread."""
        n = len(table)
        # The best seat cost depends only on the players' seat counts, which repeat a lot.
        key = tuple(sorted(self.h.seats[p][:n] for p in table))
        cost = self.seat_costs.get(key)
        if cost is None:
            cost = self.seat_costs[key] = best_seat_cost(key)
        rating = 0.0
        if self.any_ratings:
            ratings = [r for r in (self.h.ratings.get(p) for p in table) if r is not None]
            rating = max(ratings) - min(ratings) if len(ratings) > 1 else 0.0
        return cost, rating

    def penalty(self, table: Sequence[str]) -> Penalty:
        """Return the full penalty of a seated table (its seat cost in this seat order)."""
        forbidden, met, score = self.head(table)
        _, rating = self.tail(table)
        seat = sum(self.h.seats[p][i] for i, p in enumerate(table))
        return Penalty(forbidden, met, score, seat, rating)


def improve(tables: list[list[str]], search: Search, reach: int) -> None:
    """Swap players between tables up to `reach` apart while a swap lowers the total penalty."""
    heads = [search.head(t) for t in tables]
    tails: list[Tail | None] = [None] * len(tables)
    for _ in range(MAX_PASSES):
        improved = False
        for a in range(len(tables)):
            for b in range(a + 1, min(len(tables), a + reach + 1)):
                for i in range(len(tables[a])):
                    for j in range(len(tables[b])):
                        x, y = tables[a], tables[b]
                        new_x = x[:i] + [y[j]] + x[i + 1:]
                        new_y = y[:j] + [x[i]] + y[j + 1:]
                        new_heads = (search.head(new_x), search.head(new_y))
                        verdict = compare((heads[a], heads[b]), new_heads)
                        new_tails: tuple[Tail | None, Tail | None] = (None, None)
                        if verdict == 0:
                            old_a = tails[a] = tails[a] or search.tail(x)
                            old_b = tails[b] = tails[b] or search.tail(y)
                            new_tails = (search.tail(new_x), search.tail(new_y))
                            verdict = compare((old_a, old_b), new_tails)
                        if verdict < 0:
                            tables[a], tables[b] = new_x, new_y
                            heads[a], heads[b] = new_heads
                            tails[a], tails[b] = new_tails
                            improved = True
        if not improved:
            return


def seat_tables(
    players: Sequence[str], sizes: Sequence[int], h: History, reach: int = 3,
    use_ratings: bool = True,
) -> tuple[tuple[tuple[str, ...], ...], tuple[Penalty, ...]]:
    """Cut players (in standing order) into tables by standing, improve them, seat each one."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players[start:start + size]))
        start += size
    search = Search(h, use_ratings)
    improve(tables, search, reach)
    seated = []
    for table in tables:
        ordered = h.by_standing(table)
        seated.append(seat_order(ordered, h)[0])
    return tuple(seated), tuple(search.penalty(t) for t in seated)


def seat_pool(
    pool: Sequence[str], sizes: Sequence[int], h: History
) -> tuple[tuple[tuple[str, ...], ...], tuple[Penalty, ...]]:
    """Pair (all tables of two: a maximum-weight matching) or seat (the search) a pool given
    in standing order into tables of these sizes (see `table_sizes`)."""
    if all(size == 2 for size in sizes):
        pairs = pairing.pair_players(pool, h)
        return pairs, tuple(pairing.penalty(a, b, h) for a, b in pairs)
    return seat_tables(pool, sizes, h)
