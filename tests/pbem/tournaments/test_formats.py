"""What each format pairs and when, when it is over, and when it should end."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbem.tournaments.core.errors import BadFormat, IllegalEvent
from pbem.tournaments.core.formats import (
    elimination,
    forecast_end,
    format_for,
    is_over,
    plan,
    unfinished,
)
from pbem.tournaments.core.formats.elimination import Stage, ranked, stage
from pbem.tournaments.core.formats.fresh import pair_anew
from pbem.tournaments.core.formats.knockout import champion
from pbem.tournaments.core.formats.rolling import undone_pairs
from pbem.tournaments.core.history import history
from pbem.tournaments.core.plans import Plan

from .logs import T0, Log


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


# What each format says about itself, on the event's page, in mails and to a director who
# asks for a pairing when none is due: every sentence worked out from the format's rules.


def test_a_swiss_says_its_rounds_and_what_a_late_entrant_scores():
    swiss = format_for("swiss")
    assert swiss.describe(Log("swiss", rounds=1).tournament().config) == [
        "1 round; a round closes the moment its last game ends."]
    late = {0.5: "half a bye", 0: "nothing"}
    for share, words in late.items():
        config = Log("swiss", rounds=4, late_entry=share).tournament().config
        assert swiss.describe(config) == [
            "4 rounds; a round closes the moment its last game ends.",
            "Late entries are taken until the last round is paired; a late entrant scores "
            f"{words} for each round missed."]


def test_a_swiss_takes_late_entries_until_its_last_round_is_paired():
    swiss = format_for("swiss")
    closed = Log("swiss", rounds=3).tournament().config
    assert swiss.late_entry(closed, 0) == (
        "entries closed when the event started (it takes no late entries)")
    config = Log("swiss", rounds=3, late_entry=0.5).tournament().config
    assert swiss.late_entry(config, 2) is None
    assert swiss.late_entry(config, 3) == "the last round (3) is paired already"
    # Half a bye on the places scale (a bye is a win: 1 point), for each round paired before.
    assert swiss.late_byes(config, 2) == [(1, 0.5), (2, 0.5)]
    assert swiss.late_byes(config, 0) == []
    nothing = Log("swiss", rounds=3, late_entry=0).tournament().config
    assert swiss.late_byes(nothing, 2) == [(1, 0.0), (2, 0.0)]
    # A bye is worth nothing in game points, so neither is a round missed.
    points = Log("swiss", rounds=3, late_entry=0.5, scoring={"by": "game-points"})
    assert swiss.late_byes(points.tournament().config, 1) == [(1, 0.0)]


def test_a_swiss_refuses_a_late_entry_share_other_than_nothing_or_half_a_bye():
    with pytest.raises(BadFormat, match=r"^event 0 \(create\): late_entry must be 0 \(a late "
                                        r"entrant scores nothing for a round missed\) or 0\.5 "
                                        r"\(half a bye\), not 0\.25$"):
        Log("swiss", rounds=3, late_entry=0.25).tournament()
    with pytest.raises(BadFormat, match=r"^event 0 \(create\): a Swiss event needs 'rounds'$"):
        Log("swiss", rounds=None).tournament()


def test_a_swiss_says_which_games_hold_its_round_and_when_the_timetable_starts_the_next():
    swiss = format_for("swiss")
    log = Log("swiss", rounds=2).register(*players(14)).start()
    assert swiss.next_pairing(log.tournament()) == "now"
    assert swiss.nothing_due(log.tournament()) == (
        "not enough players are free yet (or none has waited long enough)")
    games = commit(log, plan(log.tournament(), log.now))
    t = log.tournament()
    assert swiss.next_pairing(t) == "when the last 7 games of round 1 end"
    assert swiss.nothing_due(t) == (
        "round 1 is still open: 7 games are unfinished (g1, g2, g3, g4, g5, ...); you may "
        "start round 2 now, adjudicating or carrying them")
    log.result(games[0], [1, 2])
    assert swiss.nothing_due(log.tournament()) == (
        "round 1 is still open: 6 games are unfinished (g2, g3, g4, g5, g6, ...); you may "
        "start round 2 now, adjudicating or carrying them")
    log.result(games[1], [1, 2])
    assert swiss.nothing_due(log.tournament()) == (
        "round 1 is still open: 5 games are unfinished (g3, g4, g5, g6, g7); you may start "
        "round 2 now, adjudicating or carrying them")
    for game in games[2:-1]:
        log.result(game, [1, 2])
    t = log.tournament()
    assert swiss.next_pairing(t) == "when the last game of round 1 ends"
    assert swiss.nothing_due(t) == (
        "round 1 is still open: 1 game is unfinished (g7); you may start round 2 now, "
        "adjudicating or carrying it")
    log.result(games[-1], [1, 2])
    last = commit(log, plan(log.tournament(), log.now))
    # The last round still playing: nothing is left to start early.
    assert swiss.nothing_due(log.tournament()) == (
        f"round 2 is still open: 7 games are unfinished ({', '.join(last[:5])}, ...)")

    by = T0 + timedelta(days=10)
    timed = Log("swiss", rounds=2, round_starts=[by.isoformat()], unfinished_games="carry")
    timed.register(*players(4)).start()
    commit(timed, plan(timed.tournament(), timed.now))
    assert format_for("swiss").next_pairing(timed.tournament()) == (
        "when the last 2 games of round 1 end, or by Wednesday 11 March 2026, 12:00 UTC "
        "(the timetable)")


def test_a_swiss_expects_a_table_a_round():
    swiss = format_for("swiss")
    assert swiss.expected_games(Log("swiss", rounds=3).register(*players(9)).start()
                                .tournament()) == 3 * 4
    tables = Log("swiss", table_sizes=[3, 4], rounds=2).register(*players(10)).start()
    assert swiss.expected_games(tables.tournament()) == 2 * 3


def test_a_swiss_pair_event_cannot_come_after_its_last_round():
    log = Log("swiss", rounds=1).register(*players(2)).start()
    (game,) = commit(log, plan(log.tournament(), log.now))
    log.result(game, [1, 2])
    log.pair(2, [["p01", "p02"]])
    with pytest.raises(IllegalEvent, match=r"^event 6 \(pair\): round 2 is past the last round "
                                           r"\(1\)$"):
        log.tournament()


def test_a_round_robin_table_plays_on_without_a_player_who_left_if_it_still_may():
    # Nine players in triples: the design's first round is p01-p03, p04-p06, p07-p09.
    log = Log("round-robin", table_sizes=[2, 3]).register(*players(9)).start()
    log.add("withdraw", {"player": "p01", "reason": "ill"})
    p = plan(log.tournament(), log.now)
    assert p is not None and p.tables[0] == ("p02", "p03") and not p.byes
    assert p.notes == ("P02, P03 play without P01, who left",)
    # Where two players may not sit at a table alone, they sit the round out with 0 points.
    log = Log("round-robin", table_sizes=[3]).register(*players(9)).start()
    log.add("withdraw", {"player": "p01", "reason": "ill"})
    p = plan(log.tournament(), log.now)
    assert p is not None and len(p.tables) == 2 and all("p02" not in t for t in p.tables)
    assert [(b.player, b.points) for b in p.byes] == [("p02", 0.0), ("p03", 0.0)]
    assert p.notes == ("P02 sits out: P01 left the table", "P03 sits out: P01 left the table")


def test_a_round_robin_says_every_game_goes_out_at_the_start():
    rr = format_for("round-robin")
    log = Log("round-robin", rounds=2).register(*players(4)).start()
    t = log.tournament()
    assert rr.describe(t.config) == ["Every game is paired at the start and played at the same "
                                     "time, twice with seats swapped."]
    assert rr.describe(Log("round-robin").tournament().config) == [
        "Every game is paired at the start and played at the same time."]
    assert rr.next_pairing(t) == "every game was paired at the start"
    assert rr.nothing_due(t) == (
        "a round robin pairs every round at the start; nothing is left to pair")
    assert rr.most_entrants(t.config) == 64
    assert Log("round-robin", rounds=1).tournament().config.whole("rounds") == 1
    with pytest.raises(BadFormat, match=r"^event 0 \(create\): a two-player round robin has "
                                        r"rounds 1 \(single\) or 2 \(double\)$"):
        Log("round-robin", rounds=3).tournament()
    assert Log("round-robin", table_sizes=[3], rounds=3).tournament().config.whole("rounds") == 3


def test_a_round_robin_forecast_is_one_deadline_until_every_round_is_paired():
    log = Log("round-robin", deadline_hours=48).register(*players(4)).start()
    start = log.now
    assert forecast_end(log.tournament(), start) == start + timedelta(hours=48)
    commit(log, plan(log.tournament(), log.now))
    later = log.now + timedelta(hours=10)
    # Rounds 2 and 3 are still to pair: their games end one deadline from now at the latest.
    assert forecast_end(log.tournament(), later) == later + timedelta(hours=48)
    while (p := plan(log.tournament(), log.now)) is not None:
        commit(log, p)
    last = log.now
    # Everything paired: the last game paired ends one deadline after its pairing.
    assert forecast_end(log.tournament(), last + timedelta(hours=1)) == last + timedelta(hours=48)


def test_a_knockout_refuses_an_advance_its_tables_cannot_have():
    refusals = {
        "a two-player knockout advances the winner only": {"advance": 2},
        "a multiplayer knockout needs 'advance' \\(top k per table\\)":
            {"table_sizes": [3], "advance": None},
        "advance 3 must be less than the smallest table \\(3\\)":
            {"table_sizes": [3, 4], "advance": 3},
    }
    for words, create in refusals.items():
        with pytest.raises(BadFormat, match=f"^event 0 \\(create\\): {words}$"):
            Log("knockout", **create).tournament()
    assert Log("knockout", advance=1).tournament().config.whole("advance") == 1
    assert Log("knockout", table_sizes=[3, 4], advance=2).tournament().config.whole("advance") == 2


def test_a_knockout_says_who_goes_on_and_expects_a_game_a_player_knocked_out():
    ko = format_for("knockout")
    two = Log("knockout").register(*players(9)).start().tournament()
    assert ko.describe(two.config) == ["Single elimination, seeded."]
    assert ko.expected_games(two) == 8  # everyone but the champion loses once
    assert ko.expected_games(Log("knockout").tournament()) == 1
    tables = Log("knockout", table_sizes=[3, 4], advance=2).register(*players(13)).start()
    assert ko.describe(tables.tournament().config) == [
        "The top 2 of each table go on to the next round."]
    assert ko.expected_games(tables.tournament()) == 13 // 3 * 2


def test_a_knockout_forecast_counts_its_rounds_from_the_round_in_play():
    log = Log("knockout", deadline_hours=10).register(*players(5)).start()
    # A bracket of 8: three rounds of 10 hours from now.
    assert forecast_end(log.tournament(), log.now) == log.now + timedelta(hours=30)
    (game,) = commit(log, plan(log.tournament(), log.now))  # p04-p05; p01, p02, p03 have byes
    paired = log.now
    # Round 1 plays until its deadline, then two more rounds.
    assert forecast_end(log.tournament(), paired + timedelta(hours=1)) == (
        paired + timedelta(hours=30))
    log.result(game, [1, 2])
    # Round 1 is over: two rounds from now.
    assert forecast_end(log.tournament(), log.now) == log.now + timedelta(hours=20)

    tables = Log("knockout", table_sizes=[3, 4], advance=1, deadline_hours=10)
    tables.register(*players(13)).start()
    # 13 players at a table of 4 and three of 3 leave 4 winners: a final table, two rounds.
    assert forecast_end(tables.tournament(), tables.now) == tables.now + timedelta(hours=20)


def test_a_knockout_of_tables_snakes_the_seeds_across_its_tables():
    log = Log("knockout", table_sizes=[3, 4], advance=1).register(*players(13)).start()
    p = plan(log.tournament(), log.now)
    assert p is not None and not p.byes
    # Seeds 1-4 forward, 5-8 back, 9-12 forward, 13 back to the only table of 4.
    assert [sorted(t) for t in p.tables] == [["p01", "p08", "p09", "p13"],
                                             ["p02", "p07", "p10"],
                                             ["p03", "p06", "p11"],
                                             ["p04", "p05", "p12"]]


def test_a_rolling_swiss_refuses_settings_it_cannot_pair_by():
    refusals = {
        "a rolling Swiss needs games_per_player and max_concurrent": {"games_per_player": None},
        "pair_min_free 2 is less than one table \\(3\\)": {"table_sizes": [3], "pair_min_free": 2},
        "pair_max_wait_hours must be positive, got 0.0": {"pair_max_wait_hours": 0},
    }
    for words, create in refusals.items():
        with pytest.raises(BadFormat, match=f"^event 0 \\(create\\): {words}$"):
            Log("rolling-swiss", **create).tournament()
    fine = Log("rolling-swiss", table_sizes=[3], pair_min_free=3, pair_max_wait_hours=0.5)
    assert fine.tournament().config.whole("pair_min_free") == 3


def test_a_rolling_swiss_says_how_many_games_and_when_free_players_are_paired():
    rolling_swiss = format_for("rolling-swiss")
    config = Log("rolling-swiss", games_per_player=4, max_concurrent=2, pair_min_free=4,
                 pair_max_wait_hours=1.5).tournament().config
    assert rolling_swiss.describe(config) == [
        "No rounds: each player plays 4 games, at most 2 at once; free players are paired "
        "when 4 are free or one has waited 1.5 hours."]
    # Without a number of free players, one table's worth; without a wait, none is said.
    config = Log("rolling-swiss", table_sizes=[3, 4], games_per_player=1).tournament().config
    assert rolling_swiss.describe(config) == [
        "No rounds: each player plays 1 game, at most 1 at once; free players are paired "
        "when 3 are free."]
    t = rolling(4).tournament()
    assert rolling_swiss.next_pairing(t) == "whenever enough players are free"
    assert rolling_swiss.late_entry(t.config, 3) is None
    assert rolling_swiss.expected_games(t) == 4 * 4 // 2
    assert rolling_swiss.expected_games(Log("rolling-swiss").tournament()) == 1


def test_a_rolling_swiss_forecast_counts_the_games_left_c_at_a_time():
    log = rolling(4, games_per_player=5, max_concurrent=2, deadline_hours=10)
    # Five games two at a time: three batches of 10 hours.
    assert forecast_end(log.tournament(), log.now) == log.now + timedelta(hours=30)
    log.pair(None, [["p01", "p02"]])
    log.result("g1", [1, 2])
    log.pair(None, [["p01", "p02"], ["p03", "p04"]])
    paired = log.now
    # p01 and p02 have three games left after their two (2 batches), p03 and p04 four
    # (2 batches): after the games in play end, 10 hours after their pairing.
    assert forecast_end(log.tournament(), paired) == paired + timedelta(hours=10 + 20)


def test_a_rolling_swiss_is_over_when_too_few_have_games_left_for_a_table():
    log = rolling(3, games_per_player=1)
    log.pair(None, [["p01", "p02"]])
    log.result("g1", [1, 2])
    assert format_for("rolling-swiss").is_over(log.tournament())  # only p03 has a game left
    log = rolling(4, games_per_player=1)
    log.pair(None, [["p01", "p02"]])
    log.result("g1", [1, 2])
    assert not format_for("rolling-swiss").is_over(log.tournament())


def met_all_but_two() -> Log:
    """p01 has met p02, p03 and p04, who have not met one another; p05 and p06 still play."""
    log = rolling(6, games_per_player=5, max_concurrent=1, pair_min_free=2,
                  pair_max_wait_hours=24)
    for tables in ([["p01", "p02"], ["p03", "p05"], ["p04", "p06"]],
                   [["p01", "p03"], ["p02", "p06"], ["p04", "p05"]],
                   [["p01", "p04"], ["p02", "p05"], ["p03", "p06"]]):
        for game in log.pair(None, tables):
            log.result(game, [1, 2])
    log.pair(None, [["p05", "p06"]])
    return log


def test_a_rolling_rematch_waits_for_others_until_a_player_has_waited_the_events_hours():
    log = met_all_but_two()
    t = log.tournament()
    since = {p: max(tb.result.finished_at for tb in t.games_of[p]) for p in players(4)}
    # Any pairing of p01 to p04 repeats one meeting of p01: that table waits, the other plays.
    p = plan(t, log.now)
    assert p is not None and len(p.tables) == 1 and not p.rematches
    (other,) = [q for q in players(4)[1:] if q not in p.tables[0]]
    held = {f"{a} and {b} have met and wait for others to be free"
            for a, b in (("P01", other.capitalize()), (other.capitalize(), "P01"))}
    assert p.notes[1] in held
    # 24 hours after p01 became free p01 has waited long enough, and the rematch goes ahead.
    due = since["p01"] + timedelta(hours=24)
    assert since[other] > since["p01"]
    p = plan(t, due)
    assert p is not None and len(p.tables) == 2
    (rematch,) = p.rematches
    assert set(rematch.players) == {"p01", other} and rematch.meeting == 2
    assert rematch.why == "P01 has waited the 24 hours the event allows"
    assert plan(t, due - timedelta(seconds=1)).rematches == ()  # type: ignore[union-attr]


def test_a_rolling_rematch_goes_ahead_when_nobody_else_can_be_free():
    log = met_all_but_two()
    log.result("g10", [1, 2])
    log.add("withdraw", {"player": "p05", "reason": "ill"})
    log.add("withdraw", {"player": "p06", "reason": "ill"})
    p = plan(log.tournament(), log.now)
    assert p is not None and len(p.tables) == 2
    (rematch,) = p.rematches
    assert rematch.why == ("nobody else can be free to play them: every player with games "
                           "left is free")


def test_a_pairing_the_director_undid_is_kept_apart_until_the_wait_is_over():
    log = rolling(6, table_sizes=[3], games_per_player=3, max_concurrent=1, pair_min_free=3,
                  pair_max_wait_hours=10)
    log.pair(None, [["p01", "p02", "p03"], ["p04", "p05", "p06"]])
    log.director("undo", game="g1")
    t, undone = log.tournament(), log.now
    avoid = undone_pairs(t)
    assert avoid == dict.fromkeys([("p01", "p02"), ("p01", "p03"), ("p02", "p03")], undone)
    assert plan(t, undone) is None  # the three wait: p04 to p06 may be free for them later
    h = history(t)
    queue = ["p01", "p02", "p03"]
    kept, _, waiting, rematches, held = pair_anew(t, h, queue, False, {}, avoid, undone)
    assert (kept, waiting, rematches) == ([], queue, [])
    assert held == ["P01 and P02 wait: their pairing was undone",
                    "P01 and P03 wait: their pairing was undone",
                    "P02 and P03 wait: their pairing was undone"]
    # Ten hours after the undo, or with nobody else to come, they play (no rematch: they
    # never played).
    for alone, now in ((False, undone + timedelta(hours=10)), (True, undone)):
        kept, _, waiting, rematches, held = pair_anew(t, h, queue, alone, {}, avoid, now)
        assert [sorted(x) for x in kept] == [queue] and (waiting, rematches, held) == ([], [], [])
    kept, *_ = pair_anew(t, h, queue, False, {}, avoid, undone + timedelta(hours=9.9))
    assert kept == []
    # The next pairing ends it: only undos since the latest pairing count.
    log.pair(None, [["p01", "p02", "p03"]])
    assert undone_pairs(log.tournament()) == {}


def test_each_rolling_version_still_plans_as_it_did_for_verify():
    log = met_all_but_two()
    t = log.tournament()
    # Version 1 paired the free players even when they had met; 2 and 3 hold the rematch.
    old = plan(t, log.now, algorithm="pbem-rolling-swiss-pairs/1")
    assert old is not None and old.algorithm == "pbem-rolling-swiss-pairs/1"
    assert len(old.tables) == 2 and any({"p01", "p02"} == set(x) for x in old.tables)
    for version in (2, 3):
        p = plan(t, log.now, algorithm=f"pbem-rolling-swiss-pairs/{version}")
        assert p is not None and p.algorithm == f"pbem-rolling-swiss-pairs/{version}"
        assert len(p.tables) == 1
    # An algorithm the format does not derive (or none) plans with the current version.
    for algorithm in ("pbem-rolling-swiss-pairs/9", None):
        p = plan(t, log.now, algorithm=algorithm)
        assert p is not None and p.algorithm == "pbem-rolling-swiss-pairs/3"


def test_version_1_of_a_knockout_of_tables_gave_the_byes_to_the_top_seeds_every_round():
    log = Log("knockout", table_sizes=[4], advance=3).register(*players(9)).start()
    first = plan(log.tournament(), log.now)
    assert first is not None and [b.player for b in first.byes] == ["p01"]
    for game in commit(log, first):
        log.result(game, [1, 2, 3, 4])
    # p01 and the top three of each table: seven for one table of four and three byes.
    now = plan(log.tournament(), log.now)
    assert now is not None and [b.player for b in now.byes] == ["p02", "p03", "p04"]
    assert {b.points for b in now.byes} == {1.0}  # a bye is a win
    assert now.notes == tuple(f"P0{i} goes on with a bye (the best seed among those with the "
                              "fewest byes)" for i in (2, 3, 4))
    old = plan(log.tournament(), log.now, algorithm="pbem-knockout-tables/1")
    assert old is not None and [b.player for b in old.byes] == ["p01", "p02", "p03"]
    assert old.notes == tuple(f"P0{i} goes on with a bye (a top seed nobody could be seated "
                              "with)" for i in (1, 2, 3))
    assert sorted(old.tables[0]) == ["p04", "p05", "p06", "p07"]


def test_a_knockout_of_tables_counts_its_rounds_until_one_table_holds_the_survivors():
    # 30 at tables of 4, the top 2 going on: 7 tables and 2 byes leave 16, then 8, then 4.
    log = Log("knockout", table_sizes=[4], advance=2, deadline_hours=10)
    log.register(*players(30)).start()
    assert elimination.rounds_to_go(log.tournament()) == 4
    assert forecast_end(log.tournament(), log.now) == log.now + timedelta(hours=40)
    over = Log("knockout", table_sizes=[4], advance=2).register(*players(4)).start()
    (game,) = commit(over, plan(over.tournament(), over.now))
    over.result(game, [1, 2, 3, 4])
    assert elimination.rounds_to_go(over.tournament()) == 0


def test_a_knockout_of_tables_replays_an_annulled_table_and_ranks_ties_by_seed():
    log = Log("knockout", table_sizes=[3], advance=1).register(*players(9)).start()
    assert stage(log.tournament()) == Stage(1, tuple(players(9)), ())
    g1, g2, g3 = commit(log, plan(log.tournament(), log.now))
    t = log.tournament()
    assert [tb.seats for tb in t.tables] == [("p01", "p06", "p07"), ("p02", "p05", "p08"),
                                            ("p03", "p04", "p09")]
    assert stage(t) == Stage(1, tuple(players(9)), (), waiting=True)
    log.result(g1, [2, 1, 2]).result(g2, [1, 2, 3]).director("annul", game=g3)
    t = log.tournament()
    assert stage(t) == Stage(1, tuple(players(9)), (), replay=(("p03", "p04", "p09"),))
    again = plan(t, log.now)
    assert again is not None and again.round == 1 and not again.byes
    assert [sorted(x) for x in again.tables] == [["p03", "p04", "p09"]]
    assert again.notes == ("an annulled table plays again",)
    (g4,) = commit(log, again)
    assert stage(log.tournament()).waiting  # the replay is the round's table now
    log.result(g4, [3, 3, 1])  # whatever the seats: the third seat won
    winner = log.tournament().by_game[g4].seats[2]
    assert winner == "p04"
    # Places then seeds: p06 won g1, p01 and p07 drew for second (p01 is the better seed);
    # p03 and p09 drew in g4.
    assert stage(log.tournament()) == Stage(
        2, ("p02", "p04", "p06"), ("p01", "p03", "p05", "p07", "p08", "p09"))
    log.add("withdraw", {"player": "p06", "reason": "ill"})
    log.add("withdraw", {"player": "p01", "reason": "ill"})
    # Those who left neither go on nor join the final; the best loser left takes the seat.
    assert stage(log.tournament()) == Stage(2, ("p02", "p04"), ("p03", "p05", "p07", "p08", "p09"))
    final = plan(log.tournament(), log.now)
    assert final is not None and sorted(final.tables[0]) == ["p02", "p03", "p04"]
    (g5,) = commit(log, final)
    log.result(g5, [2, 1, 3])
    champion = log.tournament().by_game[g5].seats[1]
    assert stage(log.tournament()) == Stage(2, ("p02", "p04"), ("p03", "p05", "p07", "p08", "p09"),
                                            winner=champion, over=True)


def test_a_knockout_of_tables_left_with_one_player_or_none_is_over():
    log = Log("knockout", table_sizes=[3], advance=1).register(*players(3)).start()
    log.add("withdraw", {"player": "p01", "reason": "ill"})
    log.add("withdraw", {"player": "p02", "reason": "ill"})
    assert stage(log.tournament()) == Stage(1, ("p03",), (), winner="p03", over=True)
    # Over without a game played: it ended when it started.
    assert is_over(log.tournament())
    assert forecast_end(log.tournament(), log.now) == log.tournament().started_at
    log.add("withdraw", {"player": "p03", "reason": "ill"})
    assert stage(log.tournament()) == Stage(1, (), (), winner=None, over=True)


def test_a_closed_event_is_over_and_plans_nothing_even_with_a_game_unfinished():
    log = Log("swiss", rounds=2).register(*players(4)).start()
    assert not is_over(Log("swiss").register(*players(4)).tournament())  # not started
    games = commit(log, plan(log.tournament(), log.now))
    log.result(games[0], [1, 2])
    assert not is_over(log.tournament())
    assert [tb.game for tb in unfinished(log.tournament())] == [games[1]]
    log.add("close", {"standings": "0" * 64})
    assert is_over(log.tournament()) and plan(log.tournament(), log.now) is None


def test_a_forecast_beyond_the_calendar_is_none():
    # Deadlines were not bounded once: such an event forecasts no end rather than failing.
    log = Log("swiss", rounds=30, deadline_hours=10**8).register(*players(2)).start()
    assert forecast_end(log.tournament(), log.now) is None


def test_a_tie_at_a_knockout_table_goes_to_the_better_seed_not_the_first_name():
    # Seeds by entry: zed is seed 1, so names sort against the seeding.
    log = Log("knockout", table_sizes=[3], advance=1).register("zed", "yan", "xia").start()
    (game,) = commit(log, plan(log.tournament(), log.now))
    seats = log.tournament().by_game[game].seats
    log.result(game, [1 if p in ("zed", "xia") else 3 for p in seats])  # zed and xia tie
    t = log.tournament()
    assert ranked(t, t.by_game[game]) == ["zed", "xia", "yan"]
    assert stage(t).winner == "zed"


def test_a_knockout_replay_plans_no_bye_and_the_higher_seed_left_takes_the_first_seat():
    log = knockout(4)
    g1, g2 = commit(log, plan(log.tournament(), log.now))  # p01-p04, p02-p03
    log.result(g1, [2, 1]).result(g2, [1, 1])  # p04 beats the top seed; p02 and p03 draw
    replay = plan(log.tournament(), log.now)
    assert replay is not None and replay.round == 1 and replay.tables == (("p03", "p02"),)
    assert replay.byes == ()  # p04 won a game, which is no bye
    assert replay.notes == ("P03 and P02 replay with seats swapped after a draw",)
    # The bracket has both rounds still to play: the drawn match is not decided.
    assert forecast_end(log.tournament(), log.now) == log.now + timedelta(hours=2 * 72)
    (g3,) = commit(log, replay)
    log.result(g3, [1, 2])
    final = plan(log.tournament(), log.now)
    assert final is not None and final.tables == (("p03", "p04"),) and not final.notes


def test_a_knockout_game_annulled_is_replayed_and_the_lower_seed_may_win():
    log = knockout(2)
    (game,) = commit(log, plan(log.tournament(), log.now))
    log.director("annul", game=game)
    again = plan(log.tournament(), log.now)
    assert again is not None and again.tables == (("p01", "p02"),)
    (game,) = commit(log, again)
    log.result(game, [2, 1])
    assert champion(log.tournament()) == "p02" and is_over(log.tournament())
    drawn = knockout(2)
    (game,) = commit(drawn, plan(drawn.tournament(), drawn.now))
    drawn.result(game, [1, 1])
    assert not format_for("knockout").is_over(drawn.tournament())  # two players: a replay


def test_a_knockout_bracket_counts_its_rounds_and_games_by_the_power_of_two_above_the_field():
    ko = format_for("knockout")
    assert ko.expected_games(knockout(8).tournament()) == 7
    nine = Log("knockout", deadline_hours=10).register(*players(9)).start()
    assert forecast_end(nine.tournament(), nine.now) == nine.now + timedelta(hours=40)  # of 16
    assert ko.expected_games(Log("knockout", table_sizes=[3], advance=1).tournament()) == 1


def test_a_swiss_bye_is_named_with_its_points_and_why():
    for version in (1, 2):
        log = Log("swiss", rounds=3).register(*players(5)).start()
        p = plan(log.tournament(), log.now, algorithm=f"pbem-swiss-pairs/{version}")
        assert p is not None and p.algorithm == f"pbem-swiss-pairs/{version}"
        assert [(b.player, b.points) for b in p.byes] == [("p05", 1.0)]
        assert p.notes == (
            "P05 gets the bye (1 point): the lowest score among those with the fewest byes",)
    tables = Log("swiss", table_sizes=[3], rounds=2).register(*players(4)).start()
    p = plan(tables.tournament(), tables.now)
    assert p is not None and sorted(p.tables[0]) == ["p01", "p02", "p03"]
    assert p.notes == (
        "P04 gets the bye (1 point): the lowest score among those with the fewest byes",)


def test_knockout_survivors_are_listed_by_seed_not_by_name():
    log = Log("knockout", table_sizes=[3], advance=1)
    log.register("zed", "yan", "xia", "wes", "vic", "uma").start()  # seeds 1 to 6
    first = plan(log.tournament(), log.now)
    assert first is not None  # seeds snaked: 1 and 4 and 5 at one table, 2, 3 and 6 at the other
    assert [sorted(x) for x in first.tables] == [["vic", "wes", "zed"], ["uma", "xia", "yan"]]
    for game in commit(log, first):
        seats = log.tournament().by_game[game].seats
        best = min(seats, key=log.tournament().seeding.__getitem__)
        log.result(game, [1 if p == best else 2 for p in seats])
    assert stage(log.tournament()).survivors == ("zed", "yan")
    assert stage(log.tournament()).losers == ("xia", "wes", "vic", "uma")


def test_a_double_round_robin_plans_every_pair_twice_and_version_1_still_plans_tables():
    log = Log("round-robin", rounds=2).register(*players(4)).start()
    while (p := plan(log.tournament(), log.now)) is not None:
        commit(log, p)
    assert log.tournament().last_round() == 6 and len(log.tournament().tables) == 12
    seven = Log("round-robin", table_sizes=[3, 4]).register(*players(7)).start()
    old = plan(seven.tournament(), seven.now, algorithm="pbem-round-robin-tables/1")
    assert old is not None and old.tables == (("p04", "p01", "p02", "p03"), ("p05", "p06", "p07"))
