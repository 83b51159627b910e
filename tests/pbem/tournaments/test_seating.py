"""Tables of 3 to 8: table sizes, the local search's penalties, and balanced seats."""

from __future__ import annotations

import itertools

import pytest

from pbem.tournaments.core.formats import plan
from pbem.tournaments.core.history import history
from pbem.tournaments.core.plans import Penalty
from pbem.tournaments.core.seating import seat_order, seat_tables, table_sizes

from .logs import Log


@pytest.mark.parametrize(("n", "allowed", "sizes"), [
    (13, (4, 5), (5, 4, 4)),
    (13, (3, 4, 5), (5, 4, 4)),
    (12, (3, 4, 5), (4, 4, 4)),
    (13, (3, 5), (5, 5, 3)),
    (16, (4,), (4, 4, 4, 4)),
    (10, (4,), (4, 4)),  # two sit out
    (7, (4,), (4,)),
    (3, (4,), ()),
    (11, (2, 3, 4), (4, 4, 3)),
    (9, (3, 4), (3, 3, 3)),
    (17, (4, 5), (5, 4, 4, 4)),
])
def test_table_sizes_are_the_fewest_tables_as_even_as_possible(n, allowed, sizes):
    assert table_sizes(n, allowed) == sizes


def players(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(1, n + 1)]


def seated_round(log: Log) -> list[tuple[str, ...]]:
    p = plan(log.tournament(), log.now)
    assert p is not None
    for game, table in zip(log.pair(p.round, p.tables, [(b.player, b.points) for b in p.byes]),
                           p.tables, strict=True):
        log.result(game, list(range(1, len(table) + 1)))
    return list(p.tables)


def test_tables_are_cut_by_standing_first():
    log = Log("swiss", table_sizes=[4], rounds=3).register(*players(8)).start()
    first = seated_round(log)
    assert [sorted(t) for t in first] == [players(8)[:4], players(8)[4:]]


def test_the_search_keeps_players_who_met_apart_when_it_can():
    log = Log("swiss", table_sizes=[4], rounds=3).register(*players(16)).start()
    met: dict[frozenset[str], int] = {}
    for _ in range(3):
        for table in seated_round(log):
            for pair in itertools.combinations(table, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    assert max(met.values()) == 1


def test_seats_go_to_those_who_sat_there_least():
    log = Log("swiss", table_sizes=[4], rounds=4).register(*players(4)).start()
    for _ in range(4):
        seated_round(log)
    seats = history(log.tournament()).seats
    assert all(counts[:4] == (1, 1, 1, 1) for counts in seats.values())


def test_seat_order_reports_the_repeated_seats_it_could_not_avoid():
    log = Log("swiss", table_sizes=[3], rounds=2).register("ann", "bob", "cid").start()
    log.pair(1, [["ann", "bob", "cid"]])
    h = history(log.tournament())
    order, cost = seat_order(["ann", "bob", "cid"], h)
    assert cost == 0 and order != ("ann", "bob", "cid")


def test_each_table_reports_its_penalty_for_the_preview():
    log = Log("swiss", table_sizes=[4], rounds=2, ).register(*players(8), ratings={
        "p01": 1500, "p02": 1400, "p05": 1300}).start()
    seated_round(log)
    h = history(log.tournament())
    tables, penalties = seat_tables(h.by_standing(players(8)), (4, 4), h)
    assert len(penalties) == 2 and all(isinstance(p, Penalty) for p in penalties)
    for table, penalty in zip(tables, penalties, strict=True):
        points = [h.points[p] for p in table]
        assert penalty.spread == pytest.approx(max(points) - min(points))
        met = sum(h.times_met(a, b) ** 2 for a, b in itertools.combinations(table, 2))
        assert penalty.met == met
    assert "met before" in str(penalties[0])


def test_a_pair_the_director_keeps_apart_is_the_first_thing_the_search_avoids():
    log = Log("swiss", table_sizes=[4], rounds=2).register(*players(8)).start()
    log.director("forbid", players=["p01", "p02"])
    p = plan(log.tournament(), log.now)
    assert p is not None
    assert not any({"p01", "p02"} <= set(t) for t in p.tables)
    assert all(penalty.forbidden == 0 for penalty in p.penalties)
