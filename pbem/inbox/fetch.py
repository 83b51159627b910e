"""`pbem fetch-mail`: take in each new mail of an IMAP mailbox exactly once.

A mail is fetched, taken in and committed in one transaction, then marked and moved to the
processed folder. Killed before the commit, it is still waiting and is taken in next time;
killed after the commit and before the move, it is known by its digest and only moved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session

from ..clock import utcnow
from ..context import Context
from ..mail.imap import TOO_OLD, Mailbox
from . import route

PASS_LIMIT = 200  # mails taken in per pass: a long queue lets the loop's other work run


@dataclass
class Fetched:
    """What one pass did, for the log."""

    taken: int = 0
    moved_unread: int = 0
    finished: int = 0  # committed before, moved now
    lines: list[str] = field(default_factory=list)


def fetch_pass(
    box: Mailbox,
    write: Callable[[Callable[[Session], Any]], Any],
    ctx: Context,
    say: Callable[[str], None],
    limit: int = PASS_LIMIT,
) -> Fetched:
    """Take in the waiting mails (at most `limit`); each step is said as it happens."""
    done = Fetched()
    where = box.settings.where
    finished = box.marked_done()
    if finished:  # committed by a fetcher that stopped before moving them
        box.done(finished)
        done.finished = len(finished)
        say(f"{len(finished)} mails taken in before, moved now")
    cutoff = (utcnow() - timedelta(days=box.settings.max_age_days)).date()
    old = box.older_than(cutoff)
    if old:
        box.done(old, TOO_OLD)
        done.moved_unread = len(old)
        say(f"{len(old)} mails older than {box.settings.max_age_days} days (UIDs {old[0]} to "
            f"{old[-1]}) moved to {box.settings.processed} unread, flagged {TOO_OLD}")
    for uid in box.waiting()[:limit]:
        raw = box.fetch(uid)
        if raw is None:
            say(f"mail UID {uid} is gone from the mailbox")
            continue
        say(f"mail UID {uid} fetched ({len(raw)} bytes)")
        source = f"imap {where} uidvalidity {box.uidvalidity} uid {uid}"

        def take(session: Session, raw: bytes = raw, source: str = source) -> route.Received:
            return route.receive(session, ctx, raw, source)

        result = write(take)
        say(f"mail UID {uid}: {result}")
        box.done([uid])
        done.taken += 1
    return done
