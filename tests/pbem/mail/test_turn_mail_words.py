"""What a turn mail tells a player who reads it in a mail client: the rules, how to reply."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from pbem.mail import outbox, transport
from pbem.play import replies
from pbem.play.start import start_game

from ..pipe import BASE, SEATS, log, svc_of

PLAYERS = [(f"p{i}@example.org", f"Player {i}") for i in range(3)]


def delivered(app, sink, count):
    """Send the outbox over SMTP; every message the sink holds."""
    svc = svc_of(app)
    hop = transport.SmtpTransport(sink.url, timeout=5)
    outbox.deliver_due(svc.db, hop, svc.settings.mail_from, now=lambda: datetime.now(UTC))
    return sink.wait_for(count)


def plain(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return "\n".join(str(body.get_content()).splitlines())


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("kind", sorted(SEATS))
def test_a_turn_mail_links_the_rules_and_its_example_reply_is_played(
    kind, smtp_app, smtp_sink
):
    app, svc = smtp_app, svc_of(smtp_app)
    players = PLAYERS[: SEATS[kind]]
    public_id = svc.write(lambda s: start_game(s, svc.ctx, kind, players).game.public_id)
    awaited = 3 if kind == "martianopolis-500" else 1  # everyone lines up their racers at once
    messages = delivered(app, smtp_sink, len(players) + awaited)
    turn = [m for m in messages if "It is your move" in plain(m)][0]
    text = plain(turn)
    # The rules page the mail links to is there, for this game.
    rules = re.search(rf"{re.escape(BASE)}(/rules/\S+)", text)
    assert rules and rules[1] == f"/rules/{kind}"
    page = app.test_client().get(rules[1])
    assert page.status_code == 200
    # The mail says how to reply, with an example move that the player may make now.
    assert "reply to this mail with your move on the first line" in text
    example = re.search(r"for example:\n\s+(.+)\n", text)
    assert example, text
    reply = EmailMessage()
    reply["From"] = str(turn["To"])
    reply["To"] = str(turn["Reply-To"])
    reply["Subject"] = "Re: " + str(turn["Subject"])
    reply["Message-ID"] = make_msgid(domain="player.example")
    reply.set_content(example[1].strip() + "\n\n> " + text.splitlines()[0] + "\n")
    result = svc.write(lambda s: replies.ingest(s, svc.ctx, bytes(reply)))
    assert result.status == "played", result.message
    moves = [e for e in log(app, public_id) if e.kind == "move"]
    assert [m.payload["action"] for m in moves] == [example[1].strip()]
