"""The outbox: mail over real SMTP, outages and retries, leases, the CLI and the maildir."""

from __future__ import annotations

import gc
import html
import mailbox
import re
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import parseaddr, parsedate_to_datetime
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from pbem.cli import ops
from pbem.mail import outbox, transport
from pbem.models import Outbox, Player
from pbem.web.app import create_app
from tests.smtp_sink import SmtpSink, _Keep

from ..pipe import BASE, PLAYERS, awaited, game_row, link_in, log, move, path_of, start, svc_of
from ..pipe import outbox as outbox_rows


def utc(moment: datetime) -> datetime:
    """A stored time as aware UTC (SQLite gives it back naive)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def deliver(app: Any, url: str, at: datetime | None = None, **kw: Any) -> outbox.Delivery:
    """One pass of the sender over SMTP, at a given moment."""
    svc = svc_of(app)
    clock = (lambda: at) if at else (lambda: datetime.now(UTC))
    hop = transport.SmtpTransport(url, timeout=5)
    return outbox.deliver_due(svc.db, hop, svc.settings.mail_from, now=clock, **kw)


def text_of(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return "\n".join(str(body.get_content()).splitlines())


def html_of(message: EmailMessage) -> str:
    body = message.get_body(("html",))
    assert body is not None
    return str(body.get_content())


def by_purpose(messages: list[EmailMessage], purpose: str, rows: list[Outbox]) -> list[Any]:
    ids = {r.message_id for r in rows if r.purpose == purpose}
    return [m for m in messages if m["Message-ID"] in ids]


def test_a_new_game_mails_invitations_and_the_first_turn_over_smtp(smtp_app, smtp_sink):
    before = datetime.now(UTC)
    public_id = start(smtp_app)
    rows = outbox_rows(smtp_app)
    assert sorted(r.purpose for r in rows) == ["invite", "invite", "turn"]

    result = deliver(smtp_app, smtp_sink.url)

    assert (result.sent, result.failed) == (3, 0)
    messages = smtp_sink.wait_for(3)
    assert len(messages) == 3
    assert sorted(smtp_sink.recipients) == sorted([[r.to_addr] for r in rows])
    game = game_row(smtp_app, public_id)
    for message in messages:
        assert message["From"] == "pbem <pbem@localhost>"
        assert parseaddr(message["To"])[1] in {email for email, _ in PLAYERS}
        # One subject for every mail of the game: Gmail keeps them in one conversation.
        assert message["Subject"] == f"Martian Frisby game {public_id}"
        list_id = f"Martian Frisby game {public_id} <{public_id}.games.localhost>"
        assert message["List-Id"] == list_id
        unsubscribe = message["List-Unsubscribe"].strip()
        assert unsubscribe.startswith(f"<{BASE}/unsubscribe/") and unsubscribe.endswith(">")
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        sent_at = parsedate_to_datetime(message["Date"])
        assert before - timedelta(seconds=2) <= sent_at <= datetime.now(UTC) + timedelta(seconds=2)
        assert message.is_multipart() and message.get_content_type() == "multipart/alternative"
        assert html_of(message).lstrip().startswith("<!doctype html>")
    message_ids = [m["Message-ID"] for m in messages]
    assert sorted(message_ids) == sorted(r.message_id for r in rows)
    assert len(set(message_ids)) == 3
    assert all(m.startswith("<") and m.endswith("@localhost>") for m in message_ids)

    (turn,) = by_purpose(messages, "turn", rows)
    text = text_of(turn)
    assert "S1 S2 S3" in text and "N1 N2 N3" in text  # the board: both nests at home
    assert f"Log head after event {game.head_seq}: {game.head_hash}" in text
    link = link_in(text, "play")
    assert link in html_of(turn)
    seat = awaited(smtp_app, public_id)
    assert f"It is your move in Martian Frisby game {public_id}, " in text
    assert parseaddr(turn["To"])[1] == PLAYERS[seat][0]

    invitations = by_purpose(messages, "invite", rows)
    commitment = log(smtp_app, public_id)[0].payload["commitment"]
    assert len(invitations) == 2
    for invitation in invitations:
        assert f"The dice commitment for this game is\n  {commitment}" in text_of(invitation)


def test_the_move_link_in_a_turn_mail_opens_the_seats_page(smtp_app, smtp_sink):
    public_id = start(smtp_app)
    deliver(smtp_app, smtp_sink.url)
    (turn,) = [m for m in smtp_sink.wait_for(3) if "It is your move" in text_of(m)]

    page = smtp_app.test_client().get(path_of(link_in(text_of(turn), "play")))

    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert public_id in body and 'name="nonce"' in body


def test_the_turn_mail_carries_the_dice_and_the_log_head_after_each_move(smtp_app, smtp_sink):
    public_id = start(smtp_app)
    move(smtp_app, public_id)
    game = game_row(smtp_app, public_id)
    deliver(smtp_app, smtp_sink.url)

    messages = smtp_sink.wait_for(4)
    turns = [m for m in messages if "It is your move" in text_of(m)]
    assert len(turns) == 2
    assert turns[0]["To"] != turns[1]["To"]
    latest = text_of(turns[-1])
    assert f"Log head after event {game.head_seq}: {game.head_hash}" in latest
    roll = [e for e in log(smtp_app, public_id) if e.kind == "roll"][-1]
    first, second = roll.payload["values"]
    assert f"rolled {first} and {second}" in latest and "Last turn: " in latest
    assert turns[0]["Message-ID"] != turns[1]["Message-ID"]


def test_message_ids_stay_the_same_when_a_mail_is_sent_again(smtp_app, smtp_sink):
    start(smtp_app)
    deliver(smtp_app, smtp_sink.url)
    first = {m["Message-ID"]: m["Date"] for m in smtp_sink.wait_for(3)}
    with svc_of(smtp_app).db.write() as s:
        for row in s.scalars(select(Outbox)):
            row.sent_at = None  # as if the acknowledgement had been lost
            row.next_attempt_at = datetime.now(UTC)

    deliver(smtp_app, smtp_sink.url)

    again = smtp_sink.wait_for(6)[3:]
    assert {m["Message-ID"]: m["Date"] for m in again} == first


def raw_header(message: EmailMessage, name: str) -> str:
    """A header as it travelled, unfolded but not decoded."""
    (value,) = [v for k, v in message.raw_items() if k.lower() == name.lower()]
    return "".join(str(value).splitlines()).strip()


def test_list_unsubscribe_travels_as_a_plain_url_even_with_a_long_base_url(
    smtp_settings, smtp_sink
):
    long_base = "https://play.martian-games.example.org/pbem"
    app = create_app({"SETTINGS": replace(smtp_settings, base_url=long_base), "TESTING": True})
    try:
        start(app)
        deliver(app, smtp_sink.url)
    finally:
        svc_of(app).db.dispose()

    for message in smtp_sink.wait_for(3):
        # Mail clients do not decode RFC 2047 words in List-Unsubscribe: the URL must be
        # on the wire as it is, in angle brackets.
        raw = raw_header(message, "List-Unsubscribe")
        assert "=?" not in raw
        assert raw.startswith(f"<{long_base}/unsubscribe/") and raw.endswith(">")
        assert raw_header(message, "Message-ID") == message["Message-ID"]


class StopAfter(transport.SmtpTransport):
    """An SMTP transport whose server goes down after a number of messages."""

    def __init__(self, sink: Any, sends: int) -> None:
        super().__init__(sink.url, timeout=5)
        self.sink = sink
        self.left = sends

    def send(self, message: EmailMessage) -> None:
        super().send(message)
        self.left -= 1
        if self.left == 0:
            self.sink.stop()


def test_an_smtp_outage_in_the_middle_loses_nothing_and_retries_with_backoff(smtp_app, smtp_sink):
    start(smtp_app)
    start(smtp_app, players=(("cy@example.org", "Cy"), ("di@example.org", "Di")))
    svc = svc_of(smtp_app)
    total = len(outbox_rows(smtp_app))
    assert total == 6
    t0 = datetime.now(UTC)

    result = outbox.deliver_due(
        svc.db, StopAfter(smtp_sink, 2), svc.settings.mail_from, now=lambda: t0
    )

    assert (result.sent, result.failed) == (2, 4)
    assert len(result.errors) == 4
    rows = outbox_rows(smtp_app)
    sent = [r for r in rows if r.sent_at is not None]
    waiting = [r for r in rows if r.sent_at is None]
    assert len(sent) == 2 and len(waiting) == 4
    assert all(r.attempts == 1 and r.last_error is None for r in sent)
    for row in waiting:
        assert row.attempts == 1
        assert row.last_error
        assert utc(row.next_attempt_at) == t0 + timedelta(minutes=1)
    assert outbox.pending_count(svc.db) == 4

    # Still down a minute later: the second failure waits twice as long.
    t1 = t0 + timedelta(minutes=1)
    result = deliver(smtp_app, smtp_sink.url, at=t1)
    assert (result.sent, result.failed) == (0, 4)
    for row in outbox_rows(smtp_app, sent_at=None):
        assert row.attempts == 2
        assert utc(row.next_attempt_at) == t1 + timedelta(minutes=2)

    smtp_sink.start()
    not_yet = deliver(smtp_app, smtp_sink.url, at=t1 + timedelta(minutes=1, seconds=59))
    assert (not_yet.sent, not_yet.failed) == (0, 0)

    result = deliver(smtp_app, smtp_sink.url, at=t1 + timedelta(minutes=2))

    assert (result.sent, result.failed) == (4, 0)
    messages = smtp_sink.wait_for(6)
    assert sorted(m["Message-ID"] for m in messages) == sorted(r.message_id for r in rows)
    assert outbox.pending_count(svc.db) == 0
    assert all(r.last_error is None for r in outbox_rows(smtp_app))
    final = deliver(smtp_app, smtp_sink.url, at=t1 + timedelta(hours=1))
    assert (final.sent, final.failed) == (0, 0)
    assert len(smtp_sink.messages) == 6


def test_backoff_doubles_and_stops_growing_at_six_hours():
    assert [outbox.backoff(n) for n in (1, 2, 3, 4)] == [timedelta(minutes=m) for m in (1, 2, 4, 8)]
    assert outbox.backoff(9) == timedelta(minutes=256)
    assert outbox.backoff(10) == timedelta(hours=6)
    assert outbox.backoff(60) == timedelta(hours=6)


def test_claimed_mails_are_not_taken_by_a_second_sender_until_the_lease_ends(smtp_app):
    start(smtp_app)
    db = svc_of(smtp_app).db
    now = datetime.now(UTC)

    first = outbox.claim(db, now, batch=50)
    second = outbox.claim(db, now + timedelta(seconds=1), batch=50)

    assert len(first) == 3 and second == []
    after_lease = outbox.claim(db, now + outbox.LEASE + timedelta(seconds=1), batch=50)
    assert sorted(r.id for r in after_lease) == sorted(r.id for r in first)


def test_two_concurrent_senders_claim_disjoint_mails(smtp_app):
    for n in range(3):
        start(smtp_app, players=((f"a{n}@example.org", None), (f"b{n}@example.org", None)))
    db = svc_of(smtp_app).db
    now = datetime.now(UTC)
    barrier = threading.Barrier(2, timeout=10)
    claimed: list[list[int]] = [[], []]
    errors: list[BaseException] = []

    def sender(i: int) -> None:
        try:
            barrier.wait()
            claimed[i] = [r.id for r in outbox.claim(db, now, batch=5)]
        except BaseException as e:  # reported below, in the test's thread
            errors.append(e)

    threads = [threading.Thread(target=sender, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)

    assert not errors
    assert not set(claimed[0]) & set(claimed[1])
    assert sorted(claimed[0] + claimed[1]) == [r.id for r in outbox_rows(smtp_app)][:9]
    assert len(claimed[0]) + len(claimed[1]) == 9


class SecondPassDuring(transport.SmtpTransport):
    """A transport that lets another sender run a whole pass while it holds its batch."""

    def __init__(self, app: Any, url: str) -> None:
        super().__init__(url, timeout=5)
        self.app = app
        self.url = url
        self.other: outbox.Delivery | None = None

    def send(self, message: EmailMessage) -> None:
        if self.other is None:
            self.other = deliver(self.app, self.url)
        super().send(message)


def test_a_second_sender_during_a_pass_sends_none_of_the_leased_mails(smtp_app, smtp_sink):
    start(smtp_app)
    svc = svc_of(smtp_app)
    transport = SecondPassDuring(smtp_app, smtp_sink.url)

    result = outbox.deliver_due(svc.db, transport, svc.settings.mail_from)

    assert transport.other == outbox.Delivery(0, 0)
    assert result.sent == 3
    messages = smtp_sink.wait_for(3)
    assert len({m["Message-ID"] for m in messages}) == len(messages) == 3


def test_a_sender_that_dies_holding_a_lease_loses_nothing(smtp_app, smtp_sink):
    start(smtp_app)
    db = svc_of(smtp_app).db
    now = datetime.now(UTC)
    outbox.claim(db, now, batch=50)  # and then the process is killed

    early = deliver(smtp_app, smtp_sink.url, at=now + outbox.LEASE - timedelta(seconds=1))
    late = deliver(smtp_app, smtp_sink.url, at=now + outbox.LEASE)

    assert (early.sent, late.sent) == (0, 3)
    assert len(smtp_sink.wait_for(3)) == 3


def test_the_send_mail_command_delivers_the_outbox_to_the_smtp_server(smtp_app, smtp_sink):
    public_id = start(smtp_app)

    result = smtp_app.test_cli_runner().invoke(args=["send-mail"])

    assert result.exit_code == 0, result.output
    assert "sent 3, failed 0" in result.output
    messages = smtp_sink.wait_for(3)
    assert all(public_id in m["Subject"] for m in messages)
    assert outbox.pending_count(svc_of(smtp_app).db) == 0


def test_the_send_mail_command_reports_an_outage_and_keeps_the_mail(smtp_app, smtp_sink):
    start(smtp_app)
    smtp_sink.stop()

    result = smtp_app.test_cli_runner().invoke(args=["send-mail"])

    assert result.exit_code == 0
    assert "sent 0, failed 3" in result.output
    assert outbox.pending_count(svc_of(smtp_app).db) == 3
    assert smtp_sink.messages == []


def test_with_no_smtp_configured_mail_goes_to_the_instance_maildir(app, runner, settings):
    public_id = start(app)
    rows = outbox_rows(app)

    result = runner.invoke(args=["send-mail"])

    assert result.exit_code == 0, result.output
    assert "sent 3, failed 0" in result.output
    box = mailbox.Maildir(settings.maildir, create=False)
    messages = [box.get_message(key) for key in box.keys()]
    assert sorted(m["Message-ID"] for m in messages) == sorted(r.message_id for r in rows)
    assert all(public_id in m["Subject"] for m in messages)
    assert outbox.pending_count(svc_of(app).db) == 0


def test_the_one_click_unsubscribe_header_stops_turn_mail(smtp_app, smtp_sink):
    public_id = start(smtp_app)
    deliver(smtp_app, smtp_sink.url)
    (turn,) = [m for m in smtp_sink.wait_for(3) if "It is your move" in text_of(m)]
    unsubscribe = turn["List-Unsubscribe"].strip().strip("<>")
    to = parseaddr(turn["To"])[1]

    # RFC 8058: the mail client POSTs this body, with no cookie and no CSRF token.
    response = smtp_app.test_client().post(
        path_of(unsubscribe), data={"List-Unsubscribe": "One-Click"}
    )

    assert response.status_code == 200
    with svc_of(smtp_app).db.read() as s:
        player = s.scalars(select(Player).where(Player.email == to)).one()
        assert player.mail_pref == "none"
    before = len(outbox_rows(smtp_app, to_addr=to))
    move(smtp_app, public_id)  # the unsubscribed seat moves, then the other one:
    move(smtp_app, public_id)  # now the unsubscribed seat must act again, unmailed
    assert len(outbox_rows(smtp_app, to_addr=to)) == before


def test_a_mail_that_has_failed_for_weeks_still_waits_six_hours(smtp_app, smtp_sink):
    start(smtp_app)
    with svc_of(smtp_app).db.write() as s:
        for row in s.scalars(select(Outbox)):
            row.attempts = 80  # six-hourly retries for three weeks
    smtp_sink.stop()
    t0 = datetime.now(UTC)

    result = deliver(smtp_app, smtp_sink.url, at=t0)

    assert (result.sent, result.failed) == (0, 3)
    for row in outbox_rows(smtp_app):
        assert row.attempts == 81
        assert utc(row.next_attempt_at) == t0 + timedelta(hours=6)


class RefusingSink(SmtpSink):
    """An SMTP server that refuses one recipient (550) and keeps the rest."""

    def __init__(self, refused: str) -> None:
        super().__init__()
        self.refused = refused

    def start(self) -> RefusingSink:
        sink = self

        class Handler(_Keep):
            async def handle_RCPT(self, server, session, envelope, address, options):
                if address == sink.refused:
                    return "550 5.1.1 no such mailbox"
                envelope.rcpt_tos.append(address)
                return "250 OK"

        self._controller = Controller(Handler(self), hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self


def test_a_refused_recipient_fails_alone_and_the_others_are_sent(settings):
    sink = RefusingSink("bob@example.org").start()
    app = create_app({"SETTINGS": replace(settings, smtp_url=sink.url), "TESTING": True})
    try:
        start(app)

        to_bob = len(outbox_rows(app, to_addr="bob@example.org"))
        to_ann = len(outbox_rows(app, to_addr="ann@example.org"))

        result = deliver(app, sink.url)

        assert (result.sent, result.failed) == (to_ann, to_bob), result.errors
        assert all(e.startswith("bob@example.org: ") for e in result.errors)
        refused = outbox_rows(app, sent_at=None)
        assert {r.to_addr for r in refused} == {"bob@example.org"}
        assert all("550" in (r.last_error or "") for r in refused)
        arrived = sink.wait_for(to_ann)
        assert [parseaddr(m["To"])[1] for m in arrived] == ["ann@example.org"] * to_ann
    finally:
        svc_of(app).db.dispose()
        sink.stop()


def test_player_names_are_escaped_in_html_mail_and_kept_in_text(smtp_app, smtp_sink):
    start(smtp_app, players=(("ann@example.org", "<b>Ann</b> & Co"), ("bob@example.org", "Bob")))
    deliver(smtp_app, smtp_sink.url)

    for message in smtp_sink.wait_for(3):
        if parseaddr(message["To"])[1] != "ann@example.org":
            continue
        assert "<b>Ann</b>" not in html_of(message)
        assert "&lt;b&gt;Ann&lt;/b&gt; &amp; Co" in html_of(message)
        assert "Hello <b>Ann</b> & Co," in text_of(message)


def test_a_server_without_starttls_or_auth_fails_each_mail_without_leaking_connections(
    smtp_app, smtp_sink
):
    start(smtp_app)
    svc = svc_of(smtp_app)
    urls = (smtp_sink.url + "?starttls=1", smtp_sink.url.replace("//", "//ann:pw@"))
    for hours, url in enumerate(urls, start=1):
        later = datetime.now(UTC) + timedelta(hours=hours * 10)
        hop = transport.SmtpTransport(url, timeout=5)

        result = outbox.deliver_due(
            svc.db, hop, svc.settings.mail_from, now=lambda at=later: at
        )
        gc.collect()  # an unclosed socket would warn here, and warnings are errors

        assert (result.sent, result.failed) == (0, 3), url
        assert hop._client is None
    assert smtp_sink.messages == []
    assert outbox.pending_count(svc.db) == 3


def test_the_mail_loop_survives_a_failed_pass_and_delivers_on_the_next(
    smtp_app, smtp_sink, monkeypatch
):
    start(smtp_app)
    real = outbox.deliver_due
    calls = []

    def flaky(*args, **kw):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("SELECT ...", {}, Exception("database restarting"))
        return real(*args, **kw)

    monkeypatch.setattr(outbox, "deliver_due", flaky)
    stop = threading.Event()
    failures: list[BaseException] = []

    def loop() -> None:
        try:
            with smtp_app.app_context():
                ops.deliver_forever(0.05, stop)
        except BaseException as e:  # reported in the test's thread
            failures.append(e)

    sender = threading.Thread(target=loop)
    sender.start()
    try:
        arrived = smtp_sink.wait_for(3, timeout=10)
    finally:
        stop.set()
        sender.join(timeout=10)

    assert not failures
    assert len(arrived) == 3 and len(calls) >= 2


def test_the_local_mailbox_page_shows_maildir_mail_only_in_debug_mode(app, runner, client):
    public_id = start(app)
    runner.invoke(args=["send-mail"])

    assert client.get("/dev/mail/").status_code == 404
    app.debug = True
    index = client.get("/dev/mail/")

    assert index.status_code == 200
    page = html.unescape(index.get_data(as_text=True))
    assert page.count(f"Martian Frisby game {public_id}") == 3
    keys = re.findall(r'href="/dev/mail/([^"]+)"', index.get_data(as_text=True))
    assert len(keys) == 3
    shown = [client.get(f"/dev/mail/{key}").get_data(as_text=True) for key in keys]
    assert any(BASE + "/play/" in html.unescape(text) for text in shown)


class Recording:
    """A transport that keeps what it is given, or fails every mail with one error."""

    def __init__(self, error: str | None = None) -> None:
        self.sent: list[EmailMessage] = []
        self.error = error
        self.closed = False

    def send(self, message: EmailMessage) -> None:
        if self.error is not None:
            raise OSError(self.error)
        self.sent.append(message)

    def close(self) -> None:
        self.closed = True


def queue_mails(app: Any, count: int) -> None:
    svc = svc_of(app)

    def add(s: Any) -> None:
        for i in range(count):
            outbox.queue(
                s,
                svc.ctx,
                purpose="signin",
                to=f"p{i}@example.org",
                subject=f"mail {i}",
                text="hello",
                html=None,
                key=f"test.{i}",
            )

    svc.write(add)


def test_a_pass_sends_at_most_its_limit_oldest_first(app):
    queue_mails(app, 12)
    svc = svc_of(app)
    hop = Recording()

    result = outbox.deliver_due(svc.db, hop, svc.settings.mail_from, limit=10)

    assert (result.sent, result.failed) == (10, 0) and hop.closed
    assert [m["To"] for m in hop.sent] == [f"p{i}@example.org" for i in range(10)]
    assert outbox.pending_count(svc.db) == 2
    (oldest,) = outbox.claim(svc.db, datetime.now(UTC), batch=1)
    assert oldest.to_addr == "p10@example.org"


def test_the_default_pass_limit_is_five_hundred_mails():
    import inspect

    limit = inspect.signature(outbox.deliver_due).parameters["limit"].default
    assert limit == outbox.PASS_LIMIT == 500


def test_a_failed_mail_keeps_the_first_2000_characters_of_its_error(app):
    queue_mails(app, 1)
    svc = svc_of(app)
    hop = Recording(error="refused " + "x" * 3000)

    result = outbox.deliver_due(svc.db, hop, svc.settings.mail_from)

    assert (result.sent, result.failed) == (0, 1) and hop.closed
    (row,) = outbox_rows(app)
    assert row.last_error == ("refused " + "x" * 3000)[:2000]
    assert row.sent_at is None and row.attempts == 1


def test_a_sender_skips_the_mails_another_sender_holds_instead_of_taking_or_waiting(smtp_app):
    db = svc_of(smtp_app).db
    if db.is_sqlite:
        pytest.skip("SQLite senders queue on the one write lock; PostgreSQL must skip locked rows")
    start(smtp_app)
    now = datetime.now(UTC)
    holding, release = threading.Event(), threading.Event()

    class Holding(datetime):
        """A clock reading that stops the first sender inside its claim, locks taken."""

        def __add__(self, other: Any) -> Any:
            holding.set()
            release.wait(10)
            return datetime.__add__(self, other)

    claimed: dict[str, list[int]] = {}
    errors: list[BaseException] = []

    def sender(name: str, at: datetime) -> None:
        try:
            claimed[name] = [r.id for r in outbox.claim(db, at, batch=50)]
        except BaseException as e:  # reported in the test's thread
            errors.append(e)

    held = Holding.fromtimestamp(now.timestamp(), UTC)
    first = threading.Thread(target=sender, args=("first", held))
    second = threading.Thread(target=sender, args=("second", now))
    first.start()
    try:
        assert holding.wait(10), "the first sender never reached its lease"
        second.start()
        second.join(timeout=10)
        done_while_held = not second.is_alive()
    finally:
        release.set()
        first.join(timeout=10)
        second.join(timeout=10)

    assert not errors
    assert done_while_held, "the second sender waited for the first one's lock"
    assert claimed["second"] == [] and len(claimed["first"]) == 3


def test_message_ids_and_list_ids_take_the_domain_of_the_sender_address():
    assert outbox.domain_of("pbem <pbem@mail.example.org>") == "mail.example.org"
    assert outbox.domain_of("pbem@example.org") == "example.org"
    assert outbox.domain_of("pbem") == "localhost"
    assert outbox.domain_of("") == "localhost"


def test_a_queued_mail_is_due_at_once_with_a_message_id_on_the_senders_domain(app):
    svc = svc_of(app)
    ctx = replace(svc.ctx, mail_from="pbem <games@mars.example>")
    before = datetime.now(UTC)

    def add(s: Any) -> None:
        outbox.queue(
            s,
            ctx,
            purpose="signin",
            to="p@example.org",
            subject="s",
            text="t",
            html=None,
            key="signin.1",
        )

    svc.write(add)

    (row,) = outbox_rows(app)
    # Signed, so that nobody can name a mail of ours in a forged reply or bounce.
    assert row.message_id == f"<signin.1.{svc.signer.mac('signin.1', 'message-id')}@mars.example>"
    assert (row.attempts, row.sent_at, row.last_error) == (0, None, None)
    assert before <= utc(row.next_attempt_at) == utc(row.created_at) <= datetime.now(UTC)
