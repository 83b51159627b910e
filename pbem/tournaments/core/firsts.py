"""First seats of a round robin at tables, balanced over the whole schedule by a min-cost flow.

The seat that starts matters most, so it is given first, for all rounds at once: each table
sends one unit of flow to the player it seats first, and a player's k-th first seat costs
(2k - 1) / (games they play), so the cheapest flow spreads first seats in proportion to each
player's games (nobody without one while another has two, where the schedule allows it).
The other seats are then given table by table, each player going where they have sat least
in all the other rounds, until no table changes.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import networkx as nx

from .history import SEATS

SCALE = 10_000  # costs are whole numbers for the network simplex
PASSES = 6


def first_seats(players: Sequence[str], rounds: Sequence[Sequence[Sequence[str]]]
                ) -> list[str]:
    """Return who sits first at each table, tables numbered round by round."""
    tables = [table for rd in rounds for table in rd]
    games = {p: 0 for p in players}
    for table in tables:
        for p in table:
            games[p] += 1
    graph: nx.DiGraph[object] = nx.DiGraph()
    graph.add_node("source", demand=-len(tables))
    graph.add_node("sink", demand=len(tables))
    for t, table in enumerate(tables):
        graph.add_edge("source", ("table", t), capacity=1, weight=0)
        for p in sorted(table):
            graph.add_edge(("table", t), ("player", p), capacity=1, weight=0)
    for p in sorted(games):
        if not games[p]:
            continue
        for k in range(1, games[p] + 1):
            graph.add_edge(("player", p), ("unit", p, k), capacity=1,
                           weight=(2 * k - 1) * SCALE // games[p])
            graph.add_edge(("unit", p, k), "sink", capacity=1, weight=0)
    flow = nx.min_cost_flow(graph)
    return [next(p for p in sorted(table) if flow[("table", t)][("player", p)])
            for t, table in enumerate(tables)]


def reseat(players: Sequence[str], rounds: Sequence[Sequence[Sequence[str]]]
           ) -> list[list[tuple[str, ...]]]:
    """Return the rounds' tables reseated: first seats balanced, then the others, each table
    reseated against all the others until none changes."""
    firsts = iter(first_seats(players, rounds))
    seated: list[list[tuple[str, ...]]] = []
    for rd in rounds:
        seated.append([])
        for table in rd:
            first = next(firsts)
            seated[-1].append((first, *sorted(p for p in table if p != first)))
    counts = {p: [0] * SEATS for p in players}
    for rd in seated:
        for table in rd:
            for s, p in enumerate(table):
                counts[p][s] += 1
    for _ in range(PASSES):
        changed = False
        for rd in seated:
            for k, table in enumerate(rd):
                for s, p in enumerate(table):
                    counts[p][s] -= 1
                order = min(itertools.permutations(sorted(table[1:])),
                            key=lambda o: sum(counts[p][s] for s, p in enumerate(o, start=1)))
                rd[k], changed = (table[0], *order), changed or order != table[1:]
                for s, p in enumerate(rd[k]):
                    counts[p][s] += 1
        if not changed:
            break
    return seated
