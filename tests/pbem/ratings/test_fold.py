"""Ratings as a fold of games: rebuild, apply, and the rules on who is rated and how."""

from __future__ import annotations

import functools
import random
from dataclasses import fields
from datetime import UTC, datetime, timedelta

import pytest

from pbem.ratings.core import fold, scale, skill
from pbem.ratings.core.games import OVERALL, InvalidGame, OutOfOrder, RatedGame, Seat, Status
from pbem.ratings.core.state import History, Ratings
from tests.pbem.ratings.randomgames import random_games

DAY = timedelta(days=1)
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def played(game_id: str, day: float, *seats: Seat, kind: str = "martian-dice",
           status: Status = Status.RATED) -> RatedGame:
    return RatedGame(game_id, kind, T0 + day * DAY, seats, status)


def applied(games: list[RatedGame], start: Ratings | None = None) -> Ratings:
    ordered = sorted(games, key=lambda g: g.key)
    return functools.reduce(fold.apply, ordered, start or Ratings())


def assert_same_figures(left: Ratings, right: Ratings) -> None:
    """Every figure equal, with a message that names the first that differs."""
    assert left.standings.keys() == right.standings.keys()
    for pool, table in left.standings.items():
        assert table.keys() == right.standings[pool].keys(), pool
        for player, standing in table.items():
            other = right.standings[pool][player]
            for f in fields(standing):
                assert getattr(standing, f.name) == getattr(other, f.name), (pool, player, f)
            assert (standing.display, standing.provisional) == (other.display, other.provisional)
    assert left.histories.keys() == right.histories.keys()
    for pool, by_player in left.histories.items():
        assert by_player.keys() == right.histories[pool].keys(), pool
        for player, history in by_player.items():
            assert isinstance(history, History)
            assert history.points == right.histories[pool][player].points, (pool, player)
    assert left.results_of == right.results_of
    assert left.recent == right.recent
    assert (left.last, left.folded) == (right.last, right.folded)
    assert left == right


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_applying_200_random_games_one_by_one_gives_every_figure_of_a_rebuild(seed):
    games = random_games(seed, 200)
    statuses = {g.outcome for g in games}
    assert statuses == set(Status)  # the sample covers every kind of game
    assert any(s.timed_out for g in games for s in g.seats)
    assert any(s.player is None for g in games for s in g.seats)
    rebuilt = fold.rebuild(random.Random(seed).sample(games, len(games)))
    assert rebuilt.folded == 200
    assert_same_figures(applied(games), rebuilt)


def test_a_rebuild_of_the_first_games_then_applies_of_the_rest_gives_the_same_figures():
    games = sorted(random_games(4, 200), key=lambda g: g.key)
    assert_same_figures(applied(games[120:], fold.rebuild(games[:120])), fold.rebuild(games))


def test_a_rebuild_does_not_depend_on_the_order_the_games_are_given_in():
    games = random_games(5, 200)
    assert fold.rebuild(games) == fold.rebuild(list(reversed(games)))


def test_games_finishing_at_the_same_moment_fold_in_game_id_order():
    a = played("b-2", 1, Seat("x", 1), Seat("y", 2))
    b = played("a-1", 1, Seat("x", 2), Seat("y", 1))
    ratings = fold.rebuild([a, b])
    assert ratings.histories[OVERALL]["x"].game == ("a-1", "b-2")


def test_each_game_rates_its_kind_and_the_overall_pool_separately():
    ratings = fold.rebuild([
        played("g1", 0, Seat("x", 1), Seat("y", 2), kind="mars"),
        played("g2", 1, Seat("x", 1), Seat("y", 2), kind="martian-dice"),
    ])
    assert set(ratings.standings) == {"mars", "martian-dice", OVERALL}
    assert ratings.standings["mars"]["x"].games == 1
    assert ratings.standings[OVERALL]["x"].games == 2
    assert ratings.standings["mars"]["x"].mu == ratings.standings["martian-dice"]["x"].mu
    assert ratings.standings[OVERALL]["x"].mu > ratings.standings["mars"]["x"].mu
    assert ratings.standings[OVERALL]["x"].last_played == T0 + DAY


