"""A sender that dies strands few mails: it holds a handful at a time, never the whole queue."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from sqlalchemy import select

from pbem.mail import outbox
from pbem.models import Outbox

from ..pipe import svc_of


class Died(BaseException):
    """The sender's process is killed in the middle of a pass."""


class DiesAtFirstSend:
    def send(self, message: EmailMessage) -> None:
        raise Died()

    def close(self) -> None:
        pass


class Keeps:
    def __init__(self) -> None:
        self.sent: list[EmailMessage] = []

    def send(self, message: EmailMessage) -> None:
        self.sent.append(message)

    def close(self) -> None:
        pass


def queue_mails(app: Any, count: int) -> None:
    svc = svc_of(app)
    with svc.db.write() as s:
        for n in range(count):
            outbox.queue(s, svc.ctx, purpose="signin", to=f"p{n}@example.org",
                         subject=f"mail {n}", text="hello", html=None, key=f"test.{n}")


def leased_until(app: Any) -> list[datetime]:
    with svc_of(app).db.read() as s:
        rows = s.scalars(select(Outbox).order_by(Outbox.id))
        return [r.next_attempt_at.replace(tzinfo=UTC) for r in rows]


def test_a_sender_killed_mid_pass_strands_only_the_mails_in_its_hand(app):
    queue_mails(app, 30)
    svc = svc_of(app)
    crash = datetime.now(UTC)

    with pytest.raises(Died):
        outbox.deliver_due(svc.db, DiesAtFirstSend(), svc.settings.mail_from, now=lambda: crash)

    stranded = [t for t in leased_until(app) if t > crash]
    assert 0 < len(stranded) <= 5
    assert len(stranded) <= outbox.CLAIM_BATCH
    assert all(t <= crash + outbox.LEASE for t in stranded)
    after = outbox.deliver_due(svc.db, Keeps(), svc.settings.mail_from,
                               now=lambda: crash + timedelta(seconds=1))
    assert after.sent == 30 - len(stranded), "the others are sent at once by the next pass"


def test_one_pass_still_sends_the_whole_queue_a_handful_at_a_time(app):
    queue_mails(app, 23)
    svc = svc_of(app)
    hop = Keeps()

    result = outbox.deliver_due(svc.db, hop, svc.settings.mail_from)

    assert result.sent == 23 and len(hop.sent) == 23
    assert outbox.pending_count(svc.db) == 0
