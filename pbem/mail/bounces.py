"""Bounces read: delivery status notifications (RFC 3464) and the usual older forms.

Each failed recipient comes out as hard (the address does not work), soft (it may work
later: a full mailbox, a refusal by policy, a temporary failure the sender gave up on) or
delayed (the receiving side still tries). The returned original's Message-ID, when the
bounce quotes it, names the mail that bounced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.utils import parseaddr

from flufl.bounce import all_failures

from ..text import one_line

STATUS = re.compile(r"\b([245])\.(\d{1,3})\.(\d{1,3})\b")
# Class 5 statuses that say nothing against the address itself: a full mailbox, a message
# too big, a refusal by policy (spam filters). They are retried like temporary failures.
SOFT_PERMANENT = ("5.2.2", "5.3.4", "5.7.")
DIAGNOSTIC_LIMIT = 500
# What the older, free-text bounces say about a dead address or a passing problem.
HARD_WORDS = re.compile(
    r"user unknown|no such (user|mailbox|recipient)|does not exist|address rejected|"
    r"unknown (user|recipient)|mailbox unavailable|recipient not found|invalid recipient|"
    r"permanent error|account (is )?disabled",
    re.I,
)
MESSAGE_ID = re.compile(r"^message-id:\s*(<[^<>\s]+>)", re.I | re.M)


@dataclass(frozen=True)
class Failure:
    """One recipient a bounce reports: its address, how bad, the status and the reason."""

    address: str
    kind: str  # hard | soft | delayed
    status: str
    diagnostic: str


@dataclass(frozen=True)
class Report:
    """What a bounce says: the failed recipients and the Message-ID of the returned mail."""

    failures: tuple[Failure, ...]
    original_id: str | None
    problem: str | None = None  # why nothing could be read from it, when nothing could


def classify(action: str, status: str) -> str | None:
    """hard, soft, delayed, or None for a report that is no failure (delivered, relayed)."""
    action = action.strip().lower()
    if action == "delayed":
        return "delayed"
    if action != "failed":
        return None
    if status.startswith("5.") and not status.startswith(SOFT_PERMANENT):
        return "hard"
    return "soft"


def read(message: EmailMessage) -> Report:
    """Read a bounce as well as it can be read; a `problem` says what could not be."""
    original = original_id(message)
    try:
        failures = dsn_failures(message)
        if not failures:
            failures = free_text_failures(message)
    except Exception as e:  # a malformed bounce must never stop the mail that follows it
        return Report((), original, f"the bounce could not be read ({type(e).__name__}: {e})")
    if not failures:
        return Report((), original, "the bounce names no failed recipient that can be read")
    return Report(tuple(failures), original)


def dsn_failures(message: Message) -> list[Failure]:
    """The recipients of the message/delivery-status parts (RFC 3464)."""
    found = []
    for part in message.walk():
        if part.get_content_type() != "message/delivery-status" or not part.is_multipart():
            continue
        blocks = part.get_payload()
        for block in blocks[1:] if isinstance(blocks, list) else []:
            if not isinstance(block, Message):
                continue  # the first block is about the message, the rest recipients
            address = parseaddr(str(block.get("Final-Recipient", "")).partition(";")[2])[1]
            original = parseaddr(str(block.get("Original-Recipient", "")).partition(";")[2])[1]
            status_found = STATUS.search(str(block.get("Status", "")))
            status = status_found[0] if status_found else ""
            kind = classify(str(block.get("Action", "")), status)
            if kind is None or not (original or address):
                continue
            diagnostic = str(block.get("Diagnostic-Code", "")).partition(";")[2] or status
            found.append(Failure((original or address).lower(), kind, status, clean(diagnostic)))
    return found


def free_text_failures(message: Message) -> list[Failure]:
    """The recipients of a bounce in free text (Exim, qmail and others), by flufl.bounce."""
    temporary, permanent = all_failures(message)
    text = body_text(message)
    status_found = STATUS.search(text)
    status = status_found[0] if status_found else ""
    found = []
    for addresses, kind in ((permanent, "hard"), (temporary, "soft")):
        for raw in sorted(addresses):
            address = raw.decode("ascii", "replace").lower()
            if kind == "hard" and status.startswith(SOFT_PERMANENT):
                kind = "soft"
            found.append(Failure(address, kind, status, clean(reason_near(text, address))))
    return found


def body_text(message: Message) -> str:
    """The text parts of a bounce, joined."""
    texts = []
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                texts.append(payload.decode("utf-8", "replace"))
    return "\n".join(texts)


def reason_near(text: str, address: str) -> str:
    """The lines after the failed address in a free-text bounce: the remote server's words."""
    lines = [line.strip() for line in text.splitlines()]
    for n, line in enumerate(lines):
        if address in line.lower():
            after = [x for x in lines[n + 1 : n + 6] if x]
            words = [x for x in after if STATUS.search(x) or HARD_WORDS.search(x)]
            return " ".join(words or after[:2]) or line
    return ""


def original_id(message: Message) -> str | None:
    """The Message-ID of the returned original (message/rfc822 or text/rfc822-headers)."""
    for part in message.walk():
        kind = part.get_content_type()
        if kind == "message/rfc822" and part.is_multipart():
            inner = part.get_payload()
            first = inner[0] if isinstance(inner, list) and inner else None
            if isinstance(first, Message) and first.get("Message-ID"):
                return one_line(str(first["Message-ID"]))
        if kind == "text/rfc822-headers":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                found = MESSAGE_ID.search(payload.decode("utf-8", "replace"))
                if found:
                    return found[1]
    found = MESSAGE_ID.search(body_text(message))
    return found[1] if found else None


def clean(text: str) -> str:
    """A reason on one line, short enough to keep and to show."""
    return one_line(text, DIAGNOSTIC_LIMIT)
