"""When the server cannot carry an event on (pair, start games, close), what a person did
before it stands (a game's last move, a withdrawal), nothing of the failed tick is written,
the directors are told once, and the dashboard says so until the server carries on."""

from __future__ import annotations

import logging

from sqlalchemy import func, select

from pbem import clock
from pbem.errors import Rejected
from pbem.models import Game
from pbem.tournaments import directing, service, simulate
from pbem.tournaments.log import load as load_tournament

from ..pipe import outbox, sign_in, svc_of
from .test_service import held_now, kinds_now, new_event, started

PROBLEM = "nobody can be paired: every pair has met"


def break_pairing(monkeypatch, error=None):
    def broken(*_, **__):
        raise error or Rejected(PROBLEM)

    monkeypatch.setattr(service, "pair", broken)


def tick(app):
    svc = svc_of(app)
    return service.tick_all(svc.write, svc.ctx, clock.utcnow())


def notices(app):
    return [m for m in outbox(app, purpose="notice") if "cannot carry on" in m.subject]


def games_in(app):
    with svc_of(app).db.read() as s:
        return s.scalar(select(func.count()).select_from(Game))


def round_one_played(app, monkeypatch, **broken):
    """An event of two rounds whose round 1 is over while pairing is broken."""
    public_id, ids = new_event(app, rounds=2)
    games = [t.game for t in started(app, public_id).state.tables]
    break_pairing(monkeypatch, **broken)
    for game in games:
        simulate.play_out(svc_of(app), game)  # the last move of the round is not refused
    return public_id, ids, games


def test_a_pairing_that_fails_at_a_games_end_keeps_the_last_move_and_its_result(app, monkeypatch):
    public_id, _, games = round_one_played(app, monkeypatch)

    after = held_now(app, public_id)
    assert all(after.state.by_game[g].result is not None for g in games)
    assert kinds_now(app, public_id).count("pair") == 1  # round 2 waits
    assert after.row.problem == PROBLEM and after.row.problem_at is not None
    (mail,) = notices(app)
    assert mail.to_addr == "director@example.org"
    assert mail.subject == "[Test cup] the server cannot carry on"
    assert PROBLEM in mail.body_text and "every result so far is recorded" in mail.body_text


def test_the_problem_is_told_once_shown_to_the_director_and_cleared_when_the_event_goes_on(
        app, client, monkeypatch):
    public_id, _, _ = round_one_played(app, monkeypatch)

    for _ in range(3):  # each tick meets the problem again: it is reported, not mailed again
        assert tick(app) == [f"tournament {public_id}: {PROBLEM}"]
    assert len(notices(app)) == 1
    sign_in(app, client, "director@example.org")
    page = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    assert "the server cannot carry the event on" in page and PROBLEM in page

    monkeypatch.undo()
    assert tick(app) == []

    after = held_now(app, public_id)
    assert after.row.problem is None and after.row.problem_at is None
    assert after.state.last_round() == 2
    page = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    assert "cannot carry the event on" not in page
    assert len(notices(app)) == 1


def test_nothing_of_a_tick_that_fails_half_way_is_written(app, monkeypatch):
    """The games of the new round are started, then logging the pairing fails: the games,
    their invitations and the pairing all go."""
    public_id, _ = new_event(app, rounds=2)
    games = [t.game for t in started(app, public_id).state.tables]
    record = service.record

    def refuse_pairs(session, held, kind, payload):
        if kind == "pair":
            raise Rejected(PROBLEM)
        return record(session, held, kind, payload)

    monkeypatch.setattr(service, "record", refuse_pairs)
    before, invitations = games_in(app), len(outbox(app, purpose="invite"))
    for game in games:
        simulate.play_out(svc_of(app), game)

    assert games_in(app) == before
    assert len(outbox(app, purpose="invite")) == invitations
    assert held_now(app, public_id).row.problem == PROBLEM
    monkeypatch.undo()
    assert tick(app) == []
    assert games_in(app) == before + len(games)  # round 2, paired by the next tick


def test_a_withdrawal_that_ends_the_round_stands_when_the_pairing_after_it_fails(
        app, monkeypatch):
    public_id, _ = new_event(app, rounds=2)
    last, *others = started(app, public_id).state.tables
    break_pairing(monkeypatch)
    svc = svc_of(app)
    for table in others:
        simulate.play_out(svc, table.game)
    leaving = last.seats[0]

    svc.write(lambda s: directing.withdraw(
        s, svc.ctx, load_tournament(s, public_id, for_update=True), leaving, "moving house"))

    after = held_now(app, public_id)
    assert [e.status for e in after.state.entrants if e.player == leaving] == ["withdrawn"]
    assert after.state.by_game[last.game].result is not None
    assert after.row.problem == PROBLEM


def test_an_error_in_the_server_itself_is_logged_for_the_operator_and_named_to_the_director(
        app, monkeypatch, caplog):
    with caplog.at_level(logging.ERROR, logger="pbem.tournaments.service"):
        public_id, _, games = round_one_played(app, monkeypatch, error=KeyError("table"))

    after = held_now(app, public_id)
    assert all(after.state.by_game[g].result is not None for g in games)
    assert after.row.problem == ("an error in the server itself (the operator's log has the "
                                 "details)")
    assert "KeyError: 'table'" in caplog.text


def test_pairing_by_hand_clears_the_problem(app, monkeypatch):
    public_id, _, _ = round_one_played(app, monkeypatch)
    monkeypatch.undo()
    svc = svc_of(app)

    svc.write(lambda s: directing.pair_now(
        s, svc.ctx, load_tournament(s, public_id, for_update=True), clock.utcnow()))

    assert held_now(app, public_id).row.problem is None
