"""Standings and tie-breaks against worked examples computed by hand."""

from __future__ import annotations

import pytest

from pbem.tournaments.core.standings import standings

from .logs import Log

ROUND_ROBIN = [("ann", "bob"), ("cid", "dan"), ("ann", "cid"), ("bob", "dan"),
               ("ann", "dan"), ("bob", "cid")]


def round_robin(outcomes: list[tuple[int, int]]) -> Log:
    """A round robin of four, three rounds of two games, with these ranks in game order."""
    log = Log("round-robin").register("ann", "bob", "cid", "dan").start()
    for r in range(3):
        games = log.pair(r + 1, [list(p) for p in ROUND_ROBIN[2 * r:2 * r + 2]])
        for game, ranks in zip(games, outcomes[2 * r:2 * r + 2], strict=True):
            log.result(game, ranks)
    return log


def test_direct_encounter_decides_when_points_sb_and_buchholz_tie():
    # Ann beat Bob, Cid beat Dan; Ann beat Cid, Dan beat Bob; Ann drew Dan, Bob drew Cid.
    # Points: Ann 2.5, Cid 1.5, Dan 1.5, Bob 0.5.
    # SB Cid = 1 x 1.5 (Dan) + 1/2 x 0.5 (Bob) = 1.75; SB Dan = 1 x 0.5 (Bob) + 1/2 x 2.5 = 1.75.
    # Buchholz cut-1: Cid 1.5 + 2.5 + 0.5 - 0.5 = 4; Dan 1.5 + 0.5 + 2.5 - 0.5 = 4.
    # Direct encounter: Cid beat Dan, so Cid 1, Dan 0.
    rows = standings(round_robin([(1, 2), (1, 2), (1, 2), (2, 1), (1, 1), (1, 1)]).tournament())
    assert [(r.place, r.name, r.points) for r in rows] == [
        (1, "Ann", 2.5), (2, "Cid", 1.5), (3, "Dan", 1.5), (4, "Bob", 0.5)]
    ann, cid, dan, bob = rows
    assert ann.tiebreaks == (("sonneborn-berger", 2.75), ("buchholz-cut-1", 3),
                             ("direct-encounter", 0), ("wins", 2))
    assert cid.tiebreaks == (("sonneborn-berger", 1.75), ("buchholz-cut-1", 4),
                             ("direct-encounter", 1), ("wins", 1))
    assert dan.tiebreaks == (("sonneborn-berger", 1.75), ("buchholz-cut-1", 4),
                             ("direct-encounter", 0), ("wins", 1))
    assert bob.tiebreak("sonneborn-berger") == 0.75 and bob.tiebreak("buchholz-cut-1") == 4
    assert dan.why == ("Cid is above Dan: both have 1.5 points, Sonneborn-Berger 1.75, "
                       "Buchholz cut-1 4; Direct encounter 1 against 0")
    assert cid.lines == (
        "Points = 1 (beat Dan, g2) + 0 (lost to Ann, g3) + 1/2 (drew Bob, g6) = 1.5",
        "Sonneborn-Berger = 1 x 1.5 (beat Dan) + 1/2 x 0.5 (drew Bob) = 1.75",
        "Buchholz cut-1 = 1.5 (Dan) + 2.5 (Ann) + 0.5 (Bob) - 0.5 (lowest: Bob) = 4",
        "Direct encounter = 1 (beat Dan) = 1, against Dan",
        "Wins = 1 (g2)",
    )
    assert ann.lines[3] == ("Direct encounter = 0 (nobody else is level on points and the "
                            "tie-breaks before it)")


def test_players_level_on_everything_share_a_place():
    # A cycle: Ann beat Cid, Cid beat Dan, Dan beat Ann, and all three beat Bob.
    # Each has 2 points, SB 1 x 2 + 1 x 0 = 2, Buchholz cut-1 2 + 2 + 0 - 0 = 4,
    # direct encounter 1 (one win in the cycle) and 2 wins: a three-way shared first place.
    rows = standings(round_robin([(1, 2), (1, 2), (1, 2), (2, 1), (2, 1), (2, 1)]).tournament())
    assert [(r.place, r.name) for r in rows] == [(1, "Ann"), (1, "Cid"), (1, "Dan"), (4, "Bob")]
    assert rows[1].why == ("Ann and Cid share place 1: both have 2 points, Sonneborn-Berger 2, "
                           "Buchholz cut-1 4, Direct encounter 1, Wins 2")
    assert rows[3].why == ""


