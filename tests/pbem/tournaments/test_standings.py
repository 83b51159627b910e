"""Standings and tie-breaks against worked examples computed by hand."""

from __future__ import annotations

import pytest

from engine.figures import figure
from pbem.tournaments.core.standings import standings
from pbem.tournaments.core.tiebreaks import Ledger, ordinal, verb

from .logs import Log

ROUND_ROBIN = [("ann", "bob"), ("cid", "dan"), ("ann", "cid"), ("bob", "dan"),
               ("ann", "dan"), ("bob", "cid")]


def round_robin(outcomes: list[tuple[int, int]], **create: object) -> Log:
    """A round robin of four, three rounds of two games, with these ranks in game order."""
    log = Log("round-robin", **create).register("ann", "bob", "cid", "dan").start()
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


def test_buchholz_and_opponents_average_between_two_players():
    # The games of the first test: Ann 2.5, Cid 1.5, Dan 1.5, Bob 0.5 points.
    # Buchholz Ann = 0.5 (Bob) + 1.5 (Cid) + 1.5 (Dan) = 3.5; Bob = 2.5 + 1.5 + 1.5 = 5.5;
    # Cid = 1.5 (Dan) + 2.5 (Ann) + 0.5 (Bob) = 4.5; Dan = 1.5 + 0.5 + 2.5 = 4.5.
    # Opponents' average: the same over 3 games each: 7/6, 11/6, 1.5, 1.5.
    rows = standings(round_robin([(1, 2), (1, 2), (1, 2), (2, 1), (1, 1), (1, 1)],
                                 tiebreaks=["buchholz", "opponents-average"]).tournament())
    assert {r.name: r.tiebreak("buchholz") for r in rows} == {
        "Ann": 3.5, "Bob": 5.5, "Cid": 4.5, "Dan": 4.5}
    assert {r.name: r.tiebreak("opponents-average") for r in rows} == pytest.approx({
        "Ann": 7 / 6, "Bob": 11 / 6, "Cid": 1.5, "Dan": 1.5})


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



def test_a_game_after_an_annulled_one_still_counts():
    log = Log("swiss").register("ann", "bob").start()
    (first,) = log.pair(1, [["ann", "bob"]])
    log.result(first, [1, 2]).director("annul", game=first)
    (second,) = log.pair(2, [["bob", "ann"]])
    log.result(second, [1, 2])
    bob, ann = standings(log.tournament())
    assert (bob.name, bob.points, bob.games, ann.points, ann.games) == ("Bob", 1, 1, 0, 1)


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
    assert rows[2].why == "Bob and Cid share place 2: both have 1 point, Average rank 1.5"
    assert rows[3].why == ("Cid is above Dan: both have 1 point; "
                           "Average rank 1.5 against 2 (lower is better)")
    assert rows[1].lines[-1] == "Average rank = (2 + 1) / 2 = 1.5"


@pytest.mark.parametrize(("place", "text"), [
    (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),
    (20, "20th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"),
    (112, "112th"), (113, "113th"), (121, "121st"), (122, "122nd"), (211, "211th")])
def test_places_read_as_people_write_them(place, text):
    assert ordinal(place) == text


def test_numbers_and_encounters_read_as_people_write_them():
    assert [figure(v) for v in (0, 2, 10, 2.5, 7 / 6, -0.004, 0.004, 100)] == [
        "0", "2", "10", "2.5", "1.17", "0", "0", "100"]
    assert [verb(f, 2) for f in (1, 0.5, 0)] == ["beat", "drew", "lost to"]
    assert [verb(f, 4) for f in (1, 0.5, 0)] == ["beat", "tied with", "behind"]


