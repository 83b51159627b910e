"""Mails written straight onto the wire are the bytes smtplib makes of the built message."""

from __future__ import annotations

import email
import json
import mailbox
import random
import re
import smtplib
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.policy import default
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail import outbox, transport, wire
from pbem.models import Outbox

from ..pipe import outbox as outbox_rows
from ..pipe import start, svc_of

FROM = "pbem <pbem@localhost>"


class Capture(smtplib.SMTP):
    """smtplib's own send_message, with what it would hand to the server kept, not sent."""

    def __init__(self) -> None:
        super().__init__()  # no host: no connection
        self.calls: list[tuple[str, list[str], bytes]] = []

    def ehlo_or_helo_if_needed(self) -> None:
        pass

    def sendmail(self, from_addr: Any, to_addrs: Any, msg: Any, *args: Any) -> dict[str, Any]:
        self.calls.append((from_addr, list(to_addrs), msg))
        return {}


def smtplib_sends(message: EmailMessage, boundary: str | None) -> tuple[str, list[str], bytes]:
    """The envelope and bytes smtplib makes of a built message (on the given boundary)."""
    if boundary is not None:
        message.set_boundary(boundary)
    client = Capture()
    client.send_message(message)
    (call,) = client.calls
    return call


def boundary_of(data: bytes) -> str | None:
    found = re.search(rb'boundary="([^"]+)"', data)
    return found[1].decode() if found else None


def row_of(
    *,
    to: str = "ann@example.org",
    subject: str = "[Martian Race 6b832abe30] your move, Red",
    headers: dict[str, Any] | None = None,
    text: str = "Hello Ann,\n\nYour move.\n",
    html: str | None = "<p>Hello Ann,</p>\n<p>Your move.</p>\n",
) -> Outbox:
    extra = {"Date": "Mon, 23 Nov 2026 17:47:58 +0000", **(headers or {})}
    return Outbox(
        message_id="<6b832abe30.turn.0.1@localhost>", purpose="turn", to_addr=to,
        subject=subject, body_text=text, body_html=html, headers=json.dumps(extra),
    )


def assert_as_smtplib_sends(row: Outbox, mail_from: str = FROM) -> wire.Mail | None:
    """The wire form of a row is what smtplib sends of the built message, byte for byte.

    (None when the message cannot be built: then neither can its wire form, for the same reason.)
    """
    try:
        built = wire.build_message(row, mail_from)
    except Exception as e:  # whatever the library raises (an odd Reply-To: AttributeError)
        with pytest.raises(type(e)) as raised:
            wire.wire_message(row, mail_from)
        assert str(raised.value) == str(e)
        return None
    mail = wire.wire_message(row, mail_from)
    if isinstance(mail, wire.Wire):
        expected = smtplib_sends(built, boundary_of(mail.data))
        assert (mail.sender, list(mail.recipients), mail.data) == expected
    return mail


def headers_of(part: Any) -> list[tuple[str, str]]:
    """A part's headers as a client reads them, the random multipart boundary left out."""
    return [(k, re.sub(r'boundary="[^"]+"', "boundary", str(v))) for k, v in part.items()]


def same_as_a_client_reads(received: EmailMessage, built: EmailMessage) -> None:
    """Every part's headers, type and decoded content are the same."""
    for got, want in zip(received.walk(), built.walk(), strict=True):
        assert headers_of(got) == headers_of(want)
        assert got.get_content_type() == want.get_content_type()
        if not got.is_multipart():
            assert got.get_content() == want.get_content()
            assert got["Content-Transfer-Encoding"] == want["Content-Transfer-Encoding"]


def reparsed(message: EmailMessage) -> EmailMessage:
    """A built message as it arrives: flattened by smtplib, parsed by the receiver."""
    _, _, data = smtplib_sends(message, None)
    parsed = email.message_from_bytes(data, policy=default)
    assert isinstance(parsed, EmailMessage)
    return parsed


NAMES = ["Ann", "Änne Østergård", "李雷", "Zoë \"Z\" O'Neil", "=?utf-8?q?x?=", "a" * 120]


