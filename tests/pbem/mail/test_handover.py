"""A mail is handed over only once the attempt before it is on record, even over a held SMTP end."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import func, select

from pbem.errors import Busy
from pbem.mail import outbox, transport
from pbem.models import Outbox
from tests.smtp_sink import SmtpSink, _Keep

from ..pipe import svc_of


def queue_mails(app: Any, count: int) -> None:
    svc = svc_of(app)
    with svc.db.write() as s:
        for n in range(count):
            outbox.queue(s, svc.ctx, purpose="signin", to=f"p{n}@example.org",
                         subject=f"mail {n}", text=f"hello {n}", html=None, key=f"test.{n}")


def sent_on_record(app: Any) -> int:
    with svc_of(app).db.read() as s:
        query = select(func.count()).select_from(Outbox).where(Outbox.sent_at.is_not(None))
        return int(s.scalar(query) or 0)


class WitnessSink(SmtpSink):
    """An SMTP server that notes, as each mail arrives, how many earlier ones are on record."""

    def __init__(self, app: Any) -> None:
        super().__init__()
        self.app = app
        self.on_record: list[int] = []

    def start(self) -> WitnessSink:
        sink = self

        class Handler(_Keep):
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                sink.on_record.append(sent_on_record(sink.app))
                return await super().handle_DATA(server, session, envelope)

        self._controller = Controller(Handler(self), hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self


def test_every_mail_reaches_the_server_only_after_the_one_before_it_is_on_record(app):
    queue_mails(app, 12)
    svc = svc_of(app)
    sink = WitnessSink(app).start()
    try:
        result = outbox.deliver_due(svc.db, transport.SmtpTransport(sink.url, timeout=5),
                                    svc.settings.mail_from)
        sink.wait_for(12)
    finally:
        sink.stop()

    assert result.sent == 12 and sent_on_record(app) == 12
    assert all(on_record >= n for n, on_record in enumerate(sink.on_record))
    assert len(sink.on_record) == 12


def test_a_record_that_fails_keeps_the_held_mail_from_the_server(app, smtp_sink, monkeypatch):
    queue_mails(app, 8)
    svc = svc_of(app)
    real = outbox._mark
    marks: list[int] = []

    def fails_second(session: Any, row: Outbox, **kw: Any) -> None:
        marks.append(row.id)
        if len(marks) == 2:
            raise Busy("the database is busy")
        real(session, row, **kw)

    monkeypatch.setattr(outbox, "_mark", fails_second)
    hop = transport.SmtpTransport(smtp_sink.url, timeout=5)

    with pytest.raises(Busy):
        outbox.deliver_due(svc.db, hop, svc.settings.mail_from)

    assert hop._client is None
    arrived = [str(m["Subject"]) for m in smtp_sink.wait_for(2)]
    assert arrived == ["mail 0", "mail 1"], "the third mail's end of data was never sent"
    assert sent_on_record(app) == 1
    monkeypatch.setattr(outbox, "_mark", real)
    after_lease = datetime.now(UTC) + outbox.LEASE + timedelta(seconds=1)
    again = outbox.deliver_due(svc.db, transport.SmtpTransport(smtp_sink.url, timeout=5),
                               svc.settings.mail_from, now=lambda: after_lease)
    assert again.sent == 7, "only the mail whose record failed is sent again"
    assert sorted(str(m["Subject"]) for m in smtp_sink.wait_for(9)) == sorted(
        ["mail 1", *(f"mail {n}" for n in range(8))]
    )


def test_a_transport_of_its_own_gets_each_mail_after_the_one_before_is_on_record(app):
    queue_mails(app, 7)
    svc = svc_of(app)
    seen: list[int] = []

    class Counting:
        def send(self, message: Any) -> None:
            seen.append(sent_on_record(app))

        def close(self) -> None:
            pass

    result = outbox.deliver_due(svc.db, Counting(), svc.settings.mail_from)

    assert result.sent == 7 and seen == list(range(7))
