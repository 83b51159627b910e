"""The outbox: queue a mail in the caller's transaction; deliver due mails with backoff."""

from __future__ import annotations

import email.errors
import functools
import json
import smtplib
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime, parseaddr
from typing import Any, cast

from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from ..context import Context
from ..db import Database
from ..models import Outbox, Player
from ..text import bounded, one_line
from .outgoing import Outgoing
from .transport import SmtpTransport, Transport
from .wire import Mail

LEASE = timedelta(minutes=5)  # a claimed mail not marked sent by then is tried again
# A sender holds this many mails at a time: one that dies strands these few for a lease,
# not the whole queue. (Five sends at the SMTP timeout of 30 s fit well within a lease.)
CLAIM_BATCH = 5
PASS_LIMIT = 500  # mails per pass, so that a long queue lets the loop's other work run
MAX_BACKOFF = timedelta(hours=6)
OUTBOX = cast(Table, Outbox.__table__)
PLAYERS = cast(Table, Player.__table__)
# A mail to an address that bounced for good is held as it is queued (in the same statement).
HELD = (
    select(bindparam("held_now", type_=OUTBOX.c.held_at.type))
    .where(PLAYERS.c.email == bindparam("held_to"), PLAYERS.c.mail_failing_at.is_not(None))
    .scalar_subquery()
)
# Queue a mail unless one with its Message-ID is queued already, in each database's words.
ADD = {
    "postgresql": postgresql.insert(OUTBOX)
    .values(held_at=HELD)
    .on_conflict_do_nothing(index_elements=["message_id"]),
    "sqlite": sqlite.insert(OUTBOX)
    .values(held_at=HELD)
    .on_conflict_do_nothing(index_elements=["message_id"]),
}
# Mails a person asks for now are sent even to a failing address: asking is a sign of life.
NEVER_HELD = frozenset({"signin", "fresh-link", "command"})
# RFC 3834: every mail of ours is automatic; an answer to a mail is an automatic reply.
ANSWERS = frozenset({"reply", "command"})
SUBJECT_LIMIT = 300  # the subject column's size
# What a message that can never be built or handed over as it is raises: set it aside.
UNSENDABLE = (ValueError, TypeError, LookupError, email.errors.MessageError)


@functools.lru_cache(maxsize=64)  # a server has one or two From addresses
def domain_of(address: str) -> str:
    """The domain part of a From address, for Message-IDs and List-Ids."""
    _, at, domain = parseaddr(address)[1].rpartition("@")
    return domain if at and domain else "localhost"


def message_id_for(ctx: Context, key: str) -> str:
    """The Message-ID of the mail `key` names: stable, and signed so that nobody can guess it.

    A reply's In-Reply-To and a bounce's returned headers name our mail by it; the signature
    keeps a forger from naming a mail that was not sent to them.
    """
    key = one_line(key)
    return bounded(f"<{key}.{ctx.signer.mac(key, 'message-id')}@{domain_of(ctx.mail_from)}>", 255)


def queue(
    session: Session,
    ctx: Context,
    *,
    purpose: str,
    to: str,
    subject: str,
    text: str,
    html: str | None,
    key: str,
    game_id: int | None = None,
    headers: dict[str, str] | None = None,
) -> str:
    """Add a mail to the outbox; return its Message-ID, which `key` keeps stable.

    Header values are made one line here (a CR or LF would forge headers, and cannot be
    built into a message), and the subject is cut to fit its column. A mail with the same
    Message-ID is the same mail: queueing it again (a reply mail delivered twice) keeps the
    one already queued. Every mail says it is automatic (RFC 3834), so that responders
    leave it alone; a mail to an address that bounced for good is held (`held_at`).
    """
    now = datetime.now(UTC)
    message_id = message_id_for(ctx, key)
    extra = {
        "Auto-Submitted": "auto-replied" if purpose in ANSWERS else "auto-generated",
        # Exchange and Outlook send no out-of-office answer to a mail that asks for none.
        "X-Auto-Response-Suppress": "OOF, AutoReply",
        **{name: one_line(value) for name, value in (headers or {}).items()},
    }
    row = {
        "message_id": message_id,
        "purpose": purpose,
        "game_id": game_id,
        "to_addr": to,
        "subject": one_line(subject, SUBJECT_LIMIT),
        "body_text": text,
        "body_html": html,
        "headers": json.dumps({"Date": format_datetime(now), **extra}),
        "created_at": now,
        "attempts": 0,
        "next_attempt_at": now,
        "held_to": to,
        "held_now": None if purpose in NEVER_HELD else now,
    }
    # One statement, no ORM object, on the session's connection (nothing pending in the
    # session needs flushing first): the unique Message-ID keeps the first of two alike.
    session.connection().execute(ADD[session.get_bind().dialect.name], row)
    return message_id


def backoff(attempts: int) -> timedelta:
    """How long to wait after a failed attempt: 1, 2, 4 ... minutes, at most six hours."""
    # Cap the exponent: 2**n minutes overflows timedelta after some forty failures.
    return min(timedelta(minutes=2 ** min(max(attempts - 1, 0), 16)), MAX_BACKOFF)


@dataclass(frozen=True)
class Delivery:
    """What one pass over the outbox did: sent, failed (to retry), and set aside (never)."""

    sent: int
    failed: int
    errors: tuple[str, ...] = ()
    set_aside: tuple[str, ...] = ()