@pytest.mark.parametrize("name", NAMES)
def test_game_mails_go_on_the_wire_as_smtplib_sends_them(app, name):
    start(app, players=(("ann@example.org", name), ("bob@example.org", "Bob")))
    rows = outbox_rows(app)
    mails = [assert_as_smtplib_sends(row, svc_of(app).settings.mail_from) for row in rows]

    assert len(rows) == 3
    for row, mail in zip(rows, mails, strict=True):
        fits = all(len(line.encode()) <= 998 for line in (row.body_html or "").splitlines())
        assert isinstance(mail, wire.Wire) == fits, "what needs no encoding goes quick"


@pytest.mark.parametrize(
    "subject",
    [
        "plain words",
        "Ünïcödé in the subject, and a long tail " + "ü" * 200,
        "words  with   runs of spaces ",
        "an =?utf-8?q?encoded?= word",
        "x" * 299,
        "",
        "tab\tinside",
    ],
)
@pytest.mark.parametrize("html", [None, "<p>ä</p>"])
def test_subjects_of_any_kind_are_written_as_smtplib_writes_them(subject, html):
    assert_as_smtplib_sends(row_of(subject=subject, html=html))


@pytest.mark.parametrize(
    ("mail_from", "to", "headers", "text"),
    [
        ('"PBEM, the server" <pbem@example.org>', "ann@example.org", {}, "hi"),
        (FROM, "änn@example.org", {}, "hi"),
        (FROM, "", {}, "hi"),
        (FROM, "ann@example.org", {"Content-Language": "en"}, "hi"),
        (FROM, "ann@example.org", {"Cc": "bob@example.org"}, "hi"),
        (FROM, "ann@example.org", {"X-Game": "a", "x-game": "b"}, "hi"),
        (FROM, "ann@example.org", {"Subject": "again"}, "hi"),
        (FROM, "ann@example.org", {}, "a line too long for 7bit: " + "y" * 1000),
        (FROM, "ann@example.org", {}, "ü" * 600),
    ],
)
def test_mails_of_an_unusual_shape_are_built_whole(mail_from, to, headers, text):
    mail = assert_as_smtplib_sends(row_of(to=to, headers=headers, text=text), mail_from)

    assert not isinstance(mail, wire.Wire)


HEADER_NAMES = ["List-Id", "Reply-To", "In-Reply-To", "References", "Date", "X-Game",
                "Auto-Submitted", "Content-Language", "Message-ID", "Bad Name", "list-id"]
TEXT = st.text(
    st.sampled_from(list("ab Z09<>@.,;:\"'()=?_-\t\r\nüé李")) | st.characters(), max_size=120
)
ADDRESSES = st.sampled_from(
    ["ann@example.org", "Ann <ann@example.org>", "a.b+c@x-y.example.org", '"A, B" <a@b.org>',
     "ann@[127.0.0.1]", "a..b@example.org", "ann@", "änn@example.org", "Ann Ö <ann@example.org>"]
)
BODIES = st.text(st.sampled_from(list("ab \n\r.-=ü")) | st.characters(), max_size=300) | st.builds(
    lambda line, n: (line * n)[:3000], st.text(min_size=1, max_size=5), st.integers(1, 1200)
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    mail_from=ADDRESSES | st.just(FROM),
    to=ADDRESSES | TEXT,
    subject=TEXT,
    headers=st.dictionaries(st.sampled_from(HEADER_NAMES), TEXT | ADDRESSES, max_size=4),
    text=BODIES,
    html=st.none() | BODIES,
)
def test_any_row_goes_on_the_wire_as_smtplib_sends_the_built_message(
    mail_from, to, subject, headers, text, html
):
    assert_as_smtplib_sends(
        row_of(to=to, subject=subject, headers=headers, text=text, html=html), mail_from
    )


USUAL = st.text(st.sampled_from(list("abXZ09 <>@.,;:\"'()[]=?_-/+üé李")), max_size=80)
USUAL_BODIES = st.text(st.sampled_from(list("ab Z.-=<>\n\rüé")), max_size=400)


