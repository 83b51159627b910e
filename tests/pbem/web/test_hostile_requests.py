"""Requests written to hurt: open redirects, absurd numbers and bodies, surprising errors."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.web import api, games
from pbem.web.auth import is_local_path, safe_next

from ..pipe import (
    counts,
    csrf,
    csrf_in,
    game_row,
    link_in,
    outbox,
    path_of,
    sign_in,
    start,
    token,
)
from .test_api import api_token_for, bearer

OTHER_SITES = [
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\/evil.example",
    "/\\/evil.example",
    " //evil.example",
    "https://evil.example/",
    "HTTPS://evil.example",
    "javascript:alert(1)",
    "evil.example",
    "/\x00/evil.example",
    "/\u3000/evil.example",
    "/\x7f/evil.example",
    "",
]
LOCAL = ["/", "/me", "/games/abc123?x=1", "/play/tok#top", "/games/new?kind=mad-dog"]


@pytest.mark.parametrize("target", OTHER_SITES)
def test_only_a_plain_local_path_is_a_place_to_go_next(target):
    assert not is_local_path(target)


@pytest.mark.parametrize("target", LOCAL)
def test_a_plain_local_path_is_a_place_to_go_next(target):
    assert is_local_path(target)


def test_safe_next_sends_anything_else_to_the_lobby(app):
    with app.test_request_context("/"):
        assert [safe_next(t) for t in OTHER_SITES] == ["/"] * len(OTHER_SITES)
        assert [safe_next(t) for t in LOCAL] == LOCAL


def test_signing_in_with_a_tab_before_the_other_site_lands_in_the_lobby(app, client):
    page = client.get("/signin?next=/%09/evil.example").get_data(as_text=True)
    assert 'name="next" value="/"' in page
    client.post(
        "/signin",
        data={"email": "ann@example.org", "csrf": csrf(client), "next": "/\t/evil.example"},
    )
    path = path_of(link_in(outbox(app, purpose="signin")[-1].body_text, "signin"))
    button = client.get(path + "?next=/%09/evil.example").get_data(as_text=True)

    signed = client.post(path, data={"csrf": csrf_in(button), "next": "/\t/evil.example"})

    assert signed.status_code == 303
    assert signed.headers["Location"] == "/"


BAD_DEADLINES = ['"abc"', "null", "Infinity", "-Infinity", "NaN", "1e400", "1.5", "true", "[]",
                 "{}", "-5", "0", "99999999999999999999999", '"72.0"', '"  "']


def new_game_with_deadline(client: Any, secret: str, deadline: str) -> Any:
    """POST /api/games with a deadline written as raw JSON text."""
    body = '{"kind": "martian-frisby", "players": ["ann@example.org", "bob@example.org"], '
    body += f'"deadline_hours": {deadline}}}'
    return client.post(
        "/api/games", data=body, content_type="application/json", headers=bearer(secret)
    )


def test_a_bad_deadline_is_a_json_422_and_creates_nothing(app, client):
    secret = api_token_for(app, "ann@example.org")

    for deadline in BAD_DEADLINES:
        response = new_game_with_deadline(client, secret, deadline)

        assert response.status_code in (400, 422), (deadline, response.get_data(as_text=True))
        assert response.json["error"] in ("bad-request", "illegal-action")
        assert "deadline" in response.json["message"]
    assert counts(app)["events"] == 0


def test_a_whole_number_of_hours_is_a_good_deadline(app, client):
    secret = api_token_for(app, "ann@example.org")

    for deadline in ("24", '"24"', "24.0"):
        response = new_game_with_deadline(client, secret, deadline)

        assert response.status_code == 201, (deadline, response.get_data(as_text=True))
        assert game_row(app, response.json["id"]).deadline_hours == 24


def test_deeply_nested_json_is_a_json_400(app, client):
    public_id = start(app)
    secret = api_token_for(app, "ann@example.org")
    body = "[" * 50_000 + "]" * 50_000

    for path in (f"/api/play/{token(app, public_id)}", "/api/games"):
        response = client.post(
            path, data=body, content_type="application/json", headers=bearer(secret)
        )

        assert response.status_code == 400, path
        assert response.json["error"] == "bad-request"


def test_a_holiday_ending_at_the_end_of_time_is_refused_not_a_500(app, client):
    sign_in(app, client, "ann@example.org")
    page = client.get("/me").get_data(as_text=True)

    for first, last in (("2026-12-01", "9999-12-31"), ("9999-12-30", "9999-12-31"),
                        ("0001-01-01", "0001-01-02"), ("2026-12-01", "2026-12-01T99")):
        response = client.post(
            "/me",
            data={"csrf": csrf_in(page), "what": "away", "away_from": first, "away_until": last},
        )
        assert response.status_code == 422, (first, last)

    assert client.get("/me").status_code == 200


def test_a_player_number_too_large_for_the_database_is_a_404(app, client):
    for player_id in ("99999999999999999999999", "9223372036854775808", "9223372036854775807"):
        assert client.get(f"/players/{player_id}").status_code == 404, player_id


def test_an_event_number_that_is_no_number_here_is_a_404(app, client):
    public_id = start(app)
    for seq in ("²", "٣", "9" * 5000, "99999999999999999999"):
        assert client.get(f"/games/{public_id}/history/{seq}").status_code == 404, seq[:20]


def test_an_unexpected_error_under_the_api_is_a_json_500_without_details(
    app, client, monkeypatch, caplog
):
    public_id = start(app)

    def broken(*_args: object) -> None:
        raise RuntimeError("secret detail of the server")

    monkeypatch.setattr(api, "game_json", broken)

    response = client.get(f"/api/games/{public_id}")

    assert response.status_code == 500
    assert response.is_json and response.json["error"] == "internal"
    assert "secret detail" not in response.get_data(as_text=True)
    assert "secret detail of the server" in caplog.text and "Traceback" in caplog.text


def test_an_unexpected_error_on_a_page_is_the_error_page_without_details(
    app, client, monkeypatch, caplog
):
    public_id = start(app)

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("secret detail of the server")

    monkeypatch.setattr(games, "load", broken)

    response = client.get(f"/games/{public_id}")

    assert response.status_code == 500 and response.mimetype == "text/html"
    assert "secret detail" not in response.get_data(as_text=True)
    assert "Traceback" in caplog.text


SURROGATE_BODIES = [
    '{"kind": "martian-frisby", "players": ["\\ud800@example.org", "b@example.org"]}',
    '{"kind": "martian-frisby", "players": [{"email": "a@example.org", "name": "\\udfff"},'
    ' "b@example.org"]}',
]


def test_json_text_that_no_database_can_keep_is_a_json_400(app, client):
    secret = api_token_for(app, "ann@example.org")

    for body in SURROGATE_BODIES:
        response = client.post(
            "/api/games", data=body, content_type="application/json", headers=bearer(secret)
        )

        assert response.status_code == 400 and response.json["error"] == "bad-request"
    assert counts(app)["events"] == 0
