"""A tournament game's result worked out again from the game's own log (`recount`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from pbem.log import store
from pbem.log.games import load
from pbem.models import Game
from pbem.play import director as directing_games
from pbem.tournaments import simulate
from pbem.tournaments.recount import Recounted, differences, recount

from ..pipe import svc_of
from ..ratings.test_server import new_game, simulate_one_move, timed_out_game

ENDED = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
FOUND = Recounted((2, 1), (3.0, 7.5), ("timeout", "forfeit"), (0,), ENDED)
LOGGED = {"ranks": [2, 1], "scores": [3, 7.5], "flags": ["forfeit", "timeout"],
          "timed_out": [0], "finished_at": ENDED.isoformat()}


def test_a_result_that_agrees_with_its_game_differs_in_nothing():
    assert differences(LOGGED, FOUND) == []
    # A result written before results named who timed out is not asked for them; a result
    # may be recorded after the game ended, never before.
    earlier = {k: v for k, v in LOGGED.items() if k != "timed_out"}
    assert differences({**earlier, "finished_at": (ENDED + timedelta(hours=2)).isoformat()},
                       FOUND) == []
    assert differences({**LOGGED, "scores": None},
                       Recounted((1, 2), None, (), (), ENDED)) == [
        "places [1, 2], the result says [2, 1]", "flags [], the result says "
        "['forfeit', 'timeout']", "seats timed out [], the result says [0]"]


def test_each_field_a_result_gets_wrong_is_named_with_what_the_game_says():
    wrong = {"ranks": [1, 2], "scores": [3, 7], "flags": ["timeout"], "timed_out": [1],
             "finished_at": (ENDED - timedelta(seconds=1)).isoformat()}
    assert differences(wrong, FOUND) == [
        "places [2, 1], the result says [1, 2]",
        "scores [3.0, 7.5], the result says [3, 7]",
        "flags ['timeout', 'forfeit'], the result says ['timeout']",
        "seats timed out [0], the result says [1]",
        f"it ended at {ENDED.isoformat()}, the result says it finished at "
        f"{wrong['finished_at']}",
    ]
    assert differences({}, FOUND) == [
        "places [2, 1], the result says None",
        "scores [3.0, 7.5], the result says None",
        "flags ['timeout', 'forfeit'], the result says None",
        f"it ended at {ENDED.isoformat()}, the result says it finished at None",
    ]
    assert differences({**LOGGED, "finished_at": "soon"}, FOUND) == [
        f"it ended at {ENDED.isoformat()}, the result says it finished at soon"]


def game_log(app, public_id):
    with svc_of(app).db.read() as s:
        game = s.scalars(select(Game).where(Game.public_id == public_id)).one()
        log = store.entries(s, game)
        return store.Setup.from_payload(log[0].payload), log, load(s, public_id).outcome


def test_a_played_game_recounts_to_its_outcome_and_its_last_event_before_the_reveal(app):
    public_id = new_game(app, "martian-frisby")
    simulate.play_out(svc_of(app), public_id)
    setup, log, outcome = game_log(app, public_id)
    found = recount(setup, log)
    assert isinstance(found, Recounted) and outcome is not None
    assert found.ranks == tuple(outcome.ranks) and (found.flags, found.timed_out) == ((), ())
    assert found.scores == (None if outcome.scores is None
                            else tuple(float(s) for s in outcome.scores))
    last = [e for e in log if e.kind != "reveal"][-1]
    assert found.ended == datetime.fromisoformat(last.at)
    # Up to an event before the end the game had not ended.
    assert recount(setup, log[:3]) == "the game had not ended at its event 2"


def test_an_aborted_game_has_no_result_and_an_adjudicated_one_the_directors(app):
    svc = svc_of(app)
    aborted, judged = new_game(app), new_game(app)
    simulate_one_move(app, judged)
    ann = directing_games.Director("Ann")
    svc.write(lambda s: directing_games.abort(s, svc.ctx, aborted, ann, "mistake"))
    svc.write(lambda s: directing_games.adjudicate(s, svc.ctx, judged, ann, "agreed", [2, 1]))

    setup, log, _ = game_log(app, aborted)
    (abort,) = [e for e in log if e.kind == "abort"]  # the seed's reveal follows it
    assert abort.seq < log[-1].seq
    assert recount(setup, log) == f"the game was aborted at its event {abort.seq} and has no result"
    setup, log, _ = game_log(app, judged)
    found = recount(setup, log)
    assert isinstance(found, Recounted)
    assert (found.ranks, found.flags) == ((2, 1), ("adjudicated",))


def test_a_timeout_is_flagged_with_what_became_of_the_seat(app):
    for policy, flags in (("forfeit", ("timeout", "forfeit")), ("bot", ("timeout", "bot"))):
        public_id, seat = timed_out_game(app, policy)
        setup, log, _ = game_log(app, public_id)
        found = recount(setup, log)
        assert isinstance(found, Recounted)
        assert (found.flags, found.timed_out) == (flags, (seat,))
