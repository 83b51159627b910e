"""Two-player pairing: a maximum-weight matching whose weights are a constant minus penalties."""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from .history import History
from .plans import Penalty

# Penalties, each tier outweighing everything below it over the whole matching: a pair the director
# keeps apart, a rematch (squared count: allowed only when nothing else pairs everyone), a
# first-seat imbalance beyond 2 (FIDE's absolute colour rule), the squared score difference (in
# half points), any first-seat imbalance the pair would leave, and last a preference that keeps a
# score group's top half against its bottom half (Dutch style) and floaters close in the standings.
# Nodes are standing positions, edges go in ascending order and the matching is sorted, so the
# result never depends on hash order.

# In a large field a complete graph is slow (n^2 / 2 edges for a cubic algorithm), and
# near neighbours in the standings are the only sensible partners anyway. So each
# player is joined to the next WINDOW players and to the WINDOW around their Dutch
# partner; the window doubles until the matching pairs everyone without a rematch or
# a kept-apart pair, or the graph is complete.
FULL_GRAPH_UP_TO = 64
WINDOW = 12


def choose_bye(players: Sequence[str], h: History) -> str:
    """Return who sits out an odd field: the lowest score among those with the fewest byes."""
    fewest = min(h.byes[p] for p in players)
    return [p for p in players if h.byes[p] == fewest][-1]


def imbalance(a: int, b: int) -> int:
    """Return the larger first-seat imbalance left by the better way to seat balances a and b."""
    return min(max(abs(a + 1), abs(b - 1)), max(abs(a - 1), abs(b + 1)))


def seat_cost(a: int, b: int) -> int:
    """Return the squared first-seat imbalance (beyond 1) a pair would leave."""
    return max(0, imbalance(a, b) - 1) ** 2


def penalty(a: str, b: str, h: History) -> Penalty:
    """Return what pairing a with b costs, for the director's preview."""
    ra, rb = h.ratings.get(a), h.ratings.get(b)
    return Penalty(
        forbidden=int(h.kept_apart(a, b)),
        met=h.times_met(a, b) ** 2,
        spread=abs(h.points[a] - h.points[b]),
        seat=seat_cost(h.balance[a], h.balance[b]),
        rating=0.0 if ra is None or rb is None else abs(ra - rb),
    )


def groups(players: Sequence[str], h: History) -> list[tuple[int, int]]:
    """Return each position's score group as (first position, size)."""
    spans: list[tuple[int, int]] = []
    start = 0
    level = [round(h.points[p], 9) for p in players]
    for i in range(1, len(players) + 1):
        if i == len(players) or level[i] != level[start]:
            spans.extend([(start, i - start)] * (i - start))
            start = i
    return spans


def edges(players: Sequence[str], h: History, width: int) -> list[tuple[int, int]]:
    """Return the candidate pairs (i < j, positions in standing order) for a window width."""
    n = len(players)
    if width >= n - 1:
        return [(i, j) for i in range(n) for j in range(i + 1, n)]
    spans = groups(players, h)
    found: set[tuple[int, int]] = set()
    for i in range(n):
        found.update((i, j) for j in range(i + 1, min(n, i + width + 1)))
        start, size = spans[i]
        partner = i + size // 2
        if i - start < size // 2:
            lo, hi = max(i + 1, partner - width // 2), min(start + size, partner + width // 2 + 1)
            found.update((i, j) for j in range(lo, hi))
    return sorted(found)


def pairing_graph(players: Sequence[str], h: History, width: int) -> nx.Graph[int]:
    """Return the weighted graph whose maximum-weight matching is the pairing."""
    spans = groups(players, h)
    tiers = []
    for i, j in edges(players, h, width):
        a, b = players[i], players[j]
        start, size = spans[i]
        dutch = abs(j - i - size // 2) if spans[j][0] == start else j - i
        score = round(2 * abs(h.points[a] - h.points[b])) ** 2
        worst = imbalance(h.balance[a], h.balance[b])
        tiers.append((i, j, int(h.kept_apart(a, b)), h.times_met(a, b) ** 2,
                      max(0, worst - 2) ** 2, score, max(0, worst - 1) ** 2, dutch))
    # Each tier's unit exceeds the most the tiers below can add over a whole matching.
    m = len(players) // 2 + 1
    units = [1]
    for k in range(7, 2, -1):
        units.insert(0, units[0] * m * (max((t[k] for t in tiers), default=0) + 1))
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(len(players)))
    for edge in tiers:
        cost = sum(unit * value for unit, value in zip(units, edge[2:], strict=True))
        graph.add_edge(edge[0], edge[1], weight=2 * units[0] - cost)
    return graph


def match(players: Sequence[str], h: History) -> list[tuple[str, str]]:
    """Pair an even field given in standing order; return pairs, better-placed player first."""
    n = len(players)
    width = n if n <= FULL_GRAPH_UP_TO else WINDOW
    while True:
        mate = nx.max_weight_matching(pairing_graph(players, h, width), maxcardinality=True)
        pairs = sorted((min(u, v), max(u, v)) for u, v in mate)
        named = [(players[i], players[j]) for i, j in pairs]
        complete = 2 * len(pairs) == n
        clean = all(not h.kept_apart(a, b) and not h.times_met(a, b) for a, b in named)
        if width >= n - 1 or (complete and clean):
            return named
        width = min(n, width * 2)


def seat(a: str, b: str, h: History, index: int) -> tuple[str, str]:
    """Return the pair in seat order: the lower first-seat balance sits first."""
    if h.balance[a] != h.balance[b]:
        return (a, b) if h.balance[a] < h.balance[b] else (b, a)
    return (a, b) if index % 2 == 0 else (b, a)


def pair_players(players: Sequence[str], h: History) -> tuple[tuple[str, str], ...]:
    """Pair an even field given in standing order; return seated pairs, top boards first."""
    return tuple(seat(a, b, h, i) for i, (a, b) in enumerate(match(players, h)))
