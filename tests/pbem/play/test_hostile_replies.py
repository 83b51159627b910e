"""Reply mails written to hurt: forged headers, oversized subjects, no Message-ID at all."""

from __future__ import annotations

import json
from dataclasses import replace
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

from pbem.mail import inbound, outbox
from pbem.play import replies
from tests.conftest import make_app

from ..mail.test_outbox import deliver
from ..pipe import answer_every_reply, legal, log, start, svc_of
from ..pipe import outbox as outbox_rows

CRLF_SUBJECT = "=?utf-8?q?hi=0D=0ABcc=3A_x=40y.org?="


def turn_mail(app: Any) -> Any:
    return [m for m in outbox_rows(app, purpose="turn") if m.game_id is not None][-1]


def raw_reply(
    app: Any,
    body: str,
    *,
    subject: str | None = None,
    message_id: str | None = "make",
    original: Any = None,
) -> bytes:
    """A reply to a turn mail (the newest) with the headers given, raw as a client may send."""
    original = original or turn_mail(app)
    reply_to = json.loads(original.headers)["Reply-To"]
    lines = [
        f"From: {original.to_addr}",
        f"To: {reply_to}",
        f"Subject: {subject if subject is not None else 'Re: ' + original.subject}",
    ]
    if message_id == "make":
        lines.append(f"Message-ID: {make_msgid(domain='player.example')}")
    elif message_id is not None:
        lines.append(f"Message-ID: {message_id}")
    lines += ["Content-Type: text/plain; charset=utf-8", "", body, ""]
    return "\r\n".join(lines).encode()


def ingest(app: Any, raw: bytes) -> replies.Ingested:
    svc = svc_of(app)
    return svc.write(lambda s: replies.ingest(s, svc.ctx, raw))


def test_a_reply_whose_subject_decodes_to_a_line_break_does_not_stop_the_mail(
    smtp_app, smtp_sink
):
    public_id = start(smtp_app)
    answer_every_reply(smtp_app)
    deliver(smtp_app, smtp_sink.url)
    smtp_sink.wait_for(3)
    first = legal(smtp_app, public_id)[0]

    played = ingest(smtp_app, raw_reply(smtp_app, first, subject=CRLF_SUBJECT))
    assert played.status == "played", played.message
    answer = outbox_rows(smtp_app, purpose="reply")[-1]
    assert "\r" not in answer.subject and "\n" not in answer.subject
    later = len(outbox_rows(smtp_app))

    result = deliver(smtp_app, smtp_sink.url)

    assert result.set_aside == () and result.failed == 0
    assert result.sent == later - 3, "the answer and every mail queued after it"
    messages = smtp_sink.wait_for(later)
    assert len(messages) == later
    assert ["x@y.org"] not in smtp_sink.recipients
    sent_answer = next(m for m in messages if m["Message-ID"] == answer.message_id)
    assert sent_answer["Bcc"] is None
    # The answer keeps the game's one subject: nothing of the reply's reaches its headers.
    assert sent_answer["Subject"] == f"Re: Martian Frisby game {public_id}"


def test_a_message_id_with_a_line_break_reaches_no_header_of_the_answer(app):
    public_id = start(app)
    answer_every_reply(app)
    raw = raw_reply(app, legal(app, public_id)[0], message_id="=?utf-8?q?<a=0D=0ABcc:_x@y.org>?=")

    assert ingest(app, raw).status == "played"

    headers = json.loads(outbox_rows(app, purpose="reply")[-1].headers)
    assert all("\n" not in v and "\r" not in v for v in headers.values())


def test_a_mail_that_cannot_be_built_is_set_aside_and_the_queue_goes_on(smtp_app, smtp_sink):
    start(smtp_app)
    svc = svc_of(smtp_app)
    with svc.db.write() as s:  # as a row queued before headers were made one line
        row = s.get(type(outbox_rows(smtp_app)[0]), outbox_rows(smtp_app)[0].id)
        row.subject = "Re: hi\r\nBcc: x@y.org"
        bad = row.id

    first = deliver(smtp_app, smtp_sink.url)
    second = deliver(smtp_app, smtp_sink.url)

    assert (first.sent, first.failed, len(first.set_aside)) == (2, 0, 1)
    assert f"mail {bad} to " in first.set_aside[0]
    assert "set aside" in first.set_aside[0] and "ValueError" in first.set_aside[0]
    assert second == outbox.Delivery(0, 0)
    assert len(smtp_sink.wait_for(2)) == 2
    assert outbox.pending_count(svc.db) == 0
    (aside,) = outbox.set_aside(svc.db)
    assert aside.id == bad and "cannot be sent" in (aside.last_error or "")