def test_sonneborn_berger_decides_a_swiss_tie():
    # Round 1: Ann beat Bob, Cid drew Dan. Round 2: Cid beat Ann, Dan beat Bob.
    # Round 3: Ann beat Dan, Bob beat Cid. Points: Ann 2, Cid 1.5, Dan 1.5, Bob 1.
    # SB Cid = 1/2 x 1.5 (Dan) + 1 x 2 (Ann) = 2.75; SB Dan = 1/2 x 1.5 + 1 x 1 (Bob) = 1.75.
    log = Log("swiss", rounds=3).register("ann", "bob", "cid", "dan").start()
    for r, (pairs, ranks) in enumerate([
        ([["ann", "bob"], ["cid", "dan"]], [[1, 2], [1, 1]]),
        ([["ann", "cid"], ["dan", "bob"]], [[2, 1], [1, 2]]),
        ([["ann", "dan"], ["bob", "cid"]], [[1, 2], [1, 2]]),
    ]):
        for game, result in zip(log.pair(r + 1, pairs), ranks, strict=True):
            log.result(game, result)
    rows = standings(log.tournament())
    assert [(r.name, r.points, r.tiebreak("sonneborn-berger")) for r in rows] == [
        ("Ann", 2, 2.5), ("Cid", 1.5, 2.75), ("Dan", 1.5, 1.75), ("Bob", 1, 1.5)]
    assert rows[2].why == ("Cid is above Dan: both have 1.5 points; "
                           "Sonneborn-Berger 2.75 against 1.75")
    assert rows[0].lines[1] == "Sonneborn-Berger = 1 x 1 (beat Bob) + 1 x 1.5 (beat Dan) = 2.5"


def tables_of_four() -> Log:
    """Eight players, two rounds of two tables of four."""
    log = Log("swiss", table_sizes=[4], rounds=2)
    log.register("ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal").start()
    g1, g2 = log.pair(1, [["ann", "bob", "cid", "dan"], ["eve", "fay", "gus", "hal"]])
    log.result(g1, [1, 2, 2, 4]).result(g2, [1, 2, 3, 4])
    g3, g4 = log.pair(2, [["ann", "eve", "cid", "gus"], ["bob", "fay", "dan", "hal"]])
    log.result(g3, [3, 1, 2, 4]).result(g4, [2, 1, 4, 3])
    return log