def test_a_drawn_game_between_tied_players_is_half_a_point_of_direct_encounter():
    log = Log("swiss", rounds=1, tiebreaks=["direct-encounter"]).register("ann", "bob").start()
    (game,) = log.pair(1, [["ann", "bob"]])
    log.result(game, [1, 1])
    rows = standings(log.tournament())
    assert [(r.place, r.name, r.points, r.tiebreak("direct-encounter")) for r in rows] == [
        (1, "Ann", 0.5, 0.5), (1, "Bob", 0.5, 0.5)]


def test_an_unknown_tie_break_is_named():
    ledger = Ledger.of({"ann": "Ann"}, [], [], {"ann": 0.0})
    with pytest.raises(ValueError, match="unknown tie-break 'coin-toss'"):
        ledger.compute("coin-toss")


def tables_of_three() -> Log:
    """Six players, two rounds of two tables of three, every total different."""
    log = Log("swiss", table_sizes=[3], rounds=2,
              tiebreaks=["buchholz-cut-1", "buchholz", "opponents-average"])
    log.register("ann", "bob", "cid", "dan", "eve", "fay").start()
    g1, g2 = log.pair(1, [["ann", "bob", "cid"], ["dan", "eve", "fay"]])
    log.result(g1, [1, 2, 3]).result(g2, [1, 2, 2])
    g3, g4 = log.pair(2, [["ann", "dan", "eve"], ["bob", "cid", "fay"]])
    log.result(g3, [2, 1, 3]).result(g4, [3, 1, 2])
    return log


def test_buchholz_and_its_cut_at_tables_of_three():
    # A table of 3 gives 1, 1/2, 0; a shared 2nd-3rd gives (1/2 + 0) / 2 = 1/4 each.
    # g1: Ann 1, Bob 1/2, Cid 0.      g2: Dan 1, Eve 1/4, Fay 1/4.
    # g3: Dan 1, Ann 1/2, Eve 0.      g4: Cid 1, Fay 1/2, Bob 0.
    # Points: Dan 2, Ann 1.5, Cid 1, Fay 0.75, Bob 0.5, Eve 0.25.
    # Buchholz adds both opponents of each game:
    #   Ann = 0.5 (Bob) + 1 (Cid) + 2 (Dan) + 0.25 (Eve) = 3.75
    #   Bob = 1.5 (Ann) + 1 (Cid) + 1 (Cid) + 0.75 (Fay) = 4.25
    #   Cid = 1.5 (Ann) + 0.5 (Bob) + 0.5 (Bob) + 0.75 (Fay) = 3.25
    #   Dan = 0.25 (Eve) + 0.75 (Fay) + 1.5 (Ann) + 0.25 (Eve) = 2.75
    #   Eve = 2 (Dan) + 0.75 (Fay) + 1.5 (Ann) + 2 (Dan) = 6.25
    #   Fay = 2 (Dan) + 0.25 (Eve) + 0.5 (Bob) + 1 (Cid) = 3.75
    # Cut-1 drops the lowest opponent of all: Ann 3.75 - 0.25 (Eve) = 3.5, Bob 4.25 - 0.75 (Fay)
    # = 3.5, Cid 3.25 - 0.5 (Bob) = 2.75, Dan 2.75 - 0.25 (Eve) = 2.5, Eve 6.25 - 0.75 (Fay)
    # = 5.5 (Eve is herself the lowest at both her tables, so each drops her lower opponent:
    # Fay 0.75 in g2, Ann 1.5 in g3, and the lower of those), Fay 3.75 - 0.25 (Eve) = 3.5.
    # Opponents' average: Buchholz over 4 encounters each.
    rows = {r.name: r for r in standings(tables_of_three().tournament())}
    assert {n: r.points for n, r in rows.items()} == {
        "Ann": 1.5, "Bob": 0.5, "Cid": 1, "Dan": 2, "Eve": 0.25, "Fay": 0.75}
    assert {n: r.tiebreak("buchholz") for n, r in rows.items()} == {
        "Ann": 3.75, "Bob": 4.25, "Cid": 3.25, "Dan": 2.75, "Eve": 6.25, "Fay": 3.75}
    assert {n: r.tiebreak("buchholz-cut-1") for n, r in rows.items()} == {
        "Ann": 3.5, "Bob": 3.5, "Cid": 2.75, "Dan": 2.5, "Eve": 5.5, "Fay": 3.5}
    assert {n: r.tiebreak("opponents-average") for n, r in rows.items()} == {
        "Ann": 0.9375, "Bob": 1.0625, "Cid": 0.8125, "Dan": 0.6875, "Eve": 1.5625,
        "Fay": 0.9375}
    assert rows["Eve"].lines[1:] == (
        "Buchholz cut-1 = 2 (Dan) + 0.75 (Fay) + 1.5 (Ann) + 2 (Dan) - 0.75 (lowest: Fay) = 5.5",
        "Buchholz = 2 (Dan) + 0.75 (Fay) + 1.5 (Ann) + 2 (Dan) = 6.25",
        "Opponents' average = (2 (Dan) + 0.75 (Fay) + 1.5 (Ann) + 2 (Dan)) / 4 = 1.56",
    )


