"""Entry rules a director sets: notes, a player limit, an entry deadline and a scheduled
start, private events, rating bounds and rated games; on the form, the CLI and the API."""

from __future__ import annotations

import html
import time
from datetime import UTC, datetime, timedelta

from pbem.tournaments.log import load

from ..pipe import csrf_in, link_in, outbox, path_of, sign_in, svc_of
from .test_api import api_token_for, bearer


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def run(runner, *args):
    return runner.invoke(args=list(args))


def later(**delta) -> str:
    return (datetime.now(UTC) + timedelta(**delta)).strftime("%Y-%m-%dT%H:%M:%S")


def form_event(client, **fields) -> tuple[int, str]:
    page = client.get("/tournaments/new").get_data(as_text=True)
    data = {"name": "Winter cup", "system": "swiss", "kind": "martian-frisby", "rounds": "2",
            "deadline_hours": "48", "timeout_policy": "forfeit", "rated": "on",
            "csrf": csrf_in(page), **fields}
    made = client.post("/tournaments/new", data=data)
    return made.status_code, (made.headers.get("Location", "").rsplit("/", 1)[-1]
                              or made.get_data(as_text=True))


def enter_signed_in(app, email: str, public_id: str):
    client = app.test_client()
    sign_in(app, client, email)
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    return client.post(f"/tournaments/{public_id}/register", data={"csrf": csrf_in(home)})


def test_the_form_sets_notes_a_player_limit_and_an_entry_deadline(app, client):
    sign_in(app, client, "dee@example.org")
    status, public_id = form_event(
        client, description="Bring snacks.\n\nRound 1 starts Monday.", max_players="2",
        registration_closes=later(days=2))
    for email in ("ann@example.org", "bob@example.org"):
        assert enter_signed_in(app, email, public_id).status_code == 303
    full = enter_signed_in(app, "cy@example.org", public_id)
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    shown = client.get(f"/api/tournaments/{public_id}").get_json()

    assert status == 303
    assert "<p class=\"description\">Bring snacks.</p>" in home
    assert "<p class=\"description\">Round 1 starts Monday.</p>" in home
    assert "Entry: 2 players at most." in home and "Entries close on " in home
    assert full.status_code == 422
    assert "cannot enter Winter cup: the event is full: it takes at most 2 players" \
        in text(full)
    assert shown["description"] == "Bring snacks.\n\nRound 1 starts Monday."
    assert "Entry: 2 players at most." in shown["entries"]


def test_the_form_refuses_rules_beyond_the_limits_with_the_reason(app, client):
    sign_in(app, client, "dee@example.org")
    few, few_page = form_event(client, max_players="1")
    bounds, bounds_page = form_event(client, rating_min="1800", rating_max="1500")
    past, past_page = form_event(client, starts_at="2020-01-01T10:00")

    assert few == 422 and "the player limit must be a whole number from 2 to 512" in few_page
    assert bounds == 422 and "rating_min 1800 is above rating_max 1500" in bounds_page
    assert past == 422 and "the start, Wednesday 1 January 2020, 10:00 UTC, is already past" \
        in past_page


def test_a_private_event_takes_only_the_directors_invitations(app, client, runner):
    made = run(runner, "tournament", "create", "Club night", "--system", "swiss", "--kind",
               "martian-frisby", "--rounds", "1", "--private",
               "--director", "Dee Director <dee@example.org>")
    public_id = made.output.split()[0]
    uninvited = enter_signed_in(app, "eve@example.org", public_id)
    asked = client.post(f"/tournaments/{public_id}/register", data={
        "email": "eve@example.org",
        "csrf": csrf_in(client.get(f"/tournaments/{public_id}").get_data(as_text=True))})
    run(runner, "tournament", "register", public_id, "Ann Archer <ann@example.org>", "--mail")
    path = path_of(link_in(outbox(app, purpose="register", to_addr="ann@example.org")[-1]
                           .body_text, "tournaments/register"))
    confirm = client.get(path).get_data(as_text=True)
    invited = client.post(path, data={"csrf": csrf_in(confirm)})
    home = text(client.get(f"/tournaments/{public_id}"))

    assert uninvited.status_code == 422
    assert "Club night: entry is by the director's invitation only" \
        in text(uninvited)
    assert asked.status_code == 422
    assert outbox(app, purpose="register", to_addr="eve@example.org") == []
    assert invited.status_code == 303
    assert "Entry: by the director's invitation only." in home and "Ann Archer" in home


def test_rating_bounds_and_rated_games_are_asked_of_each_entrant(app, client):
    token = api_token_for(app, "dee@example.org")
    made = client.post("/api/tournaments", headers=bearer(token), json={
        "name": "Masters", "system": "swiss", "kind": "martian-frisby", "rounds": 3,
        "rating_min": 1200, "min_rated_games": 3})
    public_id = made.get_json()["id"]
    newcomer = api_token_for(app, "new@example.org")
    refused = client.post(f"/api/tournaments/{public_id}/register", headers=bearer(newcomer))
    page = client.get(f"/tournaments/{public_id}").get_data(as_text=True)

    assert made.status_code == 201, made.get_data(as_text=True)
    assert refused.status_code == 422
    assert ("cannot enter Masters: new@example.org has no rating in this game yet, and the "
            "event asks for one") in text(refused)
    assert ("Entry: rated 1200 or more in this game; with 3 rated games of this game played."
            in page)


def test_too_few_rated_games_are_refused_in_words(app, client):
    token = api_token_for(app, "dee@example.org")
    made = client.post("/api/tournaments", headers=bearer(token), json={
        "name": "Regulars", "system": "swiss", "kind": "martian-frisby", "rounds": 3,
        "min_rated_games": 2})
    public_id = made.get_json()["id"]
    refused = client.post(f"/api/tournaments/{public_id}/register",
                          headers=bearer(api_token_for(app, "new@example.org")))

    assert refused.status_code == 422
    assert ("new@example.org has played 0 rated games of this game; the event asks for 2"
            in text(refused))


def test_a_scheduled_event_starts_by_itself_at_the_next_tick(app, client, runner):
    made = run(runner, "tournament", "create", "Dawn open", "--system", "swiss", "--kind",
               "martian-frisby", "--rounds", "1", "--starts-at", later(seconds=2),
               "--director", "dee@example.org")
    public_id = made.output.split()[0]
    run(runner, "tournament", "register", public_id, "Ann <ann@example.org>",
        "Bob <bob@example.org>")
    waiting = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    early = run(runner, "tick")
    time.sleep(2.2)
    ticked = run(runner, "tick")
    listed = run(runner, "tournament", "list")
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)

    assert made.exit_code == 0, made.output
    assert "Starts by itself on " in waiting and "once 2 players have entered." in waiting
    assert early.exit_code == 0 and ticked.exit_code == 0, ticked.output
    assert f"{public_id}  running" in listed.output
    assert "<strong>Running.</strong>" in home
    assert len(outbox(app, purpose="invite")) == 2
    with svc_of(app).db.read() as s:
        assert load(s, public_id).state.started
