"""Deadlines: one reminder, then the game's timeout policy as a logged event."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbem import clock
from pbem.log import audit, export
from pbem.log.games import load
from pbem.play import deadlines
from pbem.play.act import submit
from pbem.play.start import player_for

from ..pipe import csrf_in, loaded, log, outbox, sign_in, start, svc_of


def run_tick(app, at: datetime) -> deadlines.Tick:
    svc = svc_of(app)
    with svc.db.read() as s:
        games = deadlines.due_games(s)
    return deadlines.tick(svc.write, svc.ctx, games, at)


def opened(app, public_id) -> datetime:
    return clock.as_utc(loaded(app, public_id).game.await_since)


def test_a_new_decision_starts_its_clock_and_the_turn_mail_names_the_deadline(app):
    public_id = start(app, deadline_hours=10)
    since = opened(app, public_id)
    assert abs(since - datetime.now(UTC)) < timedelta(minutes=1)
    turn = outbox(app, purpose="turn")[-1]
    expected = (since + timedelta(hours=10)).strftime("%H:%M UTC")
    assert expected in turn.body_text and "the house bot plays for you" in turn.body_text


def test_one_reminder_goes_out_halfway_through_a_short_deadline(app):
    public_id = start(app, deadline_hours=10)
    since = opened(app, public_id)
    assert run_tick(app, since + timedelta(hours=4)).reminded == []
    assert run_tick(app, since + timedelta(hours=6)).reminded == [public_id]
    assert run_tick(app, since + timedelta(hours=7)) == deadlines.Tick()
    reminders = outbox(app, purpose="turn")
    assert "A reminder: your move" in reminders[-1].body_text
    assert sum("A reminder" in m.body_text for m in reminders) == 1


def test_at_the_deadline_the_house_bot_plays_and_the_log_says_so(app):
    public_id = start(app, deadline_hours=10)
    game = loaded(app, public_id)
    (seat,) = game.awaited()
    expected = game.rules.bot_action(game.state, seat)
    since = opened(app, public_id)
    report = run_tick(app, since + timedelta(hours=10, seconds=1))
    assert report.timed_out == [public_id]
    timeout = next(e for e in log(app, public_id) if e.kind == "timeout")
    assert timeout.seat == seat
    assert timeout.payload == {"policy": "bot", "action": expected}
    after = loaded(app, public_id)
    # The game went on to a new decision: the next roll is logged after the timeout (the
    # dice may pass the other seat automatically and give the turn straight back).
    assert after.awaited() and log(app, public_id)[-1].kind == "roll"
    assert log(app, public_id)[-1].seq > timeout.seq
    assert opened(app, public_id) > since
    entries = log(app, public_id)
    header = export.header_for(public_id, "martian-frisby", 1, public_id)
    assert audit.verify(header, entries).ok


def test_with_the_forfeit_policy_a_missed_deadline_loses_the_game(app):
    public_id = start(app, deadline_hours=1, timeout_policy="forfeit")
    (seat,) = loaded(app, public_id).awaited()
    run_tick(app, opened(app, public_id) + timedelta(hours=2))
    game = loaded(app, public_id)
    assert game.game.status == "finished"
    outcome = game.rules.outcome(game.state)
    assert outcome.ranks[seat] == 2 and outcome.ranks[1 - seat] == 1
    (timeout,) = [e for e in log(app, public_id) if e.kind == "timeout"]
    assert (timeout.seat, timeout.payload) == (seat, {"policy": "forfeit", "action": None})
    assert log(app, public_id)[-1].kind == "reveal"


def open_since(app, public_id, moment: datetime) -> None:
    """Pretend the open decision was opened at that moment."""
    svc = svc_of(app)

    def backdate(s):
        load(s, public_id).game.await_since = moment

    svc.write(backdate)


def test_a_move_in_time_restarts_the_clock_for_the_next_player(app):
    public_id = start(app, deadline_hours=10)
    first = opened(app, public_id) - timedelta(hours=8)
    open_since(app, public_id, first)  # the first player took eight of their ten hours
    svc = svc_of(app)
    game = loaded(app, public_id)
    (seat,) = game.awaited()
    grant = game.grant(seat)
    svc.write(lambda s: submit(s, svc.ctx, grant, game.rules.legal(game.state, seat)[0]))
    second = opened(app, public_id)
    assert second >= first + timedelta(hours=8)

    assert run_tick(app, first + timedelta(hours=10, minutes=1)).timed_out == []
    assert run_tick(app, second + timedelta(hours=10, seconds=1)).timed_out == [public_id]


def test_pbem_tick_reports_what_it_did(app, runner):
    start(app)
    result = runner.invoke(args=["tick"])
    assert result.exit_code == 0, result.output
    assert "1 games with a decision open: 0 reminded, 0 timed out; 0 digests" in result.output


def test_time_away_pauses_the_deadline_of_a_decision_owed(app, client):
    public_id = start(app, deadline_hours=48)
    game = loaded(app, public_id)
    (seat,) = game.awaited()
    email = game.player(seat).email
    sign_in(app, client, email)
    today = datetime.now(UTC).date()
    page = client.get("/me").get_data(as_text=True)
    response = client.post(
        "/me",
        data={
            "csrf": csrf_in(page),
            "what": "away",
            "away_from": today.isoformat(),
            "away_until": (today + timedelta(days=6)).isoformat(),
        },
    )
    assert response.status_code == 303
    since = opened(app, public_id)
    # Two days would have been the deadline; seven days away (less what passed) push it on.
    assert run_tick(app, since + timedelta(hours=49)).timed_out == []
    assert run_tick(app, since + timedelta(days=10)).timed_out == [public_id]


def test_a_vacation_must_be_real_dates_in_order_and_not_too_long(app, client):
    sign_in(app, client, "ann@example.org")
    today = datetime.now(UTC).date()
    cases = [
        ("tomorrow", "next week", "YYYY-MM-DD"),
        ((today + timedelta(days=3)).isoformat(), today.isoformat(), "must not be before"),
        (today.isoformat(), (today + timedelta(days=40)).isoformat(), "at most 30 days"),
        ("2001-01-01", "2001-01-02", "over already"),
    ]
    for first, last, message in cases:
        page = client.get("/me").get_data(as_text=True)
        data = {"csrf": csrf_in(page), "what": "away", "away_from": first, "away_until": last}
        response = client.post("/me", data=data)
        assert response.status_code == 422
        assert message in response.get_data(as_text=True)


def test_opponents_see_who_is_away_and_until_when(app, client):
    public_id = start(app)
    svc = svc_of(app)
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)

    def go_away(s):
        player = player_for(s, "bob@example.org")
        player.away_from, player.away_until = today, today + timedelta(days=4)

    svc.write(go_away)
    page = client.get(f"/games/{public_id}").get_data(as_text=True)
    assert f"away until {today + timedelta(days=3):%d %b}" in page


def test_the_reminder_of_a_72_hour_deadline_goes_out_a_day_before_it(app):
    public_id = start(app)
    assert loaded(app, public_id).game.deadline_hours == 72
    since = opened(app, public_id)

    assert run_tick(app, since + timedelta(hours=47, minutes=59)).reminded == []
    assert run_tick(app, since + timedelta(hours=48)).reminded == [public_id]
    reminder = outbox(app, purpose="turn")[-1]
    assert "A reminder: your move" in reminder.body_text
    assert (since + timedelta(hours=72)).strftime("%H:%M UTC") in reminder.body_text


def away(app, email: str, first: datetime, until: datetime) -> None:
    """Set a player's time away directly (the settings page refuses dates in the past)."""

    def set_dates(s):
        player = player_for(s, email)
        player.away_from, player.away_until = first, until

    svc_of(app).write(set_dates)