def test_a_player_with_only_byes_ranks_as_last_at_the_largest_table():
    # Round 1: a table of 4 (Ann 1st) and a table of 3 (Eve 1st); Hal has a bye worth 1 point.
    # Ann, Eve and Hal have 1 point each. Average rank: Ann 1, Eve 1, and Hal, with no game,
    # 4: last at the largest table of the event. Before, Hal's 0 put him first.
    log = Log("swiss", table_sizes=[3, 4], rounds=2, tiebreaks=["average-rank"])
    log.register("ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal").start()
    g1, g2 = log.pair(1, [["ann", "bob", "cid", "dan"], ["eve", "fay", "gus"]],
                      byes=[("hal", 1)])
    log.result(g1, [1, 2, 3, 4]).result(g2, [1, 2, 3])
    rows = standings(log.tournament())
    assert [(r.place, r.name, r.points, r.tiebreak("average-rank")) for r in rows[:3]] == [
        (1, "Ann", 1, 1), (1, "Eve", 1, 1), (3, "Hal", 1, 4)]
    assert rows[2].why == ("Eve is above Hal: both have 1 point; "
                           "Average rank 1 against 4 (lower is better)")
    assert rows[2].lines[-1] == "Average rank = 4 (no games yet: last at a table of 4, the largest)"


def test_a_player_whose_only_game_was_annulled_ranks_as_last_at_the_largest_counted_table():
    # g1, the only table of 4, is annulled: the largest counted table is g2's, of 3. Ann, Bob,
    # Cid and Dan have no counted game: average rank 3 each. Eve 1, Fay 2, Gus 3.
    log = Log("swiss", table_sizes=[3, 4], rounds=2, tiebreaks=["average-rank"])
    log.register("ann", "bob", "cid", "dan", "eve", "fay", "gus").start()
    g1, g2 = log.pair(1, [["ann", "bob", "cid", "dan"], ["eve", "fay", "gus"]])
    log.result(g1, [1, 2, 3, 4]).result(g2, [1, 2, 3]).director("annul", game=g1)
    ranks = {r.name: r.tiebreak("average-rank") for r in standings(log.tournament())}
    assert ranks == {"Ann": 3, "Bob": 3, "Cid": 3, "Dan": 3, "Eve": 1, "Fay": 2, "Gus": 3}


def test_without_any_counted_game_the_average_rank_is_that_of_a_two_player_loser():
    ledger = Ledger.of({"ann": "Ann", "bob": "Bob"}, [], [], {"ann": 1.0, "bob": 0.0})
    assert ledger.compute("average-rank") == {"ann": 2, "bob": 2}
    assert ledger.compute("wins") == {"ann": 0, "bob": 0}
    assert ledger.compute("opponents-average") == {"ann": 0, "bob": 0}
