"""When the server cannot carry an event on (pair, start games, close), a game's last move and
its result still stand, the directors are told once, and the dashboard says so until the
server carries on."""

from __future__ import annotations

from sqlalchemy import func, select

from pbem import clock
from pbem.errors import Rejected
from pbem.models import Outbox
from pbem.tournaments import service, simulate

from ..pipe import outbox, sign_in, svc_of
from .test_service import held_now, kinds_now, new_event, started

PROBLEM = "nobody can be paired: every pair has met"


def break_pairing(monkeypatch):
    def broken(*_, **__):
        raise Rejected(PROBLEM)

    monkeypatch.setattr(service, "pair", broken)


def tick(app):
    svc = svc_of(app)
    return service.tick_all(svc.write, svc.ctx, clock.utcnow())


def notices(app):
    return [m for m in outbox(app, purpose="notice") if "cannot carry on" in m.subject]


def test_a_pairing_that_fails_at_a_games_end_keeps_the_last_move_and_its_result(app, monkeypatch):
    public_id, _ = new_event(app, rounds=2)
    games = [t.game for t in started(app, public_id).state.tables]
    break_pairing(monkeypatch)

    for game in games:
        simulate.play_out(svc_of(app), game)  # the last move of the round is not refused

    after = held_now(app, public_id)
    assert all(after.state.by_game[g].result is not None for g in games)
    assert kinds_now(app, public_id).count("pair") == 1  # round 2 waits
    assert after.row.problem == PROBLEM and after.row.problem_at is not None
    (mail,) = notices(app)
    assert mail.to_addr == "director@example.org"
    assert "[Test cup] the server cannot carry on" == mail.subject
    assert PROBLEM in mail.body_text and "every result so far is recorded" in mail.body_text


def test_the_problem_is_told_once_shown_to_the_director_and_cleared_when_the_event_goes_on(
        app, client, monkeypatch):
    public_id, _ = new_event(app, rounds=2)
    games = [t.game for t in started(app, public_id).state.tables]
    break_pairing(monkeypatch)
    for game in games:
        simulate.play_out(svc_of(app), game)

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
    with svc_of(app).db.read() as s:  # nothing of the failed ticks was written
        assert s.scalar(select(func.count()).select_from(Outbox)
                        .where(Outbox.subject.like("%cannot carry on%"))) == 1