def test_a_seat_that_timed_out_ranks_last_even_with_the_best_score():
    timed_out = fold.rebuild([played("g1", 0, Seat("x", 1, timed_out=True), Seat("y", 2))])
    lost = fold.rebuild([played("g1", 0, Seat("x", 2), Seat("y", 1))])
    assert timed_out.standings == lost.standings
    assert timed_out.histories[OVERALL]["x"].points[0].rank == 2


def test_bot_seats_are_not_rated_and_the_others_are_rated_among_themselves():
    with_bots = fold.rebuild(
        [played("g1", 0, Seat(None, 1), Seat("x", 2), Seat(None, 3), Seat("y", 4))]
    )
    alone = fold.rebuild([played("g1", 0, Seat("x", 1), Seat("y", 2))])
    assert with_bots.standings == alone.standings
    assert set(with_bots.standings[OVERALL]) == {"x", "y"}
    assert with_bots.histories[OVERALL]["y"].points[0].places == 2
    assert with_bots.results_of["x"][0].changes[0] is None  # the bot seat's


@pytest.mark.parametrize(
    "status", [Status.ABORTED, Status.NEVER_MOVED, Status.ANNULLED], ids=lambda s: s.name
)
def test_an_unrated_game_changes_no_rating_but_is_listed_with_its_status(status):
    before = [
        played("g1", 0, Seat("x", 1), Seat("y", 2)),
        played("g3", 9, Seat("x", 2), Seat("y", 1)),
    ]
    unrated = played("g2", 5, Seat("x", 1), Seat("y", 2), Seat("z", 3), status=status)
    plain, with_unrated = fold.rebuild(before), fold.rebuild([*before, unrated])
    assert with_unrated.standings == plain.standings
    assert with_unrated.histories == plain.histories
    listed = with_unrated.results_of["z"]
    assert [(r.record.game, r.status, r.changes) for r in listed] == [
        ("g2", status, (None, None, None))
    ]
    assert [r.record.game for r in with_unrated.results_of["x"]] == ["g1", "g2", "g3"]


def test_a_game_with_one_rated_player_changes_nothing_and_says_why():
    ratings = fold.rebuild([played("g1", 0, Seat("x", 1), Seat(None, 2))])
    assert ratings.standings == {}
    assert ratings.results_of["x"][0].status is Status.TOO_FEW


def test_an_annulment_rerates_from_the_start_as_if_the_game_were_unrated():
    games = random_games(6, 60)
    victim = next(g for g in sorted(games, key=lambda g: g.key) if g.outcome is Status.RATED)
    annulled = RatedGame(victim.game, victim.kind, victim.finished_at, victim.seats,
                         Status.ANNULLED)
    rerated = fold.rebuild([annulled if g is victim else g for g in games])
    without = fold.rebuild([g for g in games if g is not victim])
    assert rerated.standings == without.standings
    assert rerated.histories == without.histories


def test_an_adjudicated_game_rates_by_its_adjudicated_ranks_and_is_listed_as_such():
    first = played("g1", 0, Seat("x", 1), Seat("y", 2))
    final = played("g2", 3, Seat("x", 2), Seat("y", 1))
    ruled = RatedGame("g2", "martian-dice", final.finished_at, (Seat("x", 1), Seat("y", 2)),
                      adjudicated=True)
    as_ruled = fold.rebuild([first, ruled])
    assert as_ruled != fold.rebuild([first, final])
    assert as_ruled.standings == fold.rebuild([first, played("g2", 3, *ruled.seats)]).standings
    assert as_ruled.results_of["x"][-1].record.adjudicated


