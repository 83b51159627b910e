"""Resolvable designs: rounds of equal tables in which every pair of players meets exactly once."""

from __future__ import annotations

import itertools
from collections.abc import Callable

# The affine geometry AG(d, q) has q^d points; its lines (q points each) fall into
# (q^d - 1) / (q - 1) parallel classes, one per direction, each splitting the points into disjoint
# lines. A class is a round and every two points share exactly one line, so every pair of players
# meets exactly once: 9 players in triples in 4 rounds (the affine plane of order 3), 16 in fours
# in 5, 25 in fives in 6, 27 in triples in 13, 64 in fours in 21. Fifteen in triples is Kirkman's
# schoolgirl problem: 7 rounds, taken here from a packing of the projective space PG(3, 2) (found
# once by a small search and checked by the tests).

Design = tuple[tuple[tuple[int, ...], ...], ...]

# Multiplication in GF(4) = {0, 1, a, a + 1}, elements written as bits, with a * a = a + 1;
# addition is exclusive or.
GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))
MOST_PLAYERS = 125

KIRKMAN_15: Design = (
    ((0, 1, 2), (3, 7, 11), (4, 9, 14), (5, 10, 12), (6, 8, 13)),
    ((0, 3, 4), (1, 7, 9), (2, 12, 13), (5, 8, 14), (6, 10, 11)),
    ((0, 5, 6), (1, 8, 10), (2, 11, 14), (3, 9, 13), (4, 7, 12)),
    ((0, 7, 8), (1, 11, 13), (2, 4, 5), (3, 10, 14), (6, 9, 12)),
    ((0, 9, 10), (1, 12, 14), (2, 3, 6), (4, 8, 11), (5, 7, 13)),
    ((0, 11, 12), (1, 3, 5), (2, 8, 9), (4, 10, 13), (6, 7, 14)),
    ((0, 13, 14), (1, 4, 6), (2, 7, 10), (3, 8, 12), (5, 9, 11)),
)


def field(q: int) -> tuple[Callable[[int, int], int], Callable[[int, int], int]]:
    """Return addition and multiplication of the field of order q (2, 3, 4, 5 or 7)."""
    if q == 4:
        return (lambda a, b: a ^ b), (lambda a, b: GF4_MUL[a][b])
    if q in (2, 3, 5, 7):
        return (lambda a, b: (a + b) % q), (lambda a, b: (a * b) % q)
    raise ValueError(f"no field of order {q} here (2, 3, 4, 5 or 7)")


def affine_geometry(d: int, q: int) -> Design:
    """Return the parallel classes of AG(d, q), points numbered by their base-q digits."""
    add, mul = field(q)
    points = list(itertools.product(range(q), repeat=d))
    index = {p: i for i, p in enumerate(points)}
    directions = [v for v in points if any(v) and v[next(i for i, x in enumerate(v) if x)] == 1]
    classes = []
    for v in directions:
        covered: set[int] = set()
        lines = []
        for p in points:
            if index[p] in covered:
                continue
            line = tuple(sorted(
                index[tuple(add(x, mul(t, y)) for x, y in zip(p, v, strict=True))]
                for t in range(q)
            ))
            covered.update(line)
            lines.append(line)
        classes.append(tuple(lines))
    return tuple(classes)


def resolvable(n: int, size: int) -> Design | None:
    """Return a resolvable design of n players in tables of `size`, when this module knows one."""
    if (n, size) == (15, 3):
        return KIRKMAN_15
    if size not in (3, 4, 5) or n > MOST_PLAYERS:
        return None
    for d in range(2, 6):
        if size ** d == n:
            return affine_geometry(d, size)
    return None


def is_resolvable(design: Design, n: int) -> bool:
    """Tell whether each round splits 0..n-1 into tables and every pair meets exactly once."""
    seen: dict[tuple[int, int], int] = {}
    for blocks in design:
        if sorted(p for block in blocks for p in block) != list(range(n)):
            return False
        for block in blocks:
            for a, b in itertools.combinations(sorted(block), 2):
                seen[a, b] = seen.get((a, b), 0) + 1
    return len(seen) == n * (n - 1) // 2 and set(seen.values()) == {1}
