"""Reply mails from anywhere: random bytes and mangled real replies, read and played.

Whatever arrives, reading it gives a Reply with one-line headers and text any database
keeps; playing it gives an answer (played, rejected or ignored), never an exception; and
every mail it queues can be built.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail import inbound
from pbem.mail.wire import build_message
from pbem.play import replies
from pbem.text import storable

from ..pipe import game_row, legal, outbox, start, svc_of

SAMPLE = (
    b"From: Ann <ann@example.org>\r\n"
    b"To: pbem+0123456789.0.4.abcdefghijklmnop@localhost\r\n"
    b"Subject: Re: [Martian Frisby 0123456789] your move, South #0123456789.0.4.abcdefghijklmnop"
    b"\r\nMessage-ID: <1@player.example>\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n\r\n"
    b"a1-a2 b1-b2\r\n\r\nOn Sat, pbem wrote:\r\n> your move\r\n"
)
HEADERS = [b"Subject", b"Message-ID", b"From", b"To", b"Content-Type",
           b"Content-Transfer-Encoding", b"Cc", b"Delivered-To", b"MIME-Version"]


@st.composite
def encoded_words(draw: st.DrawFn) -> bytes:
    """An RFC 2047 word hiding any bytes: line breaks, NUL, invalid UTF-8, long runs."""
    raw = draw(
        st.binary(max_size=60) | st.sampled_from([b"hi\r\nBcc: x@y.org", b"\x00", b"x" * 400])
    )
    charset = draw(st.sampled_from([b"utf-8", b"latin-1", b"x-unknown", b"utf-16"]))
    return b"=?" + charset + b"?b?" + base64.b64encode(raw) + b"?="


# Edits drawn apart from the mail they apply to, so that drawing never depends on it.
EDITS = st.lists(
    st.tuples(
        st.integers(0, 4),
        st.integers(0, 10_000),
        st.binary(min_size=1, max_size=20),
        st.sampled_from(HEADERS),
        encoded_words() | st.binary(max_size=40),
        st.sampled_from([b"", b"> ", b"--", b"\t"]),
    ),
    max_size=5,
)


def mangle(base: bytes, edits: list[tuple[int, int, bytes, bytes, bytes, bytes]]) -> bytes:
    """A real reply with bytes, headers and encoded words changed, added or cut."""
    data = bytearray(base)
    for what, where, chunk, header, value, lead in edits:
        at = where % (len(data) + 1)
        if what == 0:
            data[at:at] = chunk
        elif what == 1:
            del data[at : at + len(chunk) * 2]
        elif what == 2:
            data[0:0] = header + b": " + value + b"\r\n"
        elif what == 3:
            data = data[:at]
        else:
            data[at:at] = b"\r\n" + lead
    return bytes(data)


def check_reply(reply: inbound.Reply) -> None:
    for value in (reply.subject, reply.sender, reply.message_id):
        assert "\r" not in value and "\n" not in value
        assert storable(value) == value
    assert all(storable(line) == line for line in reply.lines)
    assert reply.identity


@settings(max_examples=200)
@given(st.binary(max_size=3000))
def test_any_bytes_read_as_a_reply(raw):
    check_reply(inbound.parse(raw))


@settings(max_examples=200)
@given(EDITS)
def test_a_mangled_reply_reads_as_a_reply(edits):
    check_reply(inbound.parse(mangle(SAMPLE, edits)))


def real_reply(app: Any, public_id: str, move: str) -> bytes:
    mail = [m for m in outbox(app, purpose="turn") if m.game_id is not None][-1]
    reply_to = json.loads(mail.headers)["Reply-To"].encode()
    return (
        b"From: " + mail.to_addr.encode() + b"\r\nTo: " + reply_to + b"\r\nSubject: Re: "
        + mail.subject.encode() + b"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        + move.encode() + b"\r\n"
    )


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_playing_a_mangled_reply_answers_and_every_queued_mail_can_be_built(app, edits):
    svc = svc_of(app)
    turns = [m for m in outbox(app, purpose="turn") if m.game_id is not None]
    public_id = turns[-1].subject.split("]")[0].split()[-1] if turns else start(app)
    if game_row(app, public_id).status != "active":
        public_id = start(app)
    raw = mangle(real_reply(app, public_id, legal(app, public_id)[0]), edits)

    result = svc.write(lambda s: replies.ingest(s, svc.ctx, raw))

    assert result.status in ("played", "rejected", "ignored")
    for row in outbox(app):
        build_message(row, svc.settings.mail_from)
