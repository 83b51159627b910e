"""Deadlines: one reminder, then the game's timeout policy as a logged event."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pbem import audit, clock, deadlines, play

from .pipe import csrf_in, loaded, log, outbox, sign_in, start, svc_of


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
    assert run_tick(app, since + timedelta(hours=7)).reminded == []
    reminders = outbox(app, purpose="turn")
    assert "reminder: your move" in reminders[-1].subject
    assert sum("reminder" in m.subject for m in reminders) == 1


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
    header = audit.header_for(public_id, "martian-frisby", 1, public_id)
    assert audit.verify(header, entries).ok


def test_with_the_forfeit_policy_a_missed_deadline_loses_the_game(app):
    public_id = start(app, deadline_hours=1, timeout_policy="forfeit")
    (seat,) = loaded(app, public_id).awaited()
    run_tick(app, opened(app, public_id) + timedelta(hours=2))
    game = loaded(app, public_id)
    assert game.game.status == "finished"
    outcome = game.rules.outcome(game.state)
    assert outcome.ranks[seat] == 2 and outcome.ranks[1 - seat] == 1
    assert log(app, public_id)[-1].kind == "reveal"


def test_a_move_in_time_restarts_the_clock_for_the_next_player(app):
    public_id = start(app, deadline_hours=10)
    first = opened(app, public_id)
    svc = svc_of(app)
    game = loaded(app, public_id)
    (seat,) = game.awaited()
    grant = play.grant_for(game, seat)
    svc.write(lambda s: play.submit(s, svc.ctx, grant, game.rules.legal(game.state, seat)[0]))
    assert opened(app, public_id) >= first
    assert run_tick(app, first + timedelta(hours=9)).timed_out == []


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
        player = play.player_for(s, "bob@example.org")
        player.away_from, player.away_until = today, today + timedelta(days=4)

    svc.write(go_away)
    page = client.get(f"/games/{public_id}").get_data(as_text=True)
    assert f"away until {today + timedelta(days=3):%d %b}" in page