def claim(db: Database, now: datetime, batch: int) -> list[Outbox]:
    """Take due mails and lease them, so that no other sender takes them meanwhile."""
    with db.write() as session:
        return _lease(session, db, now, batch)


def _lease(session: Session, db: Database, now: datetime, batch: int) -> list[Outbox]:
    """Take and lease up to `batch` due mails in the session's transaction."""
    query = (
        select(Outbox)
        .where(
            Outbox.sent_at.is_(None),
            Outbox.failed_at.is_(None),
            Outbox.held_at.is_(None),
            Outbox.next_attempt_at <= now,
        )
        .order_by(Outbox.id)
        .limit(batch)
    )
    if not db.is_sqlite:
        query = query.with_for_update(skip_locked=True)
    rows = list(session.scalars(query))
    for row in rows:
        row.next_attempt_at = now + LEASE
    return rows


def deliver_due(
    db: Database,
    transport: Transport,
    mail_from: str | Outgoing,
    *,
    batch: int = CLAIM_BATCH,
    limit: int = PASS_LIMIT,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> Delivery:
    """Send every due mail once; failures wait with exponential backoff.

    A mail that cannot be built or handed over as it is gets set aside with the reason
    (`pbem mail failed` lists it), so that it never holds up the mails behind it.

    Each attempt is recorded before the next mail is handed over, so that a sender killed
    at any moment sends again at most the mail in its hand. The record commits on a thread of
    its own while the next mail's SMTP exchange runs up to its end of data.
    """
    out = mail_from if isinstance(mail_from, Outgoing) else Outgoing(mail_from)
    sent = failed = 0
    errors: list[str] = []
    aside: list[str] = []
    recording: Future[list[Outbox]] | None = None

    def recorded() -> list[Outbox]:
        """Wait for the last attempt's record; the next batch if that leased one."""
        return recording.result() if recording is not None else []

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="outbox-record") as recorder:
        try:
            rows = claim(db, now(), min(batch, limit)) if limit > 0 else []
            while rows:
                failed_before = failed
                for n, row in enumerate(rows, 1):
                    error: str | None = None
                    unsendable = False
                    try:
                        _hand_over(transport, out.mail(row), recorded)
                    except (smtplib.SMTPException, OSError) as e:
                        failed += 1
                        errors.append(f"{row.to_addr}: {e}")
                        error = str(e)
                    except UNSENDABLE as e:
                        error = f"cannot be sent as it is ({type(e).__name__}: {e})"
                        aside.append(f"mail {row.id} to {row.to_addr} set aside: {error}")
                        unsendable = True
                    else:
                        sent += 1
                    recorded()  # also when the send failed before it waited
                    # The next batch is leased with the last attempt of this one, unless
                    # nothing got through: the next hop is down, the next pass tries again.
                    more = 0
                    if n == len(rows) and failed - failed_before < len(rows):
                        more = min(batch, limit - sent - failed - len(aside))
                    recording = recorder.submit(
                        _record, db, row, error=error, unsendable=unsendable, more=more, now=now
                    )
                rows = recorded()
        finally:
            transport.close()
    return Delivery(sent, failed, tuple(errors), tuple(aside))


def _hand_over(transport: Transport, mail: Mail, ready: Callable[[], object]) -> None:
    """Send a mail once `ready` returns: over SMTP, only its end of data waits."""
    if isinstance(transport, SmtpTransport):
        transport.ready = ready
        try:
            transport.send(mail)
        finally:
            transport.ready = None
    else:
        ready()
        transport.send(mail)


def _record(
    db: Database,
    row: Outbox,
    *,
    error: str | None,
    unsendable: bool,
    more: int,
    now: Callable[[], datetime],
) -> list[Outbox]:
    """Record one attempt, and lease `more` due mails in the same transaction."""
    with db.write() as session:
        _mark(session, row, error=error, when=now(), set_aside=unsendable)
        return _lease(session, db, now(), more) if more > 0 else []


def _mark(
    session: Session, row: Outbox, *, error: str | None, when: datetime, set_aside: bool = False
) -> None:
    """Record one attempt of a claimed mail in one UPDATE (its lease keeps other senders off)."""
    attempts = row.attempts + 1
    values: dict[str, Any] = {"attempts": attempts}
    if error is None:
        values.update(sent_at=when, last_error=None)
    else:
        values.update(last_error=error[:2000], next_attempt_at=when + backoff(attempts))
    if set_aside:
        values["failed_at"] = when
    # On the connection: a plain UPDATE needs none of the session's bookkeeping.
    session.connection().execute(update(OUTBOX).where(OUTBOX.c.id == row.id).values(**values))


def pending_count(db: Database) -> int:
    """How many mails are still to be sent (mails set aside are not)."""
    with db.read() as session:
        query = (
            select(func.count())
            .select_from(Outbox)
            .where(Outbox.sent_at.is_(None), Outbox.failed_at.is_(None), Outbox.held_at.is_(None))
        )
        return int(session.scalar(query) or 0)


def set_aside(db: Database) -> list[Outbox]:
    """Every mail set aside, oldest first."""
    with db.read() as session:
        query = select(Outbox).where(Outbox.failed_at.is_not(None)).order_by(Outbox.id)
        return list(session.scalars(query))


def retry(db: Database, row_id: int, when: datetime) -> bool:
    """Put a mail set aside back in line (after fixing what stopped it); False if no such."""
    with db.write() as session:
        row = session.get(Outbox, row_id)
        if row is None or row.failed_at is None:
            return False
        row.failed_at = None
        row.next_attempt_at = when
        return True
