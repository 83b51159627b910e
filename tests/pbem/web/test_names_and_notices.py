"""Display names instead of addresses, what creating a game says, and the API's first check."""

from __future__ import annotations

import html
import re

from sqlalchemy import select

from pbem.models import Player

from ..pipe import csrf_in, move, outbox, sign_in, start, svc_of
from .test_api import NEW_GAME, api_token_for, assert_error, bearer, game_count


def text_of(response) -> str:
    """What a person reads on a page: its text, tags and scripts removed."""
    page = re.sub(r"<(script|style)\b.*?</\1>", "", response.get_data(as_text=True), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_creating_a_game_says_that_the_invitations_were_mailed_and_to_whom(app, client):
    sign_in(app, client, "ann@example.org")
    form_page = client.get("/games/new")
    assert "display name" in text_of(form_page)
    created = client.post(
        "/games/new",
        data={
            "csrf": csrf_in(form_page.get_data(as_text=True)),
            "kind": "martian-frisby",
            "email0": "ann@example.org",
            "name0": "Ann",
            "email1": "robert@example.org",
            "name1": "Robert the Red",
        },
        follow_redirects=True,
    )
    assert created.status_code == 200
    words = text_of(created)
    assert "Invitations were mailed to" in words
    assert "Robert the Red (North)" in words
    assert "robert@example.org" not in words


def test_a_new_player_without_a_name_is_not_named_after_the_address(app):
    start(app, players=(("zqxann@example.org", None), ("zqxbob@example.org", None)))
    with svc_of(app).db.read() as s:
        names = s.scalars(select(Player.name).where(Player.email.like("zqx%"))).all()
    assert len(names) == 2 and len(set(names)) == 2
    assert not any("zqx" in name for name in names)


def test_public_pages_show_no_address_nor_any_part_of_one(app, client):
    public_id = start(app, players=(("zqxann@example.org", None), ("zqxbob@example.org", "Bob")))
    for _ in range(3):
        move(app, public_id)
    with svc_of(app).db.read() as s:
        ids = s.scalars(select(Player.id).where(Player.email.like("zqx%"))).all()
    pages = ["/", f"/games/{public_id}", f"/games/{public_id}/history",
             f"/games/{public_id}/audit", *(f"/players/{i}" for i in ids)]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        body = response.get_data(as_text=True).lower()
        assert "zqx" not in body and "example.org" not in body, path


def test_a_bad_token_with_a_bad_body_is_refused_for_the_token(app, client):
    api_token_for(app, "ann@example.org")
    before = game_count(app)
    for headers in (bearer("pbem_not_a_token"), {}):
        for body in ({"players": "nobody"}, {"kind": 5}, None):
            response = client.post("/api/games", json=body, headers=headers)
            assert_error(response, 403, "forbidden")
        response = client.post("/api/games", data="{not json", headers=headers,
                               content_type="application/json")
        assert_error(response, 403, "forbidden")
    assert game_count(app) == before
    good = client.post("/api/games", json=NEW_GAME, headers=bearer("pbem_test_ann@example.org"))
    assert good.status_code == 201


def test_the_invitation_says_how_others_see_the_player_and_where_to_change_it(app):
    start(app, players=(("zqxann@example.org", None), ("zqxbob@example.org", "Bob")))
    invites = {m.to_addr: m.body_text for m in outbox(app, purpose="invite")}
    assert 'The other players see you as "Bob"' in invites["zqxbob@example.org"]
    ann = invites["zqxann@example.org"]
    assert re.search(r'see you as "Player \d+"', ann) and "http://pbem.test/me" in ann
