"""Our own mails found again by Message-ID: what a reply answers, what a bounce returns."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..models import Outbox
from .inbound import ADDRESS_REF, ADDRESS_TAG


def by_message_ids(session: Session, ids: Iterable[str]) -> list[Outbox]:
    """The mails of ours with these Message-IDs, in the order the ids were given."""
    wanted = [i for i in ids if i][:20]
    if not wanted:
        return []
    rows = {r.message_id: r for r in session.scalars(select(Outbox).where(
        Outbox.message_id.in_(wanted)
    ))}
    return [rows[i] for i in wanted if i in rows]


def reply_ref_of(row: Outbox) -> str | None:
    """The reply reference a sent mail's Reply-To carried, if it invited a reply."""
    try:
        reply_to = json.loads(row.headers).get("Reply-To", "")
    except ValueError:
        return None
    found = ADDRESS_REF.search(str(reply_to))
    return found[1].lower() if found else None


def answered_ref(session: Session, answers: Iterable[str]) -> str | None:
    """The reply reference of the newest mail of ours that a mail answers, if any.

    For providers that drop the plus address: the reply still names our mail in its
    In-Reply-To or References, and our Message-IDs are signed, so they cannot be guessed.
    """
    for row in by_message_ids(session, answers):
        ref = reply_ref_of(row)
        if ref is not None:
            return ref
    return None


def answered_tag(session: Session, answers: Iterable[str]) -> str | None:
    """The confirmation tag ("c7.MAC") of the newest mail of ours that a mail answers."""
    for row in by_message_ids(session, answers):
        try:
            reply_to = str(json.loads(row.headers).get("Reply-To", ""))
        except ValueError:
            continue
        found = ADDRESS_TAG.search(reply_to)
        if found and found[1].lower().startswith("c"):
            return found[1].lower()
    return None


def recent_count(
    session: Session, to: str, purposes: tuple[str, ...], within: timedelta = timedelta(hours=1)
) -> int:
    """How many mails of these purposes were queued to an address lately."""
    since = datetime.now(UTC) - within
    query = (
        select(func.count())
        .select_from(Outbox)
        .where(Outbox.to_addr == to, Outbox.purpose.in_(purposes), Outbox.created_at >= since)
    )
    return int(session.scalar(query) or 0)
