"""Director actions on a game: logged events with who and why, never edits."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbem import clock
from pbem.errors import Forbidden, Rejected, StaleTurn
from pbem.log import audit, export
from pbem.play import deadlines
from pbem.play import director as actions
from pbem.play.act import submit

from ..pipe import (
    counts,
    csrf_in,
    game_row,
    grant,
    legal,
    loaded,
    log,
    outbox,
    play_until_over,
    sign_in,
    start,
    svc_of,
    token,
)

ANN = actions.Director("Ann", None)


def direct(app, work):
    svc = svc_of(app)
    return svc.write(lambda s: work(s, svc.ctx))


def test_an_adjudication_ends_the_game_with_the_places_set_and_tells_everyone(app):
    public_id = start(app)
    direct(app, lambda s, c: actions.adjudicate(s, c, public_id, ANN, "agreed draw", [1, 1]))

    game = loaded(app, public_id)
    entry = next(e for e in log(app, public_id) if e.kind == "adjudicate")
    assert entry.payload == {"by": "Ann", "by_player": None, "reason": "agreed draw",
                             "ranks": [1, 1], "scores": None}
    assert game.game.status == "finished" and game.awaited() == ()
    assert game.outcome is not None and game.outcome.ranks == (1, 1)
    assert "adjudicated by Ann: agreed draw" in game.outcome.reason
    results = outbox(app, purpose="result")
    assert {m.to_addr for m in results} == {"ann@example.org", "bob@example.org"}
    assert "adjudicated by Ann: agreed draw" in results[0].body_text
    assert log(app, public_id)[-1].kind == "reveal"


def test_an_adjudicated_game_verifies_and_its_history_says_who_and_why(app, client):
    public_id = start(app)
    direct(app, lambda s, c: actions.adjudicate(s, c, public_id, ANN, "Bob left", [1, 2]))
    game = game_row(app, public_id)
    header = export.header_for(public_id, game.kind, 1, game.stream)

    report = audit.verify(header, log(app, public_id), (game.head_seq, game.head_hash))
    page = client.get(f"/games/{public_id}/history").get_data(as_text=True)

    assert report.ok and report.complete
    assert "Adjudicated: South 1st, North 2nd (Ann: Bob left)" in page


@pytest.mark.parametrize(
    ("ranks", "named"),
    [([1], "one rank per seat: 2 ranks, not 1"),
     ([1, 3], "ranks 1, 3: a game of 2 seats has places 1 to 2, not 3"),
     ([2, 2], "ranks 2, 2 do not describe places: a seat ranked 2 must have exactly 1 seat "
              "ranked better")],
)
def test_impossible_places_are_refused_and_nothing_is_written(app, ranks, named):
    public_id = start(app)
    before = counts(app)

    with pytest.raises(Rejected, match=named):
        direct(app, lambda s, c: actions.adjudicate(s, c, public_id, ANN, "x", ranks))

    assert counts(app) == before


def test_a_director_action_without_a_reason_is_refused(app):
    public_id = start(app)
    with pytest.raises(Rejected, match="say why"):
        direct(app, lambda s, c: actions.abort(s, c, public_id, ANN, "   "))
    assert game_row(app, public_id).status == "active"


def test_an_aborted_game_has_no_result_and_its_links_stop_acting(app, client):
    public_id = start(app)
    old = grant(app, public_id)
    direct(app, lambda s, c: actions.abort(s, c, public_id, ANN, "set up by mistake"))

    game = loaded(app, public_id)
    assert game.game.status == "aborted" and game.outcome is None
    page = client.get(f"/games/{public_id}").get_data(as_text=True)
    assert "the game was aborted by Ann: set up by mistake" in page
    svc = svc_of(app)
    with pytest.raises(StaleTurn, match="game is over"):
        svc.write(lambda s: submit(s, svc.ctx, old, legal(app, public_id, old.seat)[0]))
    with pytest.raises(StaleTurn, match="over already"):
        direct(app, lambda s, c: actions.abort(s, c, public_id, ANN, "twice"))


def test_a_game_over_by_its_rules_cannot_be_aborted_after_its_last_move(app):
    # So no game is both aborted and has an outcome: ratings read either one the same way.
    public_id = start(app, options={"max_turns": 4})
    play_until_over(app, public_id, lambda game, seat: game.rules.legal(game.state, seat)[0])
    outcome = loaded(app, public_id).outcome

    with pytest.raises(StaleTurn, match="over already"):
        direct(app, lambda s, c: actions.abort(s, c, public_id, ANN, "too late"))
    game = loaded(app, public_id)
    assert (game.game.status, game.ruling, game.outcome) == ("finished", None, outcome)
    assert outcome is not None


def test_an_extension_moves_the_deadline_and_the_reminder_comes_again(app):
    public_id = start(app, deadline_hours=10)
    since = clock.as_utc(game_row(app, public_id).await_since)
    svc = svc_of(app)

    def tick(hours: float):
        with svc.db.read() as s:
            games = deadlines.due_games(s)
        return deadlines.tick(svc.write, svc.ctx, games, since + timedelta(hours=hours))

    assert tick(6).reminded == [public_id]
    direct(app, lambda s, c: actions.extend(s, c, public_id, ANN, "travelling", 24))

    assert tick(11).timed_out == []
    assert tick(30).reminded == [public_id]
    assert tick(34.5).timed_out == [public_id]
    assert next(e for e in log(app, public_id) if e.kind == "extend").payload["hours"] == 24


def test_a_replaced_player_gets_no_more_say_and_the_new_one_is_mailed(app, client):
    public_id = start(app)
    seat = loaded(app, public_id).awaited()[0]
    old_token = token(app, public_id, seat)
    old = grant(app, public_id, seat)
    direct(app, lambda s, c: actions.replace(s, c, public_id, ANN, "moved away", seat,
                                             "cy@example.org", "Cy"))

    game = loaded(app, public_id)
    assert game.player(seat).email == "cy@example.org"
    svc = svc_of(app)
    with pytest.raises(Forbidden, match="handed this seat to another player"):
        svc.write(lambda s: submit(s, svc.ctx, old, legal(app, public_id, seat)[0]))
    assert client.get(f"/play/{old_token}").status_code == 403
    mails = outbox(app, to_addr="cy@example.org")
    assert [m.purpose for m in mails] == ["invite", "turn"]
    fresh = grant(app, public_id, seat)
    svc.write(lambda s: submit(s, svc.ctx, fresh, legal(app, public_id, seat)[0]))


def test_a_seat_cannot_go_to_someone_already_playing(app):
    public_id = start(app)
    with pytest.raises(Rejected, match="already plays"):
        direct(app, lambda s, c: actions.replace(s, c, public_id, ANN, "x", 0, "bob@example.org"))


def test_the_end_hooks_run_once_in_the_transaction_of_the_last_event(app):
    public_id = start(app)
    seen = []
    svc = svc_of(app)
    hooked = svc.ctx.__class__(**{**vars(svc.ctx), "on_game_end": (
        lambda s, c, g: seen.append((g.game.public_id, g.game.status, g.game.head_seq)),
    )})
    svc.write(lambda s: actions.abort(s, hooked, public_id, ANN, "testing hooks"))

    assert seen == [(public_id, "aborted", game_row(app, public_id).head_seq)]


def created_by_ann(app, client) -> str:
    """A game Ann started from the new-game form, signed in on this client."""
    sign_in(app, client, "ann@example.org")
    created = client.post("/games/new", data={
        "kind": "martian-frisby", "email0": "ann@example.org", "email1": "bob@example.org",
        "csrf": csrf_in(client.get("/games/new").get_data(as_text=True))})
    return created.headers["Location"].rsplit("/", 1)[-1]


def test_only_the_creator_sees_and_uses_the_director_page(app, client):
    public_id = created_by_ann(app, client)
    assert "Director" in client.get(f"/games/{public_id}").get_data(as_text=True)
    page = client.get(f"/games/{public_id}/director").get_data(as_text=True)

    done = client.post(f"/games/{public_id}/director", data={
        "action": "abort", "reason": "wrong opponent", "csrf": csrf_in(page)})

    assert done.status_code == 303
    assert game_row(app, public_id).status == "aborted"
    other = app.test_client()
    sign_in(app, other, "bob@example.org")
    assert other.get(f"/games/{public_id}/director").status_code == 403


def test_the_director_page_keeps_the_form_and_names_a_bad_input(app, client):
    public_id = created_by_ann(app, client)
    page = client.get(f"/games/{public_id}/director").get_data(as_text=True)

    refused = client.post(f"/games/{public_id}/director", data={
        "action": "adjudicate", "ranks": "1, 3", "reason": "x", "csrf": csrf_in(page)})

    assert refused.status_code == 422
    assert "a game of 2 seats has places 1 to 2, not 3" in refused.get_data(as_text=True)
    assert game_row(app, public_id).status == "active"


def test_the_operator_directs_any_game_from_the_command_line(app, runner):
    public_id = start(app)
    extended = runner.invoke(args=["director", "extend", public_id, "--hours", "12",
                                   "--reason", "holiday"])
    bad = runner.invoke(args=["director", "adjudicate", public_id, "--ranks", "1,x",
                              "--reason", "r"])
    done = runner.invoke(args=["director", "adjudicate", public_id, "--ranks", "2,1",
                               "--reason", "South resigned by mail"])

    assert extended.exit_code == 0, extended.output
    assert bad.exit_code != 0 and "each rank must be a whole number from 1 to 8" in bad.output
    assert done.exit_code == 0, done.output
    assert "adjudicated by the operator: South resigned by mail" in done.output
    assert loaded(app, public_id).outcome.ranks == (2, 1)
