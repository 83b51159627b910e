"""The daily digest: no mail per turn, one mail a day listing every game that waits."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from pbem.mail import digest
from pbem.models import Player
from pbem.play.start import player_for, start_game

from ..pipe import outbox, svc_of

ANN, BOB = ("ann@example.org", "Ann"), ("bob@example.org", "Bob")


def prefer_digest(app, email):
    svc = svc_of(app)

    def switch(s):
        player = player_for(s, email)
        player.mail_pref = "digest"

    svc.write(switch)


def start(app, first: int) -> str:
    svc = svc_of(app)
    return svc.write(
        lambda s: start_game(
            s, svc.ctx, "martian-frisby", [ANN, BOB], options={"first_player": first}
        ).game.public_id
    )


def send_due(app, now):
    svc = svc_of(app)
    return digest.send_due(svc.write, svc.ctx, now)


def test_a_digest_player_gets_no_turn_mail_but_one_digest_listing_every_game(app, client):
    prefer_digest(app, BOB[0])
    games = [start(app, first=1), start(app, first=1), start(app, first=0)]
    assert [m for m in outbox(app, purpose="turn") if m.to_addr == BOB[0]] == []
    now = datetime.now(UTC)
    assert send_due(app, now) == 1
    (mail,) = outbox(app, purpose="digest")
    assert mail.to_addr == BOB[0]
    assert "2 games wait for your move" in mail.body_text
    assert games[0] in mail.body_text and games[1] in mail.body_text
    assert games[2] not in mail.body_text
    link = re.search(r"http://pbem\.test(/play/\S+)", mail.body_text)[1]
    assert "Your move" in client.get(link).get_data(as_text=True)
    rules = re.search(r"http://pbem\.test(/rules/\S+)", mail.body_text)[1]
    assert "Martian Frisby" in client.get(rules).get_data(as_text=True)


def test_at_most_one_digest_a_day(app):
    prefer_digest(app, BOB[0])
    start(app, first=1)
    now = datetime.now(UTC)
    assert send_due(app, now) == 1
    assert send_due(app, now + timedelta(hours=23)) == 0
    assert send_due(app, now + timedelta(hours=25)) == 1
    assert len(outbox(app, purpose="digest")) == 2


def test_nothing_owed_means_no_digest_and_the_next_decision_is_not_delayed(app):
    prefer_digest(app, BOB[0])
    start(app, first=0)
    assert send_due(app, datetime.now(UTC)) == 0
    with svc_of(app).db.read() as s:
        bob = s.query(Player).filter_by(email=BOB[0]).one()
        assert bob.digest_sent_at is None
