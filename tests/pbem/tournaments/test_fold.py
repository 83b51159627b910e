"""Folding a tournament's log: what it builds, and every event it refuses (naming the seq)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbem.tournaments.core.errors import IllegalEvent, InvalidEvent
from pbem.tournaments.core.fold import fold
from pbem.tournaments.core.model import Event

from .logs import T0, Log


def four() -> Log:
    return Log("swiss").register("ann", "bob", "cid", "dan").start()


def test_a_log_folds_into_entrants_tables_results_and_byes():
    log = Log("swiss").register("ann", "bob", "cid").start(["cid", "ann", "bob"])
    (game,) = log.pair(1, [["cid", "ann"]], byes=[("bob", 1)])
    log.result(game, [2, 1], flags=["forfeit"])
    t = log.tournament()
    assert [e.player for e in t.entrants] == ["cid", "ann", "bob"]
    assert t.seeding["bob"] == 2
    table = t.by_game[game]
    assert table.seats == ("cid", "ann") and table.round == 1
    assert table.result is not None and table.result.ranks == (2, 1)
    assert table.result.flags == ("forfeit",)
    assert [(b.player, b.points, b.round) for b in t.byes] == [("bob", 1.0, 1)]
    assert t.started and not t.closed and t.head == len(log.events) - 1


def test_players_left_out_of_the_start_drop_out():
    t = Log("swiss").register("ann", "bob", "cid").start(["bob", "ann"]).tournament()
    assert t.active() == ("bob", "ann")


def test_an_unknown_event_kind_names_its_seq():
    log = four()
    log.add("promote", {})
    with pytest.raises(InvalidEvent, match=r"event 6 \(promote\): unknown event kind"):
        log.tournament()


def test_events_out_of_order_name_the_seq():
    log = four()
    events = log.events[:3] + [log.events[4]]
    with pytest.raises(InvalidEvent, match=r"event 4 \(register\): expected seq 3"):
        fold(events)


def test_a_log_must_begin_with_create():
    with pytest.raises(InvalidEvent, match="starts with one create event"):
        fold([Event(0, "register", {"player": "ann", "name": "Ann"}, T0)])
    with pytest.raises(InvalidEvent, match="empty log"):
        fold([])


def test_registering_twice_is_refused():
    log = Log("swiss").register("ann", "ann")
    with pytest.raises(IllegalEvent, match=r"event 2 \(register\): Ann is already registered"):
        log.tournament()


def test_registering_after_the_start_is_refused():
    log = four().register("eve")
    with pytest.raises(IllegalEvent, match="Eve cannot enter: entries closed when the event "
                       "started"):
        log.tournament()


def test_registering_after_registration_closes_is_refused():
    closes = (T0 + timedelta(hours=1, minutes=30)).isoformat()
    log = Log("swiss", registration_closes=closes).register("ann", "bob")
    with pytest.raises(IllegalEvent, match="event 2 .*entries closed on"):
        log.tournament()


def test_a_withdrawn_player_may_register_again_before_the_start():
    log = Log("swiss").register("ann", "bob")
    log.add("withdraw", {"player": "ann", "reason": "busy"})
    t = log.register("ann").start().tournament()
    assert set(t.active()) == {"ann", "bob"}


def test_a_result_for_a_game_outside_the_event_is_refused():
    log = four()
    log.pair(1, [["ann", "bob"], ["cid", "dan"]])
    log.result("g99", [1, 2])
    with pytest.raises(IllegalEvent, match="game 'g99' is not part of this tournament"):
        log.tournament()


def test_a_second_result_for_a_game_is_refused():
    log = four()
    games = log.pair(1, [["ann", "bob"], ["cid", "dan"]])
    log.result(games[0], [1, 2]).result(games[0], [2, 1])
    with pytest.raises(IllegalEvent, match="already has a result"):
        log.tournament()


@pytest.mark.parametrize(("ranks", "scores", "words"), [
    ([1], None, "'ranks' must be 2 integers"),
    ([0, 1], None, "'ranks' must be 2 integers"),
    ([1, 2], [3], "'scores' must be 2 numbers"),
])
def test_a_malformed_result_is_refused(ranks, scores, words):
    log = four()
    games = log.pair(1, [["ann", "bob"], ["cid", "dan"]])
    log.result(games[0], ranks, scores)
    with pytest.raises(InvalidEvent, match=words):
        log.tournament()


def test_pairing_while_a_round_is_open_is_refused():
    log = four()
    games = log.pair(1, [["ann", "bob"], ["cid", "dan"]])
    log.result(games[0], [1, 2])
    log.pair(2, [["ann", "cid"], ["bob", "dan"]])
    with pytest.raises(IllegalEvent, match=r"round 1 is still open: games \['g2'\] have no result"):
        log.tournament()


def test_a_withdrawn_players_unfinished_game_does_not_hold_the_round_open():
    log = four()
    log.pair(1, [["ann", "bob"], ["cid", "dan"]])
    log.result("g1", [1, 2])
    log.add("withdraw", {"player": "dan", "reason": "moved house"})
    log.pair(2, [["ann", "cid"]], byes=[("bob", 1)])
    t = log.tournament()
    assert t.entrant("dan").status == "withdrawn"
    assert t.open_tables(1) == ()


def test_pairing_a_player_twice_or_a_withdrawn_player_is_refused():
    log = four()
    log.pair(1, [["ann", "bob"], ["ann", "dan"]])
    with pytest.raises(IllegalEvent, match="'ann' is paired twice"):
        log.tournament()
    log = four()
    log.add("withdraw", {"player": "dan", "reason": "ill"})
    log.pair(1, [["ann", "bob"], ["cid", "dan"]])
    with pytest.raises(IllegalEvent, match="'dan' is withdrawn"):
        log.tournament()


def test_a_table_of_a_size_the_event_does_not_allow_is_refused():
    log = Log("swiss", table_sizes=[4]).register("ann", "bob", "cid", "dan", "eve").start()
    log.pair(1, [["ann", "bob", "cid"]])
    with pytest.raises(IllegalEvent, match=r"seats 3; tables seat \(4,\)"):
        log.tournament()


def test_forbidding_a_pair_of_unknown_players_is_refused():
    log = four().director("forbid", players=["ann", "zed"])
    with pytest.raises(IllegalEvent, match=r"director forbid\): 'zed' is not registered"):
        log.tournament()


def test_the_director_forbids_pairs_disqualifies_annuls_and_extends():
    log = four().director("forbid", players=["dan", "ann"])
    log.pair(1, [["ann", "bob"], ["cid", "dan"]])
    log.result("g1", [1, 2]).director("annul", game="g1").director("extend", game="g2", hours=24)
    log.director("disqualify", player="cid").director("bye", player="bob", round=1, points=0.5)
    t = log.tournament()
    assert t.forbidden == (("ann", "dan"),)
    assert t.by_game["g1"].annulled == "as the rules say"
    assert t.by_game["g2"].extra_hours == 24
    assert t.entrant("cid").status == "disqualified"
    assert t.byes[-1].by == "dee" and t.byes[-1].points == 0.5


def test_undo_takes_back_an_unplayed_pairing_only():
    log = four()
    log.pair(1, [["ann", "bob"], ["cid", "dan"]])
    log.director("undo", game="g2")
    assert [table.game for table in log.tournament().tables] == ["g1"]
    log.result("g1", [1, 2]).director("undo", game="g1")
    with pytest.raises(IllegalEvent, match="has a result; annul it instead"):
        log.tournament()


def test_an_adjudication_sets_a_flagged_result():
    log = four()
    log.pair(1, [["ann", "bob"], ["cid", "dan"]])
    log.director("adjudicate", game="g2", ranks=[1, 1], scores=None)
    result = log.tournament().by_game["g2"].result
    assert result is not None and result.ranks == (1, 1) and result.flags == ("adjudicated",)


def test_a_replacement_takes_the_place_history_and_standing():
    log = four()
    log.pair(1, [["ann", "bob"], ["cid", "dan"]], byes=[])
    log.result("g1", [2, 1])
    log.add("replace", {"player": "bob", "by": "bea", "name": "Bea"})
    t = log.tournament()
    assert t.active() == ("ann", "bea", "cid", "dan")
    assert t.entrant("bea").replaced == ("bob",)
    assert t.by_game["g1"].seats == ("ann", "bea")
    log.add("withdraw", {"player": "bob", "reason": "gone"})
    with pytest.raises(IllegalEvent, match=r"'bob' was replaced by 'bea' at event \d+"):
        log.tournament()


def test_a_rolling_swiss_refuses_more_than_c_games_at_once_or_g_in_all():
    log = Log("rolling-swiss", games_per_player=1, max_concurrent=1)
    log.register("ann", "bob", "cid", "dan").start()
    log.pair(None, [["ann", "bob"]])
    log.pair(None, [["ann", "cid"]])
    with pytest.raises(IllegalEvent, match="'ann' already plays 1 of 1 games at once"):
        log.tournament()
    log = Log("rolling-swiss", games_per_player=1, max_concurrent=1)
    log.register("ann", "bob", "cid", "dan").start()
    log.pair(None, [["ann", "bob"]])
    log.result("g1", [1, 2])
    log.pair(None, [["ann", "cid"]])
    with pytest.raises(IllegalEvent, match="'ann' has had all 1 games"):
        log.tournament()


def test_nothing_follows_the_close():
    log = four()
    log.add("close", {"standings": "0" * 64})
    assert log.tournament().closed
    log.add("withdraw", {"player": "ann", "reason": "late"})
    with pytest.raises(IllegalEvent, match="the tournament is closed"):
        log.tournament()
