"""Leaderboards, head-to-head records and recent games read from rebuilt ratings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbem.ratings.core import fold, queries
from pbem.ratings.core.games import OVERALL, RatedGame, Seat, Status
from pbem.ratings.core.state import Ratings, Standing
from tests.pbem.ratings.randomgames import random_games

DAY = timedelta(days=1)
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def played(game_id: str, day: float, *seats: Seat, kind: str = "martian-dice",
           status: Status = Status.RATED) -> RatedGame:
    return RatedGame(game_id, kind, T0 + day * DAY, seats, status)


@pytest.fixture
def ratings() -> Ratings:
    return fold.rebuild([
        played("g1", 0, Seat("ann", 1), Seat("bob", 2), Seat("cat", 2), Seat(None, 4)),
        played("g2", 10, Seat("ann", 2), Seat("bob", 1)),
        played("g3", 20, Seat("ann", 1), Seat("bob", 1), kind="mars"),
        played("g4", 30, Seat("bob", 1), Seat("ann", 2), Seat("dan", 3), kind="mars"),
        played("g5", 40, Seat("ann", 1), Seat("bob", 2), status=Status.ANNULLED),
        played("g6", 50, Seat("cat", 1, timed_out=True), Seat("ann", 2)),
        played("g7", 60, Seat("eve", 1), Seat("dan", 2), kind="mars"),
    ])


def test_head_to_head_counts_games_above_level_and_below_per_kind_and_overall(ratings):
    records = queries.head_to_head(ratings, "ann")
    assert [(r.opponent, r.pool, r.games, r.wins, r.draws, r.losses) for r in records] == [
        ("bob", OVERALL, 4, 1, 1, 2),  # g1 won, g2 lost, g3 drawn, g4 lost; g5 was annulled
        ("bob", "mars", 2, 0, 1, 1),
        ("bob", "martian-dice", 2, 1, 0, 1),
        ("cat", OVERALL, 2, 2, 0, 0),  # g1 won; g6 won, as cat timed out
        ("cat", "martian-dice", 2, 2, 0, 0),
        ("dan", OVERALL, 1, 1, 0, 0),
        ("dan", "mars", 1, 1, 0, 0),
    ]


def test_head_to_head_of_a_player_without_games_is_empty(ratings):
    assert queries.head_to_head(ratings, "nobody") == ()


def test_head_to_head_records_mirror_each_other():
    ratings = fold.rebuild(random_games(8, 200))
    for record in queries.head_to_head(ratings, "p03"):
        back = next(
            r for r in queries.head_to_head(ratings, record.opponent)
            if (r.opponent, r.pool) == ("p03", record.pool)
        )
        assert (back.games, back.wins, back.draws, back.losses) == (
            record.games, record.losses, record.draws, record.wins
        )


def test_the_leaderboard_ranks_by_shown_rating(ratings):
    rows = queries.leaderboard(ratings, OVERALL)
    shown = [r.standing.display for r in rows]
    assert shown == sorted(shown, reverse=True)
    assert {r.standing.player for r in rows} == {"ann", "bob", "cat", "dan", "eve"}
    assert [r.place for r in rows] == [1, 2, 3, 4, 5]


def test_the_active_filter_keeps_players_who_played_within_the_days_given(ratings):
    now = T0 + 65 * DAY
    rows = queries.leaderboard(ratings, "mars", now=now, active_days=30)
    assert {r.standing.player for r in rows} == {"dan", "eve"}  # ann and bob last played day 30
    assert [r.place for r in rows] == [1, 2]
    everyone = queries.leaderboard(ratings, "mars", now=now, active_days=35)  # day 30 counts
    assert {r.standing.player for r in everyone} == {"ann", "bob", "dan", "eve"}


def test_the_active_filter_needs_a_now(ratings):
    message = "^an active-players filter needs the moment it counts back from$"
    with pytest.raises(ValueError, match=message):
        queries.leaderboard(ratings, active_days=30)


def test_the_leaderboard_can_leave_provisional_ratings_out(ratings):
    assert queries.leaderboard(ratings, provisional=False) == ()
    games = [played(f"s{n}", n, Seat("x", 1), Seat(f"o{n}", 2)) for n in range(30)]
    settled = fold.rebuild(games)
    assert [r.standing.player for r in queries.leaderboard(settled, provisional=False)] == ["x"]


def test_equal_shown_ratings_share_a_place():
    ratings = fold.rebuild([
        played("g1", 0, Seat("a", 1), Seat("b", 1), Seat("c", 3)),
        played("g2", 0, Seat("d", 1), Seat("e", 2)),
    ])
    rows = queries.leaderboard(ratings, "martian-dice")
    assert [(r.place, r.standing.player, r.standing.display) for r in rows] == [
        (1, "d", 1086), (2, "a", 1028), (2, "b", 1028), (4, "c", 974), (5, "e", 954)
    ]
    assert [r.standing.player for r in queries.leaderboard(ratings, "martian-dice", limit=2)] == [
        "d", "a"
    ]


def test_the_leaderboard_of_an_unknown_pool_is_empty(ratings):
    assert queries.leaderboard(ratings, "no-such-kind") == ()


def test_recent_games_come_newest_first_rated_or_not(ratings):
    assert [r.record.game for r in queries.recent_games(ratings, "ann")] == [
        "g6", "g5", "g4", "g3", "g2", "g1"
    ]
    assert [r.record.game for r in queries.recent_games(ratings, limit=3)] == ["g7", "g6", "g5"]
    mars = queries.recent_games(ratings, "ann", kind="mars")
    assert [r.record.game for r in mars] == ["g4", "g3"]
    assert queries.recent_games(ratings, "ann")[1].status is Status.ANNULLED


def test_a_players_change_in_a_listed_game_is_read_from_its_seat(ratings):
    g6 = queries.recent_games(ratings, "ann")[0]
    before, after = queries.change_of(g6, "ann")
    assert after > before
    assert queries.change_of(queries.recent_games(ratings, "ann")[1], "ann") is None  # annulled
    assert queries.change_of(g6, "nobody") is None


def test_a_player_is_rated_overall_and_in_each_kind_played(ratings):
    assert queries.pools_of(ratings, "ann") == (OVERALL, "mars", "martian-dice")
    assert queries.pools_of(ratings, "eve") == (OVERALL, "mars")
    assert queries.pools_of(ratings, "nobody") == ()
    assert queries.standing(ratings, "eve", "martian-dice") is None
    assert queries.standing(ratings, "eve", "mars").games == 1
    assert [p.game for p in queries.history(ratings, "ann", "mars")] == ["g3", "g4"]
    assert queries.history(ratings, "eve", "martian-dice") == ()


def test_a_now_without_active_days_lists_everyone(ratings):
    assert queries.leaderboard(ratings, now=T0) == queries.leaderboard(ratings)


def test_a_tie_in_shown_rating_goes_to_the_higher_mu_then_shares_the_place():
    # display = round(25 * (mu - 3 sigma) + 1000): 30.01 - 15 -> 1375.25 -> 1375, like 30 - 15;
    # 28 - 15 -> 1325 for both c and d.
    table = {p: Standing(p, OVERALL, mu, 5.0, 12, T0)
             for p, mu in [("a", 30.0), ("b", 30.01), ("c", 28.0), ("d", 28.0)]}
    rows = queries.leaderboard(Ratings(standings={OVERALL: table}))
    assert [(r.place, r.standing.player, r.standing.display) for r in rows] == [
        (1, "b", 1375), (1, "a", 1375), (3, "c", 1325), (3, "d", 1325)
    ]


def test_head_to_head_skips_an_unrated_game_and_counts_the_rated_ones_after_it():
    ratings = fold.rebuild([
        played("h1", 0, Seat("ann", 1), Seat("bob", 2), status=Status.ANNULLED),
        played("h2", 1, Seat("ann", 1), Seat("bob", 2)),
    ])
    assert queries.head_to_head(ratings, "ann") == (
        queries.Record("bob", OVERALL, 1, 1, 0, 0),
        queries.Record("bob", "martian-dice", 1, 1, 0, 0),
    )


def test_opponents_are_ordered_by_games_met_over_every_kind():
    # zed was met twice, once in each kind; amy once: zed comes first although amy's name is first.
    ratings = fold.rebuild([
        played("k1", 0, Seat("ann", 1), Seat("zed", 2)),
        played("k2", 1, Seat("ann", 1), Seat("zed", 2), kind="mars"),
        played("k3", 2, Seat("ann", 1), Seat("amy", 2)),
    ])
    assert [(r.opponent, r.pool, r.games) for r in queries.head_to_head(ratings, "ann")] == [
        ("zed", OVERALL, 2), ("zed", "mars", 1), ("zed", "martian-dice", 1),
        ("amy", OVERALL, 1), ("amy", "martian-dice", 1),
    ]


def test_a_players_recent_games_are_the_twenty_newest_by_default():
    ratings = fold.rebuild([played(f"r{n}", n, Seat("x", 1), Seat(f"o{n}", 2)) for n in range(25)])
    assert [r.record.game for r in queries.recent_games(ratings, "x")] == [
        f"r{n}" for n in range(24, 4, -1)
    ]


def test_a_player_or_pool_never_seen_reads_as_empty(ratings):
    assert queries.recent_games(ratings, "nobody") == ()
    assert queries.standing(ratings, "ann", "no-such-kind") is None
    assert queries.history(ratings, "ann", "no-such-kind") == ()
    assert queries.pools_of(Ratings(), "ann") == ()