def awaited_email(app, public_id) -> str:
    game = loaded(app, public_id)
    (seat,) = game.awaited()
    return game.player(seat).email


@pytest.mark.parametrize(
    "first, until, paused",
    [
        (timedelta(days=-5), timedelta(days=1), timedelta(days=1)),
        (timedelta(hours=10), timedelta(hours=34), timedelta(hours=24)),
        (timedelta(days=-5), timedelta(days=-1), timedelta(0)),
    ],
    ids=["under way: counted from the decision", "in the future: all of it", "over already"],
)
def test_time_away_pauses_a_deadline_for_the_part_after_the_decision_opened(
    app, first, until, paused
):
    public_id = start(app, deadline_hours=48)
    since = opened(app, public_id)
    away(app, awaited_email(app, public_id), since + first, since + until)
    deadline = since + timedelta(hours=48) + paused

    assert run_tick(app, deadline - timedelta(minutes=1)).timed_out == []
    assert run_tick(app, deadline + timedelta(seconds=1)).timed_out == [public_id]


def test_a_decision_times_out_at_the_very_moment_of_its_deadline(app):
    public_id = start(app, deadline_hours=10)
    deadline = opened(app, public_id) + timedelta(hours=10)

    assert run_tick(app, deadline - timedelta(microseconds=1)).timed_out == []
    assert run_tick(app, deadline).timed_out == [public_id]


def test_a_game_that_cannot_be_checked_is_reported_and_the_others_still_are(app):
    public_id = start(app, deadline_hours=1)
    svc = svc_of(app)
    at = opened(app, public_id) + timedelta(hours=2)

    report = deadlines.tick(svc.write, svc.ctx, ["nosuchgame", public_id], at)

    assert report.errors == ["nosuchgame: there is no game 'nosuchgame'"]
    assert report.timed_out == [public_id]