@settings(max_examples=300)
@given(
    mail_from=st.sampled_from([FROM, "pbem@example.org", "Mars Club <mars+pbem@example.org>"]),
    to=st.sampled_from(["ann@example.org", "Ann <a.b+c@x-y.example.org>", "o'neil@example.org"]),
    subject=USUAL,
    headers=st.dictionaries(st.sampled_from(HEADER_NAMES[:7]), USUAL, max_size=5),
    text=USUAL_BODIES,
    html=st.none() | USUAL_BODIES,
)
def test_usual_rows_go_on_the_wire_as_smtplib_sends_the_built_message(
    mail_from, to, subject, headers, text, html
):
    mail = assert_as_smtplib_sends(
        row_of(to=to, subject=subject, headers=headers, text=text, html=html), mail_from
    )

    assert isinstance(mail, wire.Wire) or mail is None


def test_what_a_mail_client_reads_is_unchanged_through_a_real_smtp_server(app, smtp_sink):
    start(app, players=(("ann@example.org", "Änne Østergård"), ("bob@example.org", "李雷")))
    svc = svc_of(app)
    with svc.db.write() as s:
        for n, subject in enumerate(["Grüße vom Mars", "plain", "=?utf-8?q?not_decoded?="]):
            outbox.queue(s, svc.ctx, purpose="signin", to=f"p{n}@example.org", subject=subject,
                         text=f"Hallo {subject}\n", html=None, key=f"wire.{n}")
    rows = {row.message_id: row for row in outbox_rows(app)}

    result = outbox.deliver_due(svc.db, transport.SmtpTransport(smtp_sink.url, timeout=5),
                                svc.settings.mail_from)

    assert result.sent == len(rows) == 6
    for received in smtp_sink.wait_for(6):
        built = wire.build_message(rows[received["Message-ID"]], svc.settings.mail_from)
        same_as_a_client_reads(received, reparsed(built))


def kept_in(folder: Any) -> dict[str, bytes]:
    """The mails of a maildir by Message-ID, their multipart boundaries made alike."""
    box = mailbox.Maildir(folder, create=False)
    kept = {}
    for key in box.keys():
        with box.get_file(key) as f:
            data = f.read()
        for boundary in set(re.findall(rb'boundary="([^"]+)"', data)):
            data = data.replace(boundary, b"BOUNDARY")
        kept[str(email.message_from_bytes(data, policy=default)["Message-ID"])] = data
    return kept


def test_the_local_maildir_keeps_a_wire_mail_as_it_kept_the_built_message(app, tmp_path):
    start(app, players=(("ann@example.org", "Änne"), ("bob@example.org", "Bob")))
    rows = outbox_rows(app)
    mails = [wire.wire_message(row, FROM) for row in rows]
    before, after = tmp_path / "built", tmp_path / "wire"

    for row, mail in zip(rows, mails, strict=True):
        transport.MaildirTransport(before).send(wire.build_message(row, FROM))
        transport.MaildirTransport(after).send(mail)

    assert any(isinstance(m, wire.Wire) for m in mails)
    assert kept_in(after) == kept_in(before) and len(kept_in(after)) == 3
    assert all(b"\r\n" not in data for data in kept_in(after).values())


def test_a_wire_mail_reads_as_a_message_for_whoever_holds_it():
    mail = wire.wire_message(row_of(subject="Grüße"), FROM)

    assert isinstance(mail, wire.Wire)
    assert mail["Subject"] == "Grüße" and mail["To"] == "ann@example.org"
    assert mail.message().get_body(("html",)) is not None


@pytest.mark.parametrize("tail", [b"", b"--", b"\r\n"])
def test_a_boundary_the_parts_hold_is_changed_as_the_generator_changes_it(tail):
    state = random.getstate()
    try:
        random.seed(7)
        first = wire._boundary(b"")
        parts = b"text\r\n--" + first.encode() + tail
        random.seed(7)
        ours = wire._boundary(parts)
        random.seed(7)
        theirs = BytesGenerator._make_boundary(parts)  # type: ignore[attr-defined]
    finally:
        random.setstate(state)

    assert ours == theirs
    assert ours == (first if tail == b"\r\n" else first + ".0")