def test_idle_time_widens_sigma_before_the_next_game_as_documented():
    first = played("g1", 0, Seat("x", 1), Seat("y", 2))
    ratings = fold.rebuild([first])
    sigma = ratings.standings["martian-dice"]["x"].sigma
    mu = ratings.standings["martian-dice"]["x"].mu
    y = ratings.standings["martian-dice"]["y"]
    later = fold.apply(ratings, played("g2", 40.5, Seat("x", 2), Seat("z", 1)))

    widened = min(skill.SIGMA, (sigma**2 + scale.TAU_IDLE**2 * 40.5) ** 0.5)
    assert widened > sigma
    expected = skill.Rater().rate([(mu, widened), (skill.MU, skill.SIGMA)], [2, 1])[0]
    x = later.standings["martian-dice"]["x"]
    assert (x.mu, x.sigma) == pytest.approx(expected, rel=1e-15)
    assert later.histories["martian-dice"]["x"].points[1].before == scale.display(mu, widened)
    assert later.standings["martian-dice"]["y"] == y  # y did not play: nothing grows until then


def test_a_player_stays_provisional_until_sigma_falls_below_the_threshold():
    games = [
        played(f"g{n:02d}", n, Seat("x", 1 + n % 2), Seat(f"o{n}", 2 - n % 2)) for n in range(40)
    ]
    history = fold.rebuild(games).histories["martian-dice"]["x"].points
    flags = [scale.is_provisional(p.sigma) for p in history]
    settled = flags.index(False)
    assert 5 < settled < 30
    assert all(flags[:settled]) and not any(flags[settled:])
    standing = fold.rebuild(games[: settled + 1]).standings["martian-dice"]["x"]
    assert not standing.provisional
    assert fold.rebuild(games[:settled]).standings["martian-dice"]["x"].provisional


def test_a_history_point_records_the_change_the_game_made():
    ratings = fold.rebuild([played("g1", 0, Seat("x", 1), Seat("y", 2), Seat("z", 2))])
    point = ratings.histories["martian-dice"]["x"].points[0]
    standing = ratings.standings["martian-dice"]["x"]
    assert (point.game, point.at, point.rank, point.places) == ("g1", T0, 1, 3)
    assert (point.mu, point.sigma, point.after) == (standing.mu, standing.sigma, standing.display)
    assert point.before == 1000
    assert point.delta == point.after - 1000 > 0
    x, y, z = (ratings.standings["martian-dice"][p].display for p in "xyz")
    assert ratings.results_of["y"][0].changes == ((1000, x), (1000, y), (1000, z))


def test_applying_a_game_that_finished_before_the_newest_rated_one_is_refused():
    ratings = fold.rebuild([played("g2", 5, Seat("x", 1), Seat("y", 2))])
    with pytest.raises(OutOfOrder, match="game 'g1' finished at .* not after game 'g2'"):
        fold.apply(ratings, played("g1", 4, Seat("x", 1), Seat("z", 2)))
    # the same finish time and id: not after the newest, so the same message
    with pytest.raises(OutOfOrder, match="game 'g2' finished at .* not after game 'g2'"):
        fold.apply(ratings, played("g2", 5, Seat("x", 1), Seat("y", 2)))


def test_applying_a_game_already_rated_is_refused():
    ratings = fold.rebuild([played("g2", 5, Seat("x", 1), Seat("y", 2))])
    with pytest.raises(OutOfOrder, match="game 'g2' is already rated: rebuild"):
        fold.apply(ratings, played("g2", 6, Seat("x", 1), Seat("y", 2)))


def test_a_rebuild_refuses_the_same_game_twice():
    with pytest.raises(InvalidGame, match="game 'g1': given more than once"):
        fold.rebuild([played("g1", 0, Seat("x", 1), Seat("y", 2)),
                      played("g1", 1, Seat("x", 1), Seat("y", 2))])


def test_recent_games_keep_the_newest_first_up_to_the_limit():
    games = random_games(7, 150)
    recent = fold.rebuild(games).recent
    newest = sorted(games, key=lambda g: g.key, reverse=True)[: fold.RECENT]
    assert [r.record for r in recent] == newest
    assert applied(games).recent == recent


def test_an_empty_rebuild_is_the_empty_ratings():
    assert fold.rebuild([]) == Ratings()
