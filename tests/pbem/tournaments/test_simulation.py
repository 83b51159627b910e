"""Whole events played purely with random results: every format ends and keeps its promises.

Each run has a withdrawal, a replacement and a player away for a while. Checked at every
pairing: nobody plays twice in a round (or twice in one pairing), a rolling Swiss keeps
everyone within c games at once and G in all, and a two-player Swiss pairs a rematch only
when no pairing of the same players avoids one. At the end: the event is over, the log
verifies, and the export alone recomputes the standings.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.tournaments.core.export import results, standings_from_results
from pbem.tournaments.core.formats import is_over
from pbem.tournaments.core.history import history
from pbem.tournaments.core.model import Tournament
from pbem.tournaments.core.plans import Plan
from pbem.tournaments.core.standings import standings
from pbem.tournaments.core.verify import verify

from .logs import Log
from .simulate import run


def check_plan(t: Tournament, p: Plan) -> None:
    """Check one plan against the invariants of its format."""
    seated = [player for table in p.tables for player in table] + [b.player for b in p.byes]
    assert len(seated) == len(set(seated)), "a player twice in one pairing"
    config = t.config
    if p.round is not None and config.system in ("swiss", "round-robin"):
        earlier = {player for tb in t.tables if tb.round == p.round for player in tb.seats}
        assert not earlier & set(seated), "a player twice in one round"
    if config.system == "rolling-swiss":
        for player in seated:
            games = t.games_of.get(player, ())
            going = sum(1 for tb in games if tb.result is None and tb.annulled is None)
            assert going + 1 <= (config.max_concurrent or 0)
            assert len(games) + 1 <= (config.games_per_player or 0)
    if config.system == "swiss" and config.two_player:
        check_rematches(t, p)


def check_rematches(t: Tournament, p: Plan) -> None:
    """A rematch only when no pairing of the same players avoids every rematch."""
    h = history(t)
    if not any(h.times_met(a, b) for a, b in p.tables):
        return
    pool = [player for table in p.tables for player in table]
    fresh = nx.Graph()
    fresh.add_nodes_from(pool)
    fresh.add_edges_from((a, b) for a, b in itertools.combinations(pool, 2)
                         if not h.times_met(a, b) and not h.kept_apart(a, b))
    assert len(nx.max_weight_matching(fresh, maxcardinality=True)) < len(pool) // 2


def play(system: str, sizes: tuple[int, ...], n: int, seed: int, **create: Any) -> Log:
    """Run an event with a withdrawal, a replacement and an away player; check it all."""
    log = Log(system, table_sizes=sizes, **create).register(*[f"p{i:02d}" for i in range(n)])
    log.start()

    def withdraw(log: Log, t: Tournament) -> None:
        log.add("withdraw", {"player": t.active()[-1], "reason": "moved away"})

    def replace(log: Log, t: Tournament) -> None:
        log.add("replace", {"player": t.active()[1], "by": "newcomer", "name": "Newcomer"})

    run(log, seed, hooks={6: withdraw, 11: replace}, away=lambda step: {"p03"} if step < 20
        else (), on_plan=check_plan)
    t = log.tournament()
    assert is_over(t)
    assert verify(log.events) is None
    again = standings_from_results(results(t, "x"))
    assert [(r.player, r.place) for r in again] == [(r.player, r.place) for r in standings(t)]
    return log


@pytest.mark.parametrize(("system", "sizes", "n", "create"), [
    ("swiss", (2,), 11, {"rounds": 5}),
    ("swiss", (2,), 10, {"rounds": 6}),
    ("swiss", (4,), 13, {"rounds": 4}),
    ("swiss", (4, 5), 17, {"rounds": 4}),
    ("rolling-swiss", (2,), 9, {"games_per_player": 5, "max_concurrent": 2, "pair_min_free": 4,
                                "pair_max_wait_hours": 48}),
    ("rolling-swiss", (4,), 15, {"games_per_player": 4, "max_concurrent": 1, "pair_min_free": 8,
                                 "pair_max_wait_hours": 24}),
    ("round-robin", (2,), 7, {}),
    ("round-robin", (2,), 6, {"rounds": 2}),
    ("round-robin", (3,), 9, {}),
    ("round-robin", (4,), 11, {}),
    ("knockout", (2,), 11, {}),
    ("knockout", (4,), 19, {"advance": 2}),
    ("knockout", (3, 4), 10, {"advance": 1}),
])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_event_ends_and_keeps_its_invariants(system, sizes, n, create, seed):
    log = play(system, sizes, n, seed, **create)
    t = log.tournament()
    if system == "rolling-swiss":
        assert max(len(games) for games in t.games_of.values()) <= create["games_per_player"]
    if system == "round-robin" and sizes == (2,):
        # The withdrawal comes before the last rounds are paired: only they miss games.
        met = Counter(frozenset(tb.seats) for tb in t.tables)
        stayed = t.active()
        assert {met[frozenset(pair)] for pair in itertools.combinations(stayed, 2)} == {
            create.get("rounds", 1)}


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 16), rounds=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_any_two_player_swiss_ends_without_an_avoidable_rematch(n, rounds, seed):
    play("swiss", (2,), n, seed, rounds=rounds)


@settings(max_examples=15, deadline=None)
@given(n=st.integers(4, 14), games=st.integers(1, 4), most=st.integers(1, 3),
       least=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_any_rolling_swiss_ends_within_its_limits(n, games, most, least, seed):
    play("rolling-swiss", (2,), n, seed, games_per_player=games, max_concurrent=most,
         pair_min_free=least)
