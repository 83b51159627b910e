"""Mail commands to the server's own address: read-only ones answered at once; changes done
only after a confirmation from the registered address; strangers get no answer."""

from __future__ import annotations

import json
import re
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from sqlalchemy import select

from pbem.inbox.commands import COMMANDS, help_text
from pbem.models import InboundMail, MailCommand, Player
from pbem.play.start import player_for
from pbem.tournaments import service

from ..mail.bounce_mail import receive
from ..pipe import log, outbox, start, svc_of

ANN, BOB = "ann@example.org", "bob@example.org"
DOCS = Path(__file__).resolve().parents[3] / "docs" / "playing.md"


def command_mail(sender: str, body: str, *, to: str = "pbem@localhost", **headers: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, "commands"
    message["Message-ID"] = make_msgid(domain="player.example")
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    return bytes(message)


def answers(app: Any) -> list[Any]:
    return outbox(app, purpose="command")


def confirm(app: Any, answer: Any, first_line: str = "yes", sender: str = ANN) -> Any:
    """Reply to a confirmation request, as the player's mail client does."""
    reply_to = json.loads(answer.headers)["Reply-To"]
    return receive(app, command_mail(sender, f"{first_line}\n\n> quoted\n", to=reply_to,
                                     In_Reply_To=answer.message_id))


def test_help_answers_with_the_list_that_playing_md_documents(app):
    docs = DOCS.read_text()
    rows = re.findall(r"^\| `([^`]+)` \| ([^|]+) \| (yes|no) \|$", docs, re.M)
    assert [(usage, text.strip(), flag == "yes") for usage, text, flag in rows] == [
        (c.usage, c.text, c.changes) for c in COMMANDS
    ]
    start(app, players=((ANN, "Ann"), (BOB, "Bob")))
    receive(app, command_mail(ANN, "help\n"))
    (answer,) = answers(app)
    assert help_text() in answer.body_text and answer.to_addr == ANN


def test_read_only_commands_are_answered_at_once_in_one_mail(app):
    public_id = start(app, players=((ANN, "Ann"), (BOB, "Bob")))
    result = receive(app, command_mail(ANN, f"games\nSTATUS {public_id}\nstatus nosuchgame\n"))
    assert (result.kind, result.status) == ("command", "answered")
    (answer,) = answers(app)
    text = answer.body_text
    assert f"Martian Frisby game {public_id}: waits for" in text
    assert f"Martian Frisby game {public_id} (active), after event" in text
    assert "Not done: " in text and "nosuchgame" in text
    assert answer.subject == "Re: commands"
    assert json.loads(answer.headers)["Auto-Submitted"] == "auto-replied"


def test_resign_waits_for_the_confirmation_sent_to_the_registered_address(app):
    public_id = start(app, players=((ANN, "Ann"), (BOB, "Bob")))
    # Someone else writes "from" Ann: the answer goes to Ann, and nothing changes.
    receive(app, command_mail(ANN, f"resign {public_id}\n", Reply_To="mallory@evil.example"))
    (answer,) = answers(app)
    assert answer.to_addr == ANN
    assert f"resign your seat in game {public_id}" in answer.body_text
    assert "reply to this mail with yes" in answer.body_text.lower()
    assert not [e for e in log(app, public_id) if e.kind == "resign"]

    not_yes = confirm(app, answer, first_line="I am out of the office")
    assert not_yes.status == "ignored"
    done = confirm(app, answer)
    assert (done.kind, done.status) == ("confirm", "done"), done.message
    assert [e.kind for e in log(app, public_id) if e.kind == "resign"] == ["resign"]
    told = answers(app)[-1]
    assert told.to_addr == ANN and f"Done: you resigned in game {public_id}" in told.body_text
    again = confirm(app, answer)  # a second yes does nothing more
    assert again.status == "ignored" and "confirmed before" in again.message


def test_vacation_digest_and_join_are_done_once_confirmed(app):
    start(app, players=((ANN, "Ann"), (BOB, "Bob")))
    svc = svc_of(app)

    def event(s: Any) -> str:
        director = player_for(s, "dee@example.org", "Dee")
        return service.create(s, director, {"name": "Spring cup", "system": "round-robin",
                                            "kind": "martian-frisby"}).row.public_id

    event_id = svc.write(event)
    receive(app, command_mail(ANN, f"vacation 5 days\ndigest daily\njoin {event_id.upper()}\n"))
    (answer,) = answers(app)
    assert "go on vacation for 5 days" in answer.body_text
    assert f"enter event {event_id}" in answer.body_text
    result = confirm(app, answer, first_line="Yes.")
    assert result.status == "done", result.message
    with svc.db.read() as s:
        ann = s.scalars(select(Player).where(Player.email == ANN)).one()
        assert ann.mail_pref == "digest" and ann.away_until is not None
        assert ann.id in service.entrant_ids(s, service.log.load(s, event_id).row, ("active",))
    receive(app, command_mail(ANN, f"standings {event_id}\n"))
    standings = answers(app)[-1].body_text
    assert "Standings of Spring cup:" in standings and "Ann" in standings


def test_a_stranger_gets_no_answer_and_the_mail_is_kept_in_the_log(app):
    start(app)
    result = receive(app, command_mail("stranger@example.net", "help\ngames\n"))
    assert result.status == "ignored" and "not answered" in result.message
    assert answers(app) == []
    with svc_of(app).db.read() as s:
        (kept,) = s.scalars(select(InboundMail)).all()
        assert kept.sender == "stranger@example.net" and "not answered" in kept.outcome


def test_a_thousand_line_command_mail_reads_twenty_and_says_so(app):
    public_id = start(app, players=((ANN, "Ann"), (BOB, "Bob")))
    body = "".join(f"resign {public_id}\n" if n % 2 else "games\n" for n in range(1000))
    result = receive(app, command_mail(ANN, body))
    assert "980 more lines not read" in result.message
    (answer,) = answers(app)
    assert "the 980 lines\nafter them were not" in answer.body_text
    with svc_of(app).db.read() as s:
        (pending,) = s.scalars(select(MailCommand)).all()
        assert len(json.loads(pending.commands)) == 10
    assert not [e for e in log(app, public_id) if e.kind == "resign"]


def test_an_unknown_command_is_answered_with_the_list(app):
    start(app, players=((ANN, "Ann"), (BOB, "Bob")))
    receive(app, command_mail(ANN, "gg, well played!\n"))
    (answer,) = answers(app)
    assert "is no command; send help for the list" in answer.body_text
