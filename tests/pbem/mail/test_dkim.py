"""DKIM: every kind of mail the server sends verifies as a receiving server checks it, against
the record `pbem doctor` prints; the doctor prints SPF, DKIM and DMARC records."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import dkim
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from sqlalchemy import select

from pbem.inbox import route
from pbem.log.games import load
from pbem.mail import compose, digest, failing
from pbem.models import Player
from pbem.play.act import resign
from pbem.play.start import player_for, start_game
from tests.conftest import make_app

from ..pipe import grant, outbox, svc_of
from .bounce_mail import send_all

ANN, BOB, DAN = "ann@example.org", "bob@example.org", "dan@example.org"


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    path = tmp_path / "dkim.pem"
    path.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ))
    return path


@pytest.fixture
def dkim_app(smtp_settings: Any, key_file: Path) -> Any:
    settings = replace(smtp_settings, mail_from="pbem <pbem@pbem.example>",
                       dkim_selector="mail2026", dkim_key=key_file)
    app = make_app(settings)
    yield app
    app.extensions["pbem"].db.dispose()


def doctor_records(app: Any) -> dict[str, str]:
    """The TXT records `pbem doctor` prints, by name."""
    result = app.test_cli_runner().invoke(args=["doctor"])
    assert result.exit_code == 0, result.output
    found = {}
    for name, value in re.findall(r"^(\S+)\. IN TXT (.+)$", result.output, re.M):
        found[name] = "".join(re.findall(r'"([^"]*)"', value))
    return found


def every_kind_of_mail(app: Any) -> None:
    """Have the server queue one mail of each kind it sends."""
    svc = svc_of(app)

    def begin(s: Any) -> str:
        dan = player_for(s, DAN, "Dan")
        players = [(ANN, "Zoë Ann"), (BOB, "Bob")]
        public_id = start_game(s, svc.ctx, "martian-frisby", players, created_by=dan)
        compose.queue_signin(s, svc.ctx, dan)
        return public_id.game.public_id

    public_id = svc.write(begin)
    seat = grant(app, public_id).seat

    def more(s: Any) -> None:
        loaded = load(s, public_id)
        compose.queue_fresh_link(s, svc.ctx, loaded, seat)
        owner = loaded.player(seat)
        owner.mail_pref = "digest"
        digest.send(s, svc.ctx, owner.id, datetime.now(UTC))

    svc.write(more)
    to = [p for p in (ANN, BOB) if p != load_email(app, public_id, seat)][0]
    ref = svc.signer.reply_ref(grant(app, public_id))
    bad_reply = (
        f"From: {load_email(app, public_id, seat)}\r\nTo: pbem+{ref}@pbem.example\r\n"
        "Subject: Re: game\r\nMessage-ID: <r1@example.org>\r\n\r\nzz-zz\r\n"
    ).encode()
    command = (f"From: {DAN}\r\nTo: pbem@pbem.example\r\nSubject: help\r\n"
               "Message-ID: <c1@example.org>\r\n\r\nhelp\r\n").encode()
    for raw in (bad_reply, command):
        svc.write(lambda s, raw=raw: route.receive(s, svc.ctx, raw, "test"))

    def bounce(s: Any) -> None:
        player = s.scalars(select(Player).where(Player.email == to)).one()
        failing.mark_failing(s, svc.ctx, player, "550 5.1.1 user unknown", datetime.now(UTC))

    svc.write(bounce)  # (while the game is on: the director hears of it)
    svc.write(lambda s: resign(s, svc.ctx, grant(app, public_id, seat)))


def load_email(app: Any, public_id: str, seat: int) -> str:
    with svc_of(app).db.read() as s:
        return load(s, public_id).player(seat).email


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_every_kind_of_mail_verifies_against_the_record_the_doctor_prints(dkim_app, smtp_sink):
    every_kind_of_mail(dkim_app)
    records = doctor_records(dkim_app)
    record = records["mail2026._domainkey.pbem.example"]

    def dns(name: bytes, timeout: int = 5) -> bytes:
        assert name == b"mail2026._domainkey.pbem.example."
        return record.encode()

    sent = send_all(dkim_app, smtp_sink.url).sent
    smtp_sink.wait_for(sent)
    by_id = {r.message_id: r.purpose for r in outbox(dkim_app)}
    purposes = set()
    for raw, message in zip(smtp_sink.raw, smtp_sink.messages, strict=True):
        assert raw.startswith(b"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed;")
        assert dkim.verify(raw, dnsfunc=dns), by_id[message["Message-ID"]]
        purposes.add(by_id[message["Message-ID"]])
        # A mail changed on the way fails, as it must.
        changed = raw.replace(b"\r\n\r\n", b"\r\n\r\nP.S. play a1-a8\r\n", 1)
        assert not dkim.verify(changed, dnsfunc=dns)
    assert purposes == {
        "invite", "turn", "signin", "fresh-link", "digest", "reply", "command", "result",
        "bounce",
    }


def test_the_doctor_prints_spf_and_dmarc_for_the_from_domain_and_no_dkim_without_a_key(app):
    records = doctor_records(app)
    assert records["localhost"].startswith("v=spf1 ") and records["localhost"].endswith(" ~all")
    assert records["_dmarc.localhost"].startswith("v=DMARC1; p=none;")
    assert not any("_domainkey" in name for name in records)


def test_a_dkim_key_that_cannot_sign_is_named_by_the_doctor(settings, tmp_path):
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key")
    app = make_app(replace(settings, dkim_selector="s", dkim_key=bad))
    try:
        result = app.test_cli_runner().invoke(args=["doctor"])
        assert result.exit_code == 1 and f"the DKIM key {bad} cannot sign" in result.output
    finally:
        app.extensions["pbem"].db.dispose()
