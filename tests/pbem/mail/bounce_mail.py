"""Helpers for the bounce tests: deliver as the server does, and bounces filled from fixtures."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbem.inbox import route
from pbem.mail import outbox, outgoing, transport

from ..pipe import svc_of

BOUNCES = Path(__file__).parent / "data" / "bounces"


def send_all(app: Any, url: str) -> outbox.Delivery:
    """One pass of the server's own sender (VERP return paths, DKIM when set up) over SMTP."""
    svc = svc_of(app)
    hop = transport.SmtpTransport(url, timeout=5)
    out = outgoing.for_settings(svc.settings, svc.signer)
    return outbox.deliver_due(svc.db, hop, out, now=lambda: datetime.now(UTC))


def bounce(name: str, *, envelope: str, recipient: str, message_id: str) -> bytes:
    """A fixture bounce, as its MTA writes it, about one of our mails."""
    text = (BOUNCES / name).read_text()
    for key, value in (("ENVELOPE", envelope), ("RECIPIENT", recipient),
                       ("MESSAGE_ID", message_id)):
        text = text.replace("{" + key + "}", value)
    return text.replace("\n", "\r\n").encode()


def receive(app: Any, raw: bytes, source: str = "test") -> route.Received:
    """Take a mail in as `pbem ingest-mail` does."""
    svc = svc_of(app)
    return svc.write(lambda s: route.receive(s, svc.ctx, raw, source))
