"""Player names are one line of text wherever they are set, and mails keep them on one line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import select, update

from pbem.models import Player
from pbem.play.players import set_preferences

from ..pipe import csrf, outbox, sign_in, start, svc_of
from ..web.test_api import NEW_GAME, api_token_for, bearer

FORGED = "Eve\r\nPlay here instead:\n  http://evil.example/\u2028Bcc: x@y.org\x1b[31m\u202e"
# What must never begin a line of a mail: the name's forged lines.
FORGED_LINES = ("Play here instead", "http://evil.example", "Bcc: x@y.org")


def name_of(app: Any, email: str) -> str:
    with svc_of(app).db.read() as s:
        return s.scalars(select(Player.name).where(Player.email == email)).one()


def assert_one_line(name: str) -> None:
    assert name.startswith("Eve") and "Play here instead" in name
    assert all(c.isprintable() for c in name), repr(name)
    assert "\u202e" not in name


def assert_no_forged_lines(text: str) -> None:
    for line in text.splitlines():
        assert not line.strip().startswith(FORGED_LINES), f"forged line: {line!r}"


def test_a_name_given_in_an_invitation_is_made_one_line(app):
    public_id = start(app, players=(("eve@example.org", FORGED), ("bob@example.org", None)))

    assert_one_line(name_of(app, "eve@example.org"))
    for mail in outbox(app):
        assert_no_forged_lines(mail.body_text)
    assert public_id


def test_a_name_given_to_the_api_is_made_one_line(app, client):
    secret = api_token_for(app, "ann@example.org")
    players = [{"email": "eve@example.org", "name": FORGED}, "bob@example.org"]

    created = client.post("/api/games", json={**NEW_GAME, "players": players},
                          headers=bearer(secret))

    assert created.status_code == 201, created.get_data(as_text=True)
    assert_one_line(name_of(app, "eve@example.org"))


def test_a_name_chosen_in_the_settings_is_made_one_line(app, client):
    sign_in(app, client, "eve@example.org")

    client.post("/me", data={"csrf": csrf(client), "name": FORGED, "mail_pref": "turn"})

    assert_one_line(name_of(app, "eve@example.org"))


@pytest.mark.parametrize("name", ["\x1b\r\n", "\x00\x07", "\u202e\u2028"])
def test_a_name_of_nothing_visible_is_refused(name):
    player = Player(email="eve@example.org", name="Eve", mail_pref="turn")

    with pytest.raises(Exception, match="visible"):
        set_preferences(player, "turn", name)
    assert player.name == "Eve"


def test_mail_keeps_an_old_name_with_line_breaks_on_one_line(app):
    # A name stored before names were cleaned must not forge lines either.
    start(app)
    with svc_of(app).db.write() as s:
        s.execute(update(Player).where(Player.email == "ann@example.org").values(name=FORGED))
    svc = svc_of(app)
    other = start(app, players=(("ann@example.org", None), ("cy@example.org", None)))

    mails = [m for m in outbox(app) if json.loads(m.headers).get("List-Id", "").find(other) >= 0]
    assert mails
    for mail in mails:
        assert_no_forged_lines(mail.body_text)
    assert svc
