"""Every mail that comes in, once: a bounce, automatic mail (dropped), a reply that plays,
a confirmation of commands, or a mail of commands. Each is kept with what it did."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..clock import utcnow
from ..context import Context
from ..errors import StaleTurn
from ..mail import failing, inbound, sent
from ..models import InboundMail
from ..play import replies
from ..text import bounded, one_line
from . import answers


@dataclass(frozen=True)
class Received:
    """What became of a mail: its kind, a status and a sentence for the log."""

    kind: str  # bounce | automatic | reply | confirm | command | duplicate
    status: str
    message: str

    def __str__(self) -> str:
        return f"{self.kind}, {self.status}: {self.message}"


def digest_of(raw: bytes) -> str:
    """What names a mail once and for all: the SHA-256 of its bytes."""
    return hashlib.sha256(raw).hexdigest()


def seen(session: Session, digest: str) -> bool:
    """Whether this mail came in before."""
    return session.scalar(select(InboundMail.id).where(InboundMail.digest == digest)) is not None


def receive(session: Session, ctx: Context, raw: bytes, source: str) -> Received:
    """Route a mail and keep it with its outcome, in the caller's transaction.

    The same bytes a second time do nothing (an MTA's retry, a fetcher killed after its
    commit): the digest is written first, so two processes racing on one mail take turns.
    """
    digest = digest_of(raw)
    if seen(session, digest):
        return Received("duplicate", "ignored", "this mail came in before: nothing done again")
    reply = inbound.parse(raw)
    row = InboundMail(
        digest=digest, source=bounded(one_line(source), 200), sender=reply.sender[:320],
        kind="new", outcome="", received_at=utcnow(),
    )
    session.add(row)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError as e:
        raise StaleTurn("another process is taking in this same mail") from e
    result = dispatch(session, ctx, raw, reply)
    row.kind = result.kind
    row.outcome = bounded(f"{result.status}: {result.message}", 2000)
    return result


def dispatch(session: Session, ctx: Context, raw: bytes, reply: inbound.Reply) -> Received:
    """Send a mail where it belongs."""
    tag = reply.tag
    if (tag or "").startswith("b") or reply.bounce:
        message = message_from_bytes(raw, policy=default)
        assert isinstance(message, EmailMessage)
        return Received("bounce", "done", failing.receive(session, ctx, message, tag))
    if reply.automatic:
        return Received("automatic", "ignored", f"neither answered nor played: {reply.automatic}")
    if tag is None and reply.ref is None:
        tag = sent.answered_tag(session, reply.answers)
    if tag is not None and tag.startswith("c"):
        return Received("confirm", *answers.confirm(session, ctx, replace(reply, tag=tag)))
    ref = replies.reference(session, reply)
    if ref is not None:
        played = replies.play_reply(session, ctx, replace(reply, ref=ref))
        return Received("reply", played.status, played.message)
    return Received("command", *answers.run(session, ctx, reply))
