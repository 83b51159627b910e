"""A tournament game's result worked out again from the game's own log (`recount`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from sqlalchemy import select, update

from pbem.log import store
from pbem.log.chain import canonical_json
from pbem.log.games import load
from pbem.models import Event as GameEvent
from pbem.models import Game
from pbem.play import director as directing_games
from pbem.tournaments import simulate
from pbem.tournaments.core.model import Event
from pbem.tournaments.recount import Recounted, Witness, differences, recount

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
    # Martian Dice ends with scores: the recount gives them, as numbers.
    scored = new_game(app)
    simulate.play_out(svc_of(app), scored)
    setup, log, outcome = game_log(app, scored)
    found = recount(setup, log)
    assert isinstance(found, Recounted) and outcome is not None and outcome.scores is not None
    assert found.scores == tuple(float(s) for s in outcome.scores)


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


def honest_result(s, public_id: str) -> dict:
    """The result a tournament would log for a game that is over: what its own log gives."""
    game = s.scalars(select(Game).where(Game.public_id == public_id)).one()
    log = store.entries(s, game)
    found = recount(store.Setup.from_payload(log[0].payload), log)
    assert isinstance(found, Recounted)
    return {"game": public_id, "head": log[-1].hash, "ranks": list(found.ranks),
            "scores": None if found.scores is None else list(found.scores),
            "flags": list(found.flags), "timed_out": list(found.timed_out),
            "finished_at": found.ended.isoformat()}


def event(kind: str, payload: dict) -> Event:
    return Event(9, kind, payload, ENDED)


def test_a_witness_recounts_a_result_from_its_game_and_names_how_it_differs(app):
    svc = svc_of(app)
    played, elsewhere = new_game(app, "martian-frisby"), "g-not-here"
    simulate.play_out(svc, played)
    # The witness reads only which games the event has (`by_game`) from the tournament.
    t = SimpleNamespace(by_game={played: None, elsewhere: None})
    with svc.db.read() as s:
        honest = honest_result(s, played)
        setup, log, _ = game_log(app, played)
        witness = Witness(s)
        assert witness(event("result", honest), t) == ""
        assert witness.checked == 1 and witness.elsewhere == []
        assert list(witness.logs) == [played]  # each game's log is read and checked once
        # A game the event does not have is for the fold to name; one not on this server
        # (an export verified elsewhere) is counted and left alone.
        assert witness(event("result", {**honest, "game": "g-other"}), t) == ""
        assert witness(event("result", {**honest, "game": elsewhere}), t) == ""
        assert witness.elsewhere == [elsewhere] and witness.checked == 1

        wrong = [2, 1] if honest["ranks"] == [1, 2] else [1, 2]
        assert witness(event("result", {**honest, "ranks": wrong}), t) == (
            f"game {played}'s log (up to its event {log[-1].seq}) gives places "
            f"{honest['ranks']}, the result says {wrong}")
        # Every field that differs is named, one after the other.
        assert witness(event("result", {**honest, "ranks": wrong, "flags": ["bot"]}), t) == (
            f"game {played}'s log (up to its event {log[-1].seq}) gives places "
            f"{honest['ranks']}, the result says {wrong}; flags [], the result says ['bot']")
        head = "ab" * 32
        assert witness(event("result", {**honest, "head": head}), t) == (
            f"game {played}'s log has no event with hash {head[:16]}: the result does not come "
            "from it")
        assert witness(event("result", {**honest, "head": log[2].hash}), t) == (
            f"game {played}: the game had not ended at its event {log[2].seq}, yet the "
            "tournament logged a result")
        assert witness.checked == 4  # a result whose head is not in the log is not counted
        # A director's event other than an adjudication is not the game's to check.
        assert witness(event("director", {"action": "annul", "game": played}), t) == ""
        assert witness(event("director", {"action": "adjudicate", "game": played,
                                          "ranks": honest["ranks"]}), t) == (
            f"game {played}'s log holds no adjudication")
        assert witness.checked == 4


def test_a_witness_checks_an_adjudication_against_the_one_in_its_game(app):
    svc = svc_of(app)
    judged = new_game(app)
    simulate_one_move(app, judged)
    ann = directing_games.Director("Ann")
    svc.write(lambda s: directing_games.adjudicate(s, svc.ctx, judged, ann, "agreed", [2, 1],
                                                   [10, 25]))
    t = SimpleNamespace(by_game={judged: None})
    with svc.db.read() as s:
        _, log, _ = game_log(app, judged)
        (ruled,) = [e for e in log if e.kind == "adjudicate"]
        scores = ruled.payload.get("scores")
        assert scores is not None
        witness = Witness(s)
        said = {"action": "adjudicate", "game": judged, "ranks": [2, 1], "scores": scores}
        assert witness(event("director", said), t) == ""
        # The scores are the game's too: none where the game has some is a difference.
        assert witness(event("director", {**said, "scores": None}), t) != ""
        assert witness(event("director", {**said, "ranks": [1, 2]}), t) == (
            f"game {judged} was adjudicated [2, 1] (its event {ruled.seq}), the tournament "
            "says [1, 2]")
        assert witness(event("director", {**said, "scores": [1, 1]}), t) == (
            f"game {judged} was adjudicated [2, 1] (its event {ruled.seq}), the tournament "
            "says [2, 1]")
        assert witness.checked == 0  # an adjudication is not a result recounted


def test_a_witness_names_a_difference_without_its_places_while_the_dice_stream_plays_on(app):
    svc = svc_of(app)
    done, playing = new_game(app, stream="s-shared"), new_game(app, stream="s-shared")
    simulate.play_out(svc, done)
    t = SimpleNamespace(by_game={done: None, playing: None})
    with svc.db.read() as s:
        honest = honest_result(s, done)
        witness = Witness(s)
        assert witness(event("result", honest), t) == ""
        wrong = [2, 1] if honest["ranks"] == [1, 2] else [1, 2]
        assert witness(event("result", {**honest, "ranks": wrong}), t) == (
            f"game {done}'s result differs from its log (the details stay with its players "
            "until every table of its dice stream has ended)")
    simulate.play_out(svc, playing)
    with svc.db.read() as s:
        assert Witness(s)(event("result", {**honest, "ranks": wrong}), t).startswith(
            f"game {done}'s log (up to its event ")


def test_a_witness_names_a_game_whose_own_log_fails_its_check(app):
    svc = svc_of(app)
    edited, cut = new_game(app, "martian-frisby"), new_game(app, "martian-frisby")
    for public_id in (edited, cut):
        simulate.play_out(svc, public_id)
    t = SimpleNamespace(by_game={edited: None, cut: None})
    with svc.db.read() as s:
        results = {g: honest_result(s, g) for g in (edited, cut)}
    _, log, _ = game_log(app, edited)
    move = next(e for e in log if e.kind == "move")
    with svc.db.write() as s:  # a move changed after the game, and a head moved back
        ids = {g: s.scalars(select(Game.id).where(Game.public_id == g)).one() for g in t.by_game}
        s.execute(update(GameEvent).where(GameEvent.game_id == ids[edited],
                                          GameEvent.seq == move.seq)
                  .values(payload=canonical_json({**move.payload, "action": "forged"})))
        s.execute(update(Game).where(Game.id == ids[cut]).values(head_seq=2))
    with svc.db.read() as s:
        witness = Witness(s)
        assert witness(event("result", results[edited]), t).startswith(
            f"game {edited}'s own log fails its check at its event {move.seq} (move): ")
        assert witness(event("result", results[cut]), t).startswith(
            f"game {cut}'s own log fails its check at its event ")
        assert witness.checked == 0
