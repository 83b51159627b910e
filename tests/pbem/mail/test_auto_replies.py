"""Automatic mail (RFC 3834) is never answered nor played, and every mail of ours says it is
automatic: auto-responders against the server over real SMTP, counting mails, stop."""

from __future__ import annotations

import json
import smtplib
import threading
import time
from email.message import EmailMessage
from email.utils import make_msgid, parseaddr
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from pbem.log.games import load
from pbem.mail import inbound
from tests.smtp_sink import SmtpSink, free_port

from ..pipe import log, outbox, start, svc_of
from .bounce_mail import receive, send_all

ANN, BOB = "ann@example.org", "bob@example.org"


class Mx:
    """The server's own mail exchanger: keeps each mail that reaches it, for `pbem ingest-mail`."""

    def __init__(self) -> None:
        self.port = free_port()
        self.raw: list[bytes] = []
        self.lock = threading.Lock()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.raw.append(bytes(envelope.content))
        return "250 OK"

    def take(self) -> list[bytes]:
        with self.lock:
            taken, self.raw = self.raw, []
        return taken


def auto_reply(original: EmailMessage, style: str) -> EmailMessage:
    """What a responder of this style writes back to a mail it received."""
    answer = EmailMessage()
    answer["From"] = str(original["To"])
    to_field = original["Reply-To"] if style == "rfc3834" else original["From"]
    answer["To"] = str(to_field or original["From"])
    answer["Subject"] = "Auto: " + str(original["Subject"])
    answer["Message-ID"] = make_msgid(domain="example.org")
    answer["In-Reply-To"] = str(original["Message-ID"])
    if style == "rfc3834":  # marks itself, but answers everything, automatic or not
        answer["Auto-Submitted"] = "auto-replied"
    elif style == "vacation":  # the old vacation program's marks
        answer["Precedence"] = "junk"
        answer["X-Autoreply"] = "yes"
    answer.set_content("I am away until Monday and will read your mail then.\n")
    return answer


class Responders:
    """The players' mail host: each mailbox answers every mail it gets, over SMTP, to the Mx."""

    def __init__(self, styles: dict[str, str], mx: Mx) -> None:
        self.styles = styles
        self.mx = mx
        self.sink = SmtpSink()
        self.answered = 0

    def answer_all(self, count: int) -> int:
        """Answer the mails that arrived since the last call; return how many arrived."""
        messages = self.sink.wait_for(count, timeout=10)[self.answered:] if count else []
        for message in messages:
            style = self.styles[parseaddr(str(message["To"]))[1]]
            reply = auto_reply(message, style)
            with smtplib.SMTP("127.0.0.1", self.mx.port, timeout=10) as client:
                client.send_message(reply)
        self.answered += len(messages)
        return len(messages)


def run_loop(app: Any, styles: dict[str, str], rounds: int) -> list[int]:
    """Server and responders answer each other for at most `rounds`; the mails of each round."""
    mx = Mx()
    responders = Responders(styles, mx)
    mx.controller.start()
    responders.sink.start()
    counts = []
    try:
        for _ in range(rounds):
            sent = send_all(app, responders.sink.url).sent
            responders.answer_all(responders.answered + sent)
            time.sleep(0.05)
            deadline = time.monotonic() + 5
            while len(mx.raw) < sent and time.monotonic() < deadline:
                time.sleep(0.02)
            for raw in mx.take():
                receive(app, raw, "mx")
            counts.append(sent)
            if sent == 0:
                break
        assert all(m["Auto-Submitted"] in ("auto-generated", "auto-replied")
                   for m in responders.sink.messages)
    finally:
        responders.sink.stop()
        mx.controller.stop()
    return counts


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_two_auto_responders_against_the_server_stop_after_the_first_mails(smtp_app):
    start(smtp_app, players=((ANN, "Ann"), (BOB, "Bob")))

    counts = run_loop(smtp_app, {ANN: "rfc3834", BOB: "vacation"}, rounds=10)

    assert counts == [3, 0]  # two invitations and a turn mail, then silence
    assert outbox(smtp_app, purpose="reply") == []
    assert outbox(smtp_app, purpose="command") == []


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_responder_that_marks_nothing_still_stops_at_the_answer_budget(smtp_app):
    start(smtp_app, players=((ANN, "Ann"), (BOB, "Bob")))

    counts = run_loop(smtp_app, {ANN: "unmarked", BOB: "unmarked"}, rounds=40)

    assert counts[-1] == 0, counts
    answers = outbox(smtp_app, purpose="reply")
    assert 0 < len(answers) <= 20  # each refusal answered, at most 20 an hour to an address
    assert all("Auto-Submitted" in a.headers for a in answers)


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({"Auto-Submitted": "auto-replied"}, "Auto-Submitted: auto-replied"),
        ({"Auto-Submitted": "auto-generated; owner-email=x@y"}, "Auto-Submitted: auto-generated"),
        ({"Precedence": "bulk"}, "Precedence: bulk"),
        ({"Precedence": "junk"}, "Precedence: junk"),
        ({"Precedence": "list"}, "Precedence: list"),
        ({"X-Autoreply": "yes"}, "X-Autoreply"),
        ({"X-Autorespond": "yes"}, "X-Autorespond"),
        ({"List-Id": "<chat.lists.example.org>"}, "List-Id"),
        ({"Return-Path": "<>"}, "return path is empty"),
        ({"From": "MAILER-DAEMON@mx.example.org"}, "mail system"),
        ({"From": "postmaster@example.org"}, "mail system"),
        ({"From": ""}, "mail system"),
    ],
)
def test_automatic_mail_is_recognised_by_each_mark(headers, why):
    message = EmailMessage()
    message["From"] = headers.pop("From", ANN)
    message["To"] = "pbem@localhost"
    message["Subject"] = "Re: your move"
    for name, value in headers.items():
        message[name] = value
    message.set_content("a1-a4\n")
    reply = inbound.parse(bytes(message))
    assert reply.automatic is not None and why in reply.automatic


@pytest.mark.parametrize("value", [None, "no", "No"])
def test_a_persons_mail_is_not_automatic(value):
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = ANN, "pbem@localhost", "Re: x"
    if value is not None:
        message["Auto-Submitted"] = value
    message.set_content("a1-a4\n")
    assert inbound.parse(bytes(message)).automatic is None


def test_an_automatic_reply_carrying_a_legal_move_is_not_played(app):
    public_id = start(app)
    (turn,) = outbox(app, purpose="turn")
    with svc_of(app).db.read() as s:
        loaded = load(s, public_id)
        move = loaded.rules.legal(loaded.state, loaded.awaited()[0])[0]
    message = EmailMessage()
    message["From"], message["To"] = turn.to_addr, json.loads(turn.headers)["Reply-To"]
    message["Subject"], message["Auto-Submitted"] = "Re: x", "auto-replied"
    message.set_content(move + "\n")

    result = receive(app, bytes(message))

    assert (result.kind, result.status) == ("automatic", "ignored")
    assert outbox(app, purpose="reply") == []
    assert [e for e in log(app, public_id) if e.kind == "move"] == []