def test_send_mail_names_a_mail_set_aside_and_mail_failed_lists_it(smtp_app, smtp_sink):
    start(smtp_app)
    svc = svc_of(smtp_app)
    with svc.db.write() as s:
        row = s.get(type(outbox_rows(smtp_app)[0]), outbox_rows(smtp_app)[0].id)
        row.subject = "line one\nline two"
        bad = row.id
    runner = smtp_app.test_cli_runner()

    sent = runner.invoke(args=["send-mail"])
    listed = runner.invoke(args=["mail", "failed"])
    retried = runner.invoke(args=["mail", "retry", str(bad)])
    again = runner.invoke(args=["mail", "retry", str(bad + 1000)])

    assert sent.exit_code == 0, sent.output
    assert "sent 2, failed 0, set aside 1" in sent.output
    assert f"mail {bad} to " in sent.output and "pbem mail failed" in sent.output
    assert listed.exit_code == 0 and f"{bad}  " in listed.output
    assert "cannot be sent as it is" in listed.output and "1 mails set aside" in listed.output
    assert retried.exit_code == 0 and outbox.pending_count(svc.db) == 1
    assert again.exit_code == 1 and "is set aside" in again.output


def test_an_inbound_subject_is_read_on_one_line():
    message = EmailMessage()
    message["Subject"] = "plain"
    raw = bytes(message).replace(b"Subject: plain", f"Subject: {CRLF_SUBJECT}".encode())

    assert inbound.parse(raw).subject == "hi Bcc: x@y.org"


def test_the_log_is_untouched_by_a_hostile_subject(app):
    public_id = start(app)
    before = len(log(app, public_id))
    ingest(app, raw_reply(app, "no such move", subject=CRLF_SUBJECT))
    assert len(log(app, public_id)) == before
    assert "\n" not in outbox_rows(app, purpose="reply")[-1].subject


def test_a_reply_with_a_subject_longer_than_its_column_is_played(settings):
    # PostgreSQL refuses a string longer than its column (SQLite stores it: the guard in
    # tests/conftest.py makes that a failure on SQLite too).
    app = make_app(replace(settings, inbound_token="s3cret"))
    try:
        public_id = start(app)
        answer_every_reply(app)
        long = "Re: " + "a very long subject " * 20 + turn_mail(app).subject
        first = legal(app, public_id)[0]
        response = app.test_client().post(
            "/api/inbound-mail",
            data=raw_reply(app, first, subject=long),
            headers={"Authorization": "Bearer s3cret"},
        )
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.json["status"] == "played"

        second = legal(app, public_id)[0]
        piped = app.test_cli_runner().invoke(
            args=["ingest-mail"], input=raw_reply(app, second, subject=long)
        )
        assert piped.exit_code == 0, piped.output
        assert piped.output.startswith("reply, played: ")
        moves = [e.payload["action"] for e in log(app, public_id) if e.kind == "move"]
        assert moves == [first, second]
        answers = outbox_rows(app, purpose="reply")
        assert len(answers) == 2
        assert all(a.subject == f"Re: Martian Frisby game {public_id}" for a in answers)
    finally:
        app.extensions["pbem"].db.dispose()


def test_replies_without_a_message_id_are_each_played_in_any_game(app):
    games = [start(app, players=((f"a{n}@example.org", None), (f"b{n}@example.org", None)))
             for n in range(2)]
    for public_id in games:
        for _ in range(2):
            mail = next(
                m for m in reversed(outbox_rows(app, purpose="turn")) if m.game_id is not None
                and m.subject.endswith(f" {public_id}")
            )
            raw = raw_reply(app, legal(app, public_id)[0], message_id=None, original=mail)
            result = ingest(app, raw)
            assert result.status == "played", result.message

    for public_id in games:
        assert sum(e.kind == "move" for e in log(app, public_id)) == 2


def test_a_reply_without_a_message_id_delivered_twice_is_played_once(app):
    public_id = start(app)
    raw = raw_reply(app, legal(app, public_id)[0], message_id=None)

    first, second = ingest(app, raw), ingest(app, raw)

    assert first.status == "played"
    assert second.status == "ignored" and "already played" in second.message
    assert sum(e.kind == "move" for e in log(app, public_id)) == 1


def test_a_refused_reply_delivered_twice_is_answered_once(app):
    public_id = start(app)
    raw = raw_reply(app, "no such move", message_id=None)

    first, second = ingest(app, raw), ingest(app, raw)

    assert first.status == second.status == "rejected"
    assert len(outbox_rows(app, purpose="reply")) == 1
    assert not any(e.kind == "move" for e in log(app, public_id))


CHOKING_HEADERS = [
    ("Message-ID", "<"),  # IndexError inside the standard library's parser
    ("Message-ID", "<1@"),  # HeaderParseError
    ("From", "=?utf-8?b?Cg==?="),  # ValueError: an address part with a line break
    ("From", "=?utf-8?b??="),
    ("To", "=?utf-8?q?pbem+x=0D=0A@localhost?="),
]


def test_a_reply_with_headers_the_mail_parser_chokes_on_is_still_read(app):
    public_id = start(app)
    for header, value in CHOKING_HEADERS:
        raw = f"{header}: {value}\r\n".encode() + raw_reply(app, legal(app, public_id)[0])

        result = ingest(app, raw)

        assert result.status in ("played", "rejected", "ignored"), (header, value)
        assert inbound.parse(raw).ref is not None