def test_tables_of_four_worked_example():
    # g1: Ann 1st (1), Bob and Cid share 2nd-3rd (1/2 each), Dan 4th (0).
    # g2: Eve 1, Fay 2/3, Gus 1/3, Hal 0.   g3: Eve 1, Cid 2/3, Ann 1/3, Gus 0.
    # g4: Fay 1, Bob 2/3, Hal 1/3, Dan 0.
    # Points: Eve 2, Fay 5/3, Ann 4/3, Bob 7/6, Cid 7/6, Gus 1/3, Hal 1/3, Dan 0.
    # Neustadtl Cid = 1/2 x 7/6 (tied with Bob) + 1 x 0 (beat Dan) + 1 x 4/3 (beat Ann)
    #               + 1 x 1/3 (beat Gus) = 9/4; Bob = 1/2 x 7/6 + 0 + 1 x 1/3 (Hal) = 11/12.
    # Opponents' average Cid = (4/3 + 7/6 + 0 + 4/3 + 2 + 1/3) / 6 = 37/36; Bob = 27/36.
    # Average rank: both (2.5 + 2) / 2 = 2.25.  Gus: Neustadtl 1/3 (beat Hal), Hal 0.
    rows = standings(tables_of_four().tournament())
    assert [r.name for r in rows] == ["Eve", "Fay", "Ann", "Cid", "Bob", "Gus", "Hal", "Dan"]
    assert [r.place for r in rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    points = {r.name: r.points for r in rows}
    assert points == pytest.approx({"Eve": 2, "Fay": 5 / 3, "Ann": 4 / 3, "Bob": 7 / 6,
                                    "Cid": 7 / 6, "Gus": 1 / 3, "Hal": 1 / 3, "Dan": 0})
    cid, bob = rows[3], rows[4]
    assert dict(cid.tiebreaks) == pytest.approx(
        {"neustadtl": 9 / 4, "opponents-average": 37 / 36, "average-rank": 2.25})
    assert dict(bob.tiebreaks) == pytest.approx(
        {"neustadtl": 11 / 12, "opponents-average": 27 / 36, "average-rank": 2.25})
    assert bob.why == "Cid is above Bob: both have 1.17 points; Neustadtl 2.25 against 0.92"
    assert cid.lines == (
        "Points = 1/2 (shared 2nd of 4, g1) + 0.67 (2nd of 4, g3) = 1.17",
        "Neustadtl = 1/2 x 1.17 (tied with Bob) + 1 x 0 (beat Dan) + 1 x 1.33 (beat Ann) "
        "+ 1 x 0.33 (beat Gus) = 2.25",
        "Opponents' average = (1.33 (Ann) + 1.17 (Bob) + 0 (Dan) + 1.33 (Ann) + 2 (Eve) "
        "+ 0.33 (Gus)) / 6 = 1.03",
        "Average rank = (2.5 + 2) / 2 = 2.25",
    )
    assert rows[6].why == "Gus is above Hal: both have 0.33 points; Neustadtl 0.33 against 0"


def test_an_annulled_game_is_listed_in_the_arithmetic():
    log = Log("swiss").register("ann", "bob").start()
    (game,) = log.pair(1, [["ann", "bob"]])
    log.result(game, [1, 2]).director("annul", game=game)
    ann = standings(log.tournament())[0]
    assert ann.points == 0 and ann.games == 0
    assert ann.lines[:2] == ("Points = 0 (no games yet)",
                             "Annulled: g1 (annulled by the director: as the rules say)")


def test_a_bye_adds_points_but_no_tiebreak():
    log = Log("swiss").register("ann", "bob", "cid").start()
    log.pair(1, [["ann", "bob"]], byes=[("cid", 1)])
    log.result("g1", [1, 2])
    rows = standings(log.tournament())
    cid = next(r for r in rows if r.name == "Cid")
    assert cid.points == 1 and cid.tiebreak("sonneborn-berger") == 0
    assert cid.lines[0] == "Points = 1 (bye, round 1) = 1"
    # Ann and Cid: 1 point, SB 0, Buchholz cut-1 0, no game between them; Ann has a win.
    assert [(r.name, r.place) for r in rows] == [("Ann", 1), ("Cid", 2), ("Bob", 3)]
    assert rows[1].why.endswith("; Wins 1 against 0")


def test_a_lower_average_rank_alone_puts_a_player_above_another():
    # Round 1: Ann beat Bob, Cid beat Dan, Eve has a bye. Round 2: Ann beat Eve, Bob beat Cid,
    # Dan has a bye. Bob, Cid, Dan and Eve all have 1 point; byes take no part in the
    # average rank: Bob (2 + 1) / 2 = 1.5 = Cid, Dan 2 / 1 = 2 = Eve. Lower is better.
    log = Log("swiss", rounds=2, tiebreaks=["average-rank"])
    log.register("ann", "bob", "cid", "dan", "eve").start()
    g1, g2 = log.pair(1, [["ann", "bob"], ["cid", "dan"]], byes=[("eve", 1)])
    log.result(g1, [1, 2]).result(g2, [1, 2])
    g3, g4 = log.pair(2, [["eve", "ann"], ["bob", "cid"]], byes=[("dan", 1)])
    log.result(g3, [2, 1]).result(g4, [1, 2])
    rows = standings(log.tournament())
    assert [(r.place, r.name, r.points, r.tiebreak("average-rank")) for r in rows] == [
        (1, "Ann", 2, 1), (2, "Bob", 1, 1.5), (2, "Cid", 1, 1.5), (4, "Dan", 1, 2),
        (4, "Eve", 1, 2)]
    assert rows[3].why == ("Cid is above Dan: both have 1 point; "
                           "Average rank 1.5 against 2 (lower is better)")
    assert rows[1].lines[-1] == "Average rank = (2 + 1) / 2 = 1.5"
