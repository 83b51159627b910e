"""Fairness figures of a whole event: rematches, score spread, seat balance, byes."""

from __future__ import annotations

from pbem.tournaments.core.fairness import fairness

from .logs import Log
from .simulate import run


def test_the_figures_of_a_small_event_computed_by_hand():
    log = Log("swiss", rounds=3).register("ann", "bob", "cid").start()
    log.pair(1, [["ann", "bob"]], byes=[("cid", 1)])
    log.result("g1", [1, 2])
    log.pair(2, [["cid", "ann"]], byes=[("bob", 1)])
    log.result("g2", [1, 1])
    log.pair(3, [["bob", "ann"]], byes=[("cid", 0)])
    figures = fairness(log.tournament())
    assert figures.meetings == ((1, 1), (2, 1))  # Ann-Cid once, Ann-Bob twice
    assert figures.rematches == (("ann", "bob", 2),)
    # g1: 0 v 0; g2: Cid 1 (bye) v Ann 1; g3: Bob 1 (bye) v Ann 1.5.
    assert figures.spreads == (("g1", 0), ("g2", 0), ("g3", 0.5))
    assert figures.largest_spread == 0.5 and abs(figures.mean_spread - 1 / 6) < 1e-9
    assert dict(figures.seats) == {"ann": (1, 2), "bob": (1, 1), "cid": (1, 0)}
    assert figures.seat_imbalance == 1
    assert figures.byes == (("bob", 1), ("cid", 1))  # a 0-point sit-out is not a bye


def test_a_round_robin_of_tables_from_a_design_has_no_rematch():
    log = run(Log("round-robin", table_sizes=[4]).register(
        *[f"p{i:02d}" for i in range(16)]).start(), seed=4)
    figures = fairness(log.tournament())
    assert figures.rematches == () and figures.meetings == ((1, 120),)
    assert figures.seat_imbalance <= 1
