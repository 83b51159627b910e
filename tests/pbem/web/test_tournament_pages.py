"""Tournament pages and API: create, register by mailed link, direct, standings, exports."""

from __future__ import annotations

import csv
import io

from pbem.models import TournamentEvent
from pbem.tournaments import simulate

from ..pipe import csrf_in, link_in, outbox, path_of, sign_in, svc_of


def create_by_form(client, **fields) -> str:
    page = client.get("/tournaments/new").get_data(as_text=True)
    data = {"name": "Winter cup", "system": "swiss", "kind": "martian-frisby", "rounds": "2",
            "deadline_hours": "48", "timeout_policy": "forfeit", "rated": "on",
            "csrf": csrf_in(page), **fields}
    made = client.post("/tournaments/new", data=data)
    assert made.status_code == 303, made.get_data(as_text=True)
    return made.headers["Location"].rsplit("/", 1)[-1]


def register_by_mail(app, client, public_id: str, email: str, name: str | None = None) -> None:
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    asked = client.post(f"/tournaments/{public_id}/register",
                        data={"email": email, "csrf": csrf_in(home)})
    assert asked.status_code == 303
    mail = outbox(app, purpose="register", to_addr=email)[-1]
    path = path_of(link_in(mail.body_text, "tournaments/register"))
    confirm = client.get(path)
    assert confirm.status_code == 200 and email in confirm.get_data(as_text=True)
    done = client.post(path, data={"csrf": csrf_in(confirm.get_data(as_text=True)),
                                   "name": name or email.split("@")[0].title()})
    assert done.status_code == 303


def test_a_director_creates_an_event_and_players_enter_from_the_mailed_link(app, client):
    sign_in(app, client, "dee@example.org")
    public_id = create_by_form(client)
    visitor = app.test_client()
    for email in ("ann@example.org", "bob@example.org"):
        register_by_mail(app, visitor, public_id, email)

    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    assert "Open for registration" in home and "Entrants (2)" in home
    assert "Swiss of Martian Frisby" in home and "2 rounds" in home


def test_opening_the_registration_link_changes_nothing_until_the_button(app, client):
    sign_in(app, client, "dee@example.org")
    public_id = create_by_form(client)
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    client.post(f"/tournaments/{public_id}/register",
                data={"email": "cy@example.org", "csrf": csrf_in(home)})
    link = link_in(outbox(app, purpose="register")[-1].body_text, "tournaments/register")
    with svc_of(app).db.read() as s:
        before = s.query(TournamentEvent).count()

    assert client.get(path_of(link)).status_code == 200
    assert client.head(path_of(link)).status_code == 200
    with svc_of(app).db.read() as s:
        assert s.query(TournamentEvent).count() == before


def test_a_forged_registration_link_is_refused(app, client):
    assert client.get("/tournaments/register/not-a-real-token").status_code == 400


def test_registering_twice_is_refused_with_a_reason(app, client):
    sign_in(app, client, "dee@example.org")
    public_id = create_by_form(client)
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    assert client.post(f"/tournaments/{public_id}/register",
                       data={"csrf": csrf_in(home)}).status_code == 303
    again = client.post(f"/tournaments/{public_id}/register", data={"csrf": csrf_in(home)})
    assert again.status_code == 422
    assert "already registered" in again.get_data(as_text=True)


def test_a_bad_format_comes_back_with_the_form_and_the_reason(app, client):
    sign_in(app, client, "dee@example.org")
    page = client.get("/tournaments/new").get_data(as_text=True)
    refused = client.post("/tournaments/new", data={
        "name": "Bad", "system": "swiss", "kind": "martian-frisby", "table_sizes": "4",
        "rounds": "2", "csrf": csrf_in(page)})
    body = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert "do not fit" in body and 'value="Bad"' in body


def test_only_the_director_opens_the_director_page_and_starts_the_event(app, client):
    sign_in(app, client, "dee@example.org")
    public_id = create_by_form(client)
    for email in ("ann@example.org", "bob@example.org", "cy@example.org", "di@example.org"):
        register_by_mail(app, app.test_client(), public_id, email)
    other = app.test_client()
    sign_in(app, other, "ann@example.org")
    assert other.get(f"/tournaments/{public_id}/director").status_code == 403

    page = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    started = client.post(f"/tournaments/{public_id}/director",
                          data={"action": "start", "csrf": csrf_in(page)})
    again = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    early = client.post(f"/tournaments/{public_id}/director",
                        data={"action": "pair", "csrf": csrf_in(again)})

    assert started.status_code == 303
    assert "round 1 is still open: 2 games are unfinished" in again
    assert early.status_code == 422
    assert len(outbox(app, purpose="invite")) == 4


def test_standings_crosstable_games_and_exports_show_a_finished_event(app, client):
    report = simulate.run(svc_of(app), "swiss", "martian-frisby", 4, None, 8, {"rounds": 2})
    base = f"/tournaments/{report.public_id}"

    standings = client.get(f"{base}/standings").get_data(as_text=True)
    crosstable = client.get(f"{base}/crosstable").get_data(as_text=True)
    games = client.get(f"{base}/games").get_data(as_text=True)
    table = list(csv.reader(io.StringIO(client.get(f"{base}/standings.csv")
                                        .get_data(as_text=True))))
    results = client.get(f"/api/tournaments/{report.public_id}/results").get_json()
    ics = client.get(f"{base}/deadlines.ics")

    assert "Order: points, then Sonneborn-Berger" in standings
    assert "Sonneborn-Berger =" in standings  # each player's arithmetic
    assert crosstable.count("<tr>") == 5
    assert games.count("over") >= 4
    assert table[0][:5] == ["place", "player", "name", "status", "points"] and len(table) == 5
    assert results["format"] == "pbem-tournament-results" and len(results["games"]) == 4
    assert ics.mimetype == "text/calendar" and "BEGIN:VCALENDAR" in ics.get_data(as_text=True)


def test_the_api_lists_events_and_refuses_to_create_without_a_token(app, client):
    simulate.run(svc_of(app), "round-robin", "martian-frisby", 3, None, 9, {})
    listed = client.get("/api/tournaments").get_json()
    refused = client.post("/api/tournaments", json={"name": "x"})

    assert listed[0]["status"] == "closed" and listed[0]["games"] == 3
    assert refused.status_code == 403 and refused.get_json()["error"] == "forbidden"
