"""Two-player pairing after FIDE's Dutch rules: one maximum-weight matching, colours as limits.

Version 2 of two-player pairing (`pairing.py` keeps version 1 for pair events logged by it).
Each penalty tier outweighs everything below it over the whole matching:

1. a pair the director keeps apart;  2. a rematch (squared count);
3. a colour limit broken (a difference beyond +-2, a seat three times running: FIDE's
   absolute colour rules), counted per player, for the better seat order of the pair;
4. the score difference of a pair in half points, and alike the spare player's (the bye,
   or in a rolling Swiss who waits) score above the lowest they could have been taken from:
   a bye goes up a group only to save the pairs more than that;
5. the spare player not from that lowest group;
6. a pair across score groups (of two ways to bridge the same difference, fewer pairs);
7. colour wishes unmet;  8. strong colour wishes unmet (FIDE's C12 and C13);
9. the Dutch order within a score group (top half against bottom half; for the spare: the
   lowest ranked first).

An odd field gets a spare node joined to the players who may be spare, so the bye is chosen
with the pairs, as FIDE does, rather than before them. Nodes are standing positions, edges go
in ascending order and the matching is sorted, so the result never depends on hash order.
Above 64 players each player is joined to a window of neighbours (see `pairing.edges`),
doubled until nothing in tiers 1 to 3 remains.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

from . import colours
from .history import History
from .pairing import FULL_GRAPH_UP_TO, WINDOW, edges, groups

TIERS = 9
Tiers = tuple[int, ...]


def pair_tiers(i: int, j: int, players: Sequence[str], h: History,
               spans: Sequence[tuple[int, int]]) -> Tiers:
    """Return the tiers of pairing the players at standing positions i < j."""
    a, b = players[i], players[j]
    _, (broken, unmet, strong, _) = colours.seats(h.colours.get(a, ()), h.colours.get(b, ()))
    start, size = spans[i]
    same = spans[j][0] == start
    dutch = abs(j - i - size // 2) if same else j - i
    half_points = round(2 * abs(h.points[a] - h.points[b]))
    return (int(h.kept_apart(a, b)), h.times_met(a, b) ** 2, broken, half_points, 0,
            int(not same), unmet, strong, dutch)


def spare_tiers(players: Sequence[str], h: History, spare: Sequence[str],
                scored: bool) -> dict[int, Tiers]:
    """Return the tiers of leaving each possible spare player unpaired, by standing position.

    `spare` lists them most fitting first; `scored`: their score above the lowest counts too.
    """
    lowest = min(h.points[p] for p in spare)
    position = {p: i for i, p in enumerate(players)}
    found: dict[int, Tiers] = {}
    for rank, player in enumerate(spare):
        above = round(2 * (h.points[player] - lowest)) if scored else 0
        found[position[player]] = (0, 0, 0, above, int(above > 0), 0, 0, 0, rank)
    return found


def graph_of(players: Sequence[str], h: History, width: int,
             spare: Mapping[int, Tiers]) -> nx.Graph[int]:
    """Return the weighted graph whose maximum-weight matching is the pairing (node n: spare)."""
    spans = groups(players, h)
    tiers = [(i, j, pair_tiers(i, j, players, h, spans)) for i, j in edges(players, h, width)]
    tiers += [(i, len(players), t) for i, t in spare.items()]
    # Each tier's unit exceeds the most the tiers below can add over a whole matching.
    m = len(players) // 2 + 1
    units = [1]
    for k in range(TIERS - 1, 0, -1):
        units.insert(0, units[0] * m * (max((t[k] for _, _, t in tiers), default=0) + 1))
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(len(players) + bool(spare)))
    top = 2 * units[0] * (max((t[0] for _, _, t in tiers), default=0) + 1)
    for i, j, t in tiers:
        graph.add_edge(i, j, weight=top - sum(u * v for u, v in zip(units, t, strict=True)))
    return graph


def match(players: Sequence[str], h: History, spare: Sequence[str] = (),
          scored: bool = True) -> tuple[list[tuple[str, str]], str | None]:
    """Pair a field given in standing order; an odd field leaves one of `spare` unpaired.

    Return the pairs (better-placed player first, top boards first) and the spare player.
    """
    n = len(players)
    chances = spare_tiers(players, h, spare, scored) if n % 2 else {}
    width = n if n <= FULL_GRAPH_UP_TO else WINDOW
    while True:
        mate = nx.max_weight_matching(graph_of(players, h, width, chances), maxcardinality=True)
        pairs = sorted((min(u, v), max(u, v)) for u, v in mate)
        left = next((players[i] for i, j in pairs if j == n), None)
        named = [(players[i], players[j]) for i, j in pairs if j < n]
        complete = 2 * len(named) + (left is not None) == n
        clean = all(not h.kept_apart(a, b) and not h.times_met(a, b)
                    and not colours.seats(h.colours.get(a, ()), h.colours.get(b, ()))[1][0]
                    for a, b in named)
        if width >= n - 1 or (complete and clean):
            return named, left
        width = min(n, width * 2)


def seat(a: str, b: str, h: History, board: int) -> tuple[str, str]:
    """Return a pair (higher-ranked first) in seat order by the colour rules."""
    ca, cb = h.colours.get(a, ()), h.colours.get(b, ())
    if not colours.has_wish(ca, cb):
        return (a, b) if board % 2 == 0 else (b, a)
    return (a, b) if colours.seats(ca, cb)[0] else (b, a)


def pair_players(players: Sequence[str], h: History, spare: Sequence[str] = (),
                 scored: bool = True) -> tuple[tuple[tuple[str, str], ...], str | None]:
    """Pair a field in standing order; return seated pairs, top boards first, and the spare
    (one of `spare`, listed most fitting first; see `match`)."""
    named, left = match(players, h, spare, scored)
    return tuple(seat(a, b, h, i) for i, (a, b) in enumerate(named)), left
