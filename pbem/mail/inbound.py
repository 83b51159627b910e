"""Reply mails read: the signed reference from the addresses or subject, and the move lines."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email import message_from_bytes
from email.errors import MessageError
from email.message import EmailMessage
from email.policy import default
from email.utils import getaddresses, parseaddr
from html import unescape

from ..text import one_line, storable
from .auto import automatic, is_bounce

REF = r"([0-9a-f]{4,32}\.\d{1,3}\.\d{1,9}\.[a-z2-7]{16})"
ADDRESS_REF = re.compile(rf"\+{REF}@", re.I)
SUBJECT_REF = re.compile(rf"#{REF}", re.I)
# Our other address tags: a bounce's return path (b: the mail) and a confirmation (c).
ADDRESS_TAG = re.compile(r"\+([bc][0-9]{1,18}\.[a-z2-7]{16})@", re.I)
MESSAGE_ID = re.compile(r"<[^<>\s]{1,250}>")
ADDRESS_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")
# Lines that start the quoted original in common mail clients.
QUOTE_INTRO = re.compile(
    r"^(on .+ wrote:|-+ ?original message ?-+|from: .+|le .+ a écrit ?:|am .+ schrieb .+:)$",
    re.I,
)
MAX_LINES = 10
BODY_LIMIT = 64_000  # characters of a body kept for commands: far more than any needs
MAX_LINE = 500  # characters of a move line kept: no move is longer
# What the standard library's mail parser raises on malformed headers and parts (some of it
# from bugs of its own): such a header is read as its raw text, such a part as no text.
MALFORMED = (MessageError, LookupError, ValueError, TypeError, AttributeError)


@dataclass(frozen=True)
class Reply:
    """What a reply mail says: its reference, sender and move lines.

    `identity` names this one mail: its Message-ID, or without one a digest of its bytes (so
    a copy delivered twice is still the same mail, and two different mails never are).
    """

    ref: str | None
    sender: str
    subject: str
    message_id: str
    lines: tuple[str, ...]
    identity: str = ""
    # The Message-IDs it answers (In-Reply-To, then References from the newest), for a
    # reply whose plus address was dropped on the way.
    answers: tuple[str, ...] = ()
    # Why it is automatic (an auto-reply, a bounce, a list), or None for a person's mail.
    automatic: str | None = None
    # Our other tags in its addresses: "b12.MAC" (a bounce), "c7.MAC" (a confirmation).
    tag: str | None = None
    # Whether it looks like a bounce (a delivery report, or sent by a mail system).
    bounce: bool = False
    # The text of its body (cut at BODY_LIMIT), for mail commands.
    body: str = ""


def parse(raw: bytes) -> Reply:
    """Read a mail: the reference from its addresses or subject, and its move lines.

    Header values come back on one line: decoded words may hold CR or LF, which must never
    reach the headers of the answer.
    """
    message = message_from_bytes(raw, policy=default)
    assert isinstance(message, EmailMessage)
    subject = one_line(first(message, "Subject"))
    ref = None
    for header in ADDRESS_HEADERS:
        for _, address in addresses(headers(message, header)):
            found = ADDRESS_REF.search(address)
            if found:
                ref = found[1].lower()
                break
        if ref:
            break
    if ref is None:
        found = SUBJECT_REF.search(subject)
        ref = found[1].lower() if found else None
    sender = one_line(next((a for _, a in addresses([first(message, "From")])), "").lower())
    message_id = one_line(first(message, "Message-ID"))
    text = body_text(message)
    lines = tuple(storable(line[:MAX_LINE]) for line in move_lines(text))
    identity = message_id or "sha256:" + hashlib.sha256(raw).hexdigest()
    found_headers = header_map(message)
    return Reply(
        ref,
        sender,
        subject,
        message_id,
        lines,
        identity,
        answers=answered(message),
        automatic=automatic(message, sender, found_headers),
        tag=address_tag(message),
        bounce=is_bounce(message, sender, found_headers),
        body=storable(text[:BODY_LIMIT]),
    )


def header_map(message: EmailMessage) -> dict[str, str]:
    """The first value of each header, on one line, by lower-case name."""
    found: dict[str, str] = {}
    for key, _ in message.raw_items():
        name = key.lower()
        if name not in found:
            found[name] = one_line(first(message, key))
    return found


def answered(message: EmailMessage) -> tuple[str, ...]:
    """The Message-IDs a mail answers: In-Reply-To, then References from the newest."""
    ids: list[str] = []
    for name in ("In-Reply-To", "References"):
        found = MESSAGE_ID.findall(" ".join(headers(message, name)))
        ids += reversed(found) if name == "References" else found
    return tuple(dict.fromkeys(one_line(i) for i in ids))[:20]


def address_tag(message: EmailMessage) -> str | None:
    """A bounce or confirmation tag of ours in the mail's recipient addresses, if any."""
    for header in ADDRESS_HEADERS:
        for _, address in addresses(headers(message, header)):
            found = ADDRESS_TAG.search(address)
            if found:
                return found[1].lower()
    return None


def headers(message: EmailMessage, name: str) -> list[str]:
    """Every value of a header, decoded; a value the parser chokes on as its raw text."""
    found = []
    for key, raw in message.raw_items():
        if key.lower() == name.lower():
            try:
                found.append(str(message.policy.header_fetch_parse(key, raw)))
            except MALFORMED:
                found.append(storable(str(raw)))
    return found


def first(message: EmailMessage, name: str) -> str:
    """The first value of a header, decoded as well as it can be, or ''."""
    return next(iter(headers(message, name)), "")


def addresses(values: list[str]) -> list[tuple[str, str]]:
    """The (name, address) pairs in header values; none from values that are not addresses."""
    try:
        return getaddresses(values)
    except MALFORMED:
        return [parseaddr(value) for value in values]


def body_text(message: EmailMessage) -> str:
    """The plain text of a mail (HTML stripped when there is no text part)."""
    try:
        part = message.get_body(("plain", "html"))
        if part is None:
            return ""
        content = part.get_content()
        subtype = part.get_content_subtype()
    except MALFORMED:
        return ""
    if subtype == "html":
        # The quoted original: blockquotes, and Gmail's quote block to the end of the mail.
        content = re.sub(r"(?is)<(script|style|blockquote)\b.*?</\1>", "", content)
        content = re.sub(r"(?is)<div[^>]*gmail_quote.*", "", content)
        content = re.sub(r"(?i)<br\s*/?>|</p>|</div>", "\n", content)
        content = unescape(re.sub(r"<[^>]+>", "", content))
    return str(content)


def move_lines(text: str) -> tuple[str, ...]:
    """The first paragraph of unquoted lines: the moves, one per line."""
    lines: list[str] = []
    for raw_line in text.replace("\r\n", "\n").split("\n"):
        line = raw_line.strip()
        if line.startswith(">") or QUOTE_INTRO.match(line) or line == "--":
            break
        if not line:
            if lines:
                break
            continue
        lines.append(line)
        if len(lines) == MAX_LINES:
            break
    return tuple(lines)
