"""Points per game: the places scale, game points, byes, annulments and timeout losses."""

from __future__ import annotations

from datetime import datetime

import pytest

from pbem.tournaments.core.scoring import (
    Scored,
    average_places,
    bye_points,
    place_points,
    scored_games,
    totals,
)

from .logs import Log


@pytest.mark.parametrize(("ranks", "points"), [
    ((1, 2), (1, 0)),
    ((2, 1), (0, 1)),
    ((1, 1), (0.5, 0.5)),
    ((1, 2, 3), (1, 0.5, 0)),
    ((1, 2, 2), (1, 0.25, 0.25)),
    ((1, 2, 2, 2), (1, 1 / 3, 1 / 3, 1 / 3)),
    ((1, 1, 1, 1), (0.5, 0.5, 0.5, 0.5)),
    ((3, 1, 2, 4), (1 / 3, 1, 2 / 3, 0)),
    ((1, 2, 3, 4, 5), (1, 0.75, 0.5, 0.25, 0)),
    ((1, 2, 2, 4, 5), (1, 0.625, 0.625, 0.25, 0)),
])
def test_table_points_are_n_minus_place_over_n_minus_1_with_shared_places_averaged(ranks, points):
    assert place_points(ranks) == pytest.approx(points)


def test_the_middle_of_a_table_of_3_and_of_5_score_alike():
    assert place_points((1, 2, 3))[1] == place_points((1, 2, 3, 4, 5))[2] == 0.5


def test_shared_places_average_the_places_they_cover():
    assert average_places((1, 2, 2, 4)) == (1, 2.5, 2.5, 4)
    assert average_places((2, 1, 2, 2)) == (3, 1, 3, 3)


def four_player_log(**create) -> Log:
    log = Log("swiss", table_sizes=[4], **create)
    return log.register("ann", "bob", "cid", "dan").start()


def test_game_points_scoring_adds_each_games_outcome_scores():
    log = four_player_log(scoring={"by": "game-points"})
    (game,) = log.pair(1, [["ann", "bob", "cid", "dan"]])
    log.result(game, [1, 2, 3, 3], scores=[9, 5, 2, 2])
    assert totals(log.tournament()) == {"ann": 9, "bob": 5, "cid": 2, "dan": 2}


def test_a_bye_scores_what_its_event_says():
    log = Log("swiss").register("ann", "bob", "cid").start()
    log.pair(1, [["ann", "bob"]], byes=[("cid", 1)])
    log.director("bye", player="ann", round=None, points=0.5)
    assert totals(log.tournament()) == {"ann": 0.5, "bob": 0, "cid": 1}


def test_an_annulled_game_counts_for_nobody_and_says_so():
    log = Log("swiss").register("ann", "bob").start()
    (game,) = log.pair(1, [["ann", "bob"]])
    log.result(game, [1, 2]).director("annul", game=game)
    t = log.tournament()
    (scored,) = scored_games(t)
    assert scored.annulled == "annulled by the director: as the rules say"
    assert "annulled" in scored.flags and scored.points == (0, 0)
    assert totals(t) == {"ann": 0, "bob": 0}


def test_the_first_timeout_loss_counts_and_later_ones_are_annulled():
    log = Log("swiss", rounds=3).register("ann", "bob", "cid", "dan").start()
    log.pair(1, [["ann", "bob"], ["cid", "dan"]])
    log.result("g1", [1, 2], flags=["timeout"]).result("g2", [1, 2])
    log.pair(2, [["bob", "cid"], ["ann", "dan"]])
    log.result("g3", [2, 1], flags=["timeout"]).result("g4", [2, 1], flags=["timeout"])
    log.pair(3, [["bob", "dan"], ["ann", "cid"]])
    log.result("g5", [1, 2], flags=["timeout"], timed_out=[1]).result("g6", [1, 2])
    by_game = {g.game: g for g in scored_games(log.tournament())}
    assert by_game["g1"].annulled == ""  # Bob's first timeout loss counts
    assert by_game["g3"].annulled == "a later timeout loss of Bob (the first was g1)"
    assert by_game["g4"].annulled == ""  # Ann's first
    assert by_game["g5"].annulled == ""  # Dan's first: timed_out names the seat
    assert "annulled" in by_game["g3"].flags and "annulled" not in by_game["g4"].flags
    # g1 Ann, g2 Cid, g3 annulled (Cid gets nothing), g4 Dan, g5 Bob, g6 Ann
    assert totals(log.tournament()) == {"ann": 2, "bob": 1, "cid": 1, "dan": 1}


def test_a_withdrawn_player_keeps_the_games_they_played():
    log = Log("swiss").register("ann", "bob", "cid", "dan").start()
    log.pair(1, [["ann", "bob"], ["cid", "dan"]])
    log.result("g1", [2, 1]).result("g2", [1, 1])
    log.add("withdraw", {"player": "bob", "reason": "work"})
    assert totals(log.tournament())["bob"] == 1


def test_a_scored_game_keeps_its_round_seats_places_and_finish_time():
    # g1 of round 1 is still being played; g2 after it has finished.
    log = Log("swiss", table_sizes=[3]).register("ann", "bob", "cid", "dan", "eve", "fay").start()
    g1, g2 = log.pair(1, [["ann", "bob", "cid"], ["dan", "eve", "fay"]])
    log.result(g2, [2, 1, 3])
    finished = datetime.fromisoformat(log.events[-1].payload["finished_at"])
    assert scored_games(log.tournament()) == (Scored(
        game=g2, round=1, seats=("dan", "eve", "fay"), ranks=(2, 1, 3), places=(2, 1, 3),
        points=(0.5, 1, 0), annulled="", flags=(), finished_at=finished),)


def test_places_scoring_ignores_the_games_own_scores():
    log = four_player_log()
    (game,) = log.pair(1, [["ann", "bob", "cid", "dan"]])
    log.result(game, [1, 2, 3, 4], scores=[9, 5, 2, 1])
    assert totals(log.tournament()) == pytest.approx(
        {"ann": 1, "bob": 2 / 3, "cid": 1 / 3, "dan": 0})


def test_a_result_flagged_annulled_counts_for_nobody_and_says_so():
    log = Log("swiss").register("ann", "bob").start()
    (game,) = log.pair(1, [["ann", "bob"]])
    log.result(game, [1, 2], flags=["annulled"])
    t = log.tournament()
    (scored,) = scored_games(t)
    assert (scored.annulled, scored.points) == ("annulled in its result", (0, 0))
    assert totals(t) == {"ann": 0, "bob": 0}


def test_a_bye_adds_to_the_points_of_the_games_played():
    # Round 1: Ann beat Bob, Cid has a bye. Round 2: Cid beat Ann, Bob has a bye.
    log = Log("swiss").register("ann", "bob", "cid").start()
    (g1,) = log.pair(1, [["ann", "bob"]], byes=[("cid", 1)])
    log.result(g1, [1, 2])
    (g2,) = log.pair(2, [["cid", "ann"]], byes=[("bob", 1)])
    log.result(g2, [1, 2])
    t = log.tournament()
    assert totals(t) == {"ann": 1, "bob": 1, "cid": 2}
    # Counting only the first game: Ann's win and the two byes.
    assert totals(t, scored_games(t)[:1]) == {"ann": 1, "bob": 1, "cid": 1}


def test_a_pairing_bye_is_a_win_on_the_places_scale_and_nothing_in_game_points():
    assert bye_points(Log("swiss").tournament()) == 1
    assert bye_points(Log("swiss", scoring={"by": "game-points"}).tournament()) == 0
