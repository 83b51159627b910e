"""What each format pairs and when, when it is over, and when it should end."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbem.tournaments.core.formats import forecast_end, is_over, plan
from pbem.tournaments.core.plans import Plan

from .logs import Log


def players(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(1, n + 1)]


def commit(log: Log, p: Plan | None) -> list[str]:
    """Log a plan as the server would, with fresh game ids."""
    assert p is not None
    games = [f"g{log.games + i + 1}" for i in range(len(p.tables))]
    log.games += len(games)
    log.add("pair", p.payload(games))
    return games


def test_a_round_robin_pairs_every_round_at_once_one_pair_event_each():
    log = Log("round-robin").register(*players(6)).start()
    for round_ in range(1, 6):
        p = plan(log.tournament(), log.now)
        assert p is not None and p.round == round_ and len(p.tables) == 3
        commit(log, p)
    assert plan(log.tournament(), log.now) is None
    assert not is_over(log.tournament())
    for table in log.tournament().tables:
        log.result(table.game, [1, 2])
    assert is_over(log.tournament())


def test_a_round_robin_gives_a_free_round_of_0_points_to_an_odd_field():
    log = Log("round-robin").register(*players(5)).start()
    p = plan(log.tournament(), log.now)
    assert p is not None and len(p.byes) == 1 and p.byes[0].points == 0
    assert p.notes == (f"{p.byes[0].player.capitalize()} has a free round (0 points)",)


def test_swiss_waits_for_the_round_to_close_and_stops_after_the_last():
    log = Log("swiss", rounds=2).register(*players(4)).start()
    games = commit(log, plan(log.tournament(), log.now))
    log.result(games[0], [1, 2])
    assert plan(log.tournament(), log.now) is None
    log.result(games[1], [1, 2])
    games = commit(log, plan(log.tournament(), log.now))
    assert log.tournament().last_round() == 2
    for game in games:
        log.result(game, [2, 1])
    assert plan(log.tournament(), log.now) is None
    assert is_over(log.tournament())


def test_an_away_player_sits_a_swiss_round_out_with_0_points():
    log = Log("swiss", rounds=3).register(*players(5)).start()
    p = plan(log.tournament(), log.now, away=frozenset({"p02"}))
    assert p is not None
    assert p.away == ("p02",)
    assert ("p02", 0.0) in [(b.player, b.points) for b in p.byes]
    assert all("p02" not in table for table in p.tables) and len(p.tables) == 2
    assert "P02 is away and sits round 1 out (0 points)" in p.notes


def test_a_withdrawn_players_game_does_not_hold_up_the_next_swiss_round():
    log = Log("swiss", rounds=2).register(*players(4)).start()
    games = commit(log, plan(log.tournament(), log.now))
    log.result(games[0], [1, 2])
    (stuck,) = [g for g in log.tournament().tables if g.result is None]
    log.add("withdraw", {"player": stuck.seats[0], "reason": "ill"})
    p = plan(log.tournament(), log.now)
    assert p is not None and p.round == 2
    assert all(stuck.seats[0] not in table for table in p.tables)


def rolling(n: int, **create) -> Log:
    return Log("rolling-swiss", **create).register(*players(n)).start()


def test_rolling_swiss_pairs_once_p_players_are_free():
    log = rolling(6, games_per_player=3, max_concurrent=1, pair_min_free=4)
    commit(log, plan(log.tournament(), log.now))
    t = log.tournament()
    assert len(t.tables) == 3 and plan(t, log.now) is None
    log.result("g1", [1, 2]).result("g2", [1, 2])
    p = plan(log.tournament(), log.now)
    assert p is not None and p.round is None and len(p.tables) == 2
    assert {p for table in p.tables for p in table} == {*log.tournament().by_game["g1"].seats,
                                                         *log.tournament().by_game["g2"].seats}


def test_rolling_swiss_pairs_fewer_than_p_once_one_has_waited_w_hours():
    log = rolling(8, games_per_player=3, max_concurrent=1, pair_min_free=6,
                  pair_max_wait_hours=24)
    commit(log, plan(log.tournament(), log.now))
    log.result("g1", [1, 2], hours=0.5).result("g2", [2, 1], hours=0.5)
    freed = log.now
    assert plan(log.tournament(), freed + timedelta(hours=23)) is None
    p = plan(log.tournament(), freed + timedelta(hours=24))
    assert p is not None and len(p.tables) == 2


def test_rolling_swiss_keeps_each_player_within_c_games_at_once_and_g_in_all():
    log = rolling(4, games_per_player=3, max_concurrent=2, pair_min_free=2)
    commit(log, plan(log.tournament(), log.now))
    commit(log, plan(log.tournament(), log.now))  # c = 2: a second game each at once
    assert plan(log.tournament(), log.now) is None
    for table in log.tournament().tables:
        log.result(table.game, [1, 2])
    commit(log, plan(log.tournament(), log.now))
    for table in log.tournament().tables:
        if table.result is None:
            log.result(table.game, [1, 2])
    t = log.tournament()
    assert all(len(t.games_of[p]) == 3 for p in players(4))
    assert plan(t, log.now) is None and is_over(t)


def test_rolling_swiss_pairs_the_last_free_players_without_waiting_for_p():
    log = rolling(6, games_per_player=2, max_concurrent=1, pair_min_free=4)
    log.pair(None, [["p01", "p02"], ["p03", "p04"]])
    assert plan(log.tournament(), log.now) is None  # p01 to p04 will be free again
    log.director("disqualify", player="p01").director("disqualify", player="p02")
    p = plan(log.tournament(), log.now)  # p03 and p04 still play: only p05 and p06 wait
    assert p is None
    log.result("g2", [1, 2])
    log.add("withdraw", {"player": "p03", "reason": "away for good"})
    p = plan(log.tournament(), log.now)  # nobody else can join p04, p05 and p06
    assert p is not None and len(p.tables) == 1
    log = rolling(4, games_per_player=1, max_concurrent=1, pair_min_free=4)
    log.pair(None, [["p01", "p02"]])  # their only game: they will not be free again
    p = plan(log.tournament(), log.now)
    assert p is not None and p.tables in ((("p03", "p04"),), (("p04", "p03"),))


def test_rolling_tables_seat_whole_tables_and_the_last_freed_wait():
    log = rolling(7, table_sizes=[4], games_per_player=2, max_concurrent=1, pair_min_free=4)
    log.pair(None, [["p01", "p02", "p03", "p04"]])
    log.result("g1", [1, 2, 3, 4])
    p = plan(log.tournament(), log.now)
    assert p is not None and len(p.tables) == 1
    waiting = set(players(7)) - set(p.tables[0])
    assert waiting <= {"p01", "p02", "p03", "p04"}  # p05-p07 waited since the start
    assert sum("waits for the next pairing" in note for note in p.notes) == 3


def knockout(n: int) -> Log:
    return Log("knockout").register(*players(n)).start()


def test_a_knockout_bracket_seeds_1_against_the_last():
    p = plan(knockout(8).tournament(), knockout(8).now)
    assert p is not None and p.round == 1
    assert p.tables == (("p01", "p08"), ("p04", "p05"), ("p02", "p07"), ("p03", "p06"))


def test_top_seeds_get_the_byes_when_the_field_is_not_a_power_of_two():
    p = plan(knockout(6).tournament(), knockout(6).now)
    assert p is not None
    assert [(b.player, b.points) for b in p.byes] == [("p01", 1.0), ("p02", 1.0)]
    assert p.tables == (("p04", "p05"), ("p03", "p06"))


def test_a_drawn_knockout_game_is_replayed_with_seats_swapped_and_3_draws_send_the_higher_seed():
    log = knockout(2)
    (game,) = commit(log, plan(log.tournament(), log.now))
    log.result(game, [1, 1])
    p = plan(log.tournament(), log.now)
    assert p is not None and p.round == 1 and p.tables == (("p02", "p01"),)
    (game,) = commit(log, p)
    log.result(game, [1, 1])
    (game,) = commit(log, plan(log.tournament(), log.now))
    assert log.tournament().by_game[game].seats == ("p01", "p02")
    assert not is_over(log.tournament())
    log.result(game, [1, 1])
    assert plan(log.tournament(), log.now) is None and is_over(log.tournament())


def test_a_knockout_runs_to_its_final():
    log = knockout(5)
    while (p := plan(log.tournament(), log.now)) is not None:
        for game in commit(log, p):
            log.result(game, [2, 1])  # the second seat always wins
    assert is_over(log.tournament())
    assert len(log.tournament().tables) == 4  # 5 players: 4 games to find a winner


def test_a_multiplayer_knockout_sends_the_top_k_of_each_table_on_to_a_final_table():
    log = Log("knockout", table_sizes=[4], advance=1).register(*players(16)).start()
    p = plan(log.tournament(), log.now)
    assert p is not None and len(p.tables) == 4
    assert [sorted(t)[0] for t in p.tables] == ["p01", "p02", "p03", "p04"]  # seeds snaked
    for game in commit(log, p):
        log.result(game, [4, 3, 2, 1])  # the last seat wins
    final = plan(log.tournament(), log.now)
    assert final is not None and final.round == 2 and len(final.tables) == 1
    assert sorted(final.tables[0]) == sorted(t[-1] for t in p.tables)
    (game,) = commit(log, final)
    log.result(game, [1, 2, 3, 4])
    assert is_over(log.tournament()) and plan(log.tournament(), log.now) is None


def test_too_few_survivors_for_a_final_table_are_joined_by_the_best_losers():
    log = Log("knockout", table_sizes=[4], advance=1).register(*players(8)).start()
    first = plan(log.tournament(), log.now)
    assert first is not None
    for game in commit(log, first):
        log.result(game, [4, 3, 1, 2])  # the third seat wins, the fourth comes second
    final = plan(log.tournament(), log.now)
    assert final is not None and len(final.tables[0]) == 4
    # Both winners, and both second places as the best of the losers.
    assert set(final.tables[0]) == {*(t[2] for t in first.tables), *(t[3] for t in first.tables)}
    assert sum("joins the final" in note for note in final.notes) == 2


def test_the_forecast_counts_remaining_rounds_of_deadlines():
    log = knockout(8)
    start = log.now
    assert forecast_end(log.tournament(), start) == start + timedelta(hours=3 * 72)
    commit(log, plan(log.tournament(), log.now))
    paired = log.now
    assert forecast_end(log.tournament(), paired) == paired + timedelta(hours=3 * 72)
    log.director("extend", round=1, hours=24)
    assert forecast_end(log.tournament(), log.now) == paired + timedelta(hours=3 * 72 + 24)


@pytest.mark.parametrize("system", ["swiss", "rolling-swiss", "round-robin", "knockout"])
def test_nothing_is_planned_before_the_start(system):
    log = Log(system).register(*players(4))
    assert plan(log.tournament(), log.now) is None
    assert forecast_end(log.tournament(), log.now) is None


def test_an_away_player_is_not_paired_in_a_rolling_swiss_and_the_plan_says_so():
    log = rolling(5, games_per_player=2, max_concurrent=1, pair_min_free=4)
    p = plan(log.tournament(), log.now, away=frozenset({"p02"}))
    assert p is not None and all("p02" not in table for table in p.tables)
    assert "P02 is away and is not paired" in p.notes and p.away == ("p02",)


def test_a_player_who_leaves_a_knockout_gives_the_opponent_a_walkover():
    log = knockout(4)
    commit(log, plan(log.tournament(), log.now))  # p01-p04, p02-p03
    log.add("withdraw", {"player": "p04", "reason": "ill"})
    log.result("g2", [1, 2])
    final = plan(log.tournament(), log.now)
    assert final is not None and final.round == 2 and final.tables == (("p01", "p02"),)


def test_a_swiss_forecast_adds_a_deadline_per_round_left():
    log = Log("swiss", rounds=3, deadline_hours=48).register(*players(4)).start()
    commit(log, plan(log.tournament(), log.now))
    paired = log.now
    assert forecast_end(log.tournament(), paired) == paired + timedelta(hours=3 * 48)
    for table in log.tournament().tables:
        log.result(table.game, [1, 2])
    later = log.now
    assert forecast_end(log.tournament(), later) == later + timedelta(hours=2 * 48)


def test_a_finished_event_forecasts_its_last_result():
    log = Log("swiss", rounds=1).register(*players(2)).start()
    commit(log, plan(log.tournament(), log.now))
    log.result("g1", [1, 2])
    assert is_over(log.tournament())
    assert forecast_end(log.tournament(), log.now + timedelta(days=9)) == log.now
