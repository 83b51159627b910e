"""An outbox mail for the wire: the standard library's message, or its bytes written directly."""

from __future__ import annotations

import email
import json
import random
import re
import sys
from dataclasses import dataclass
from email.headerregistry import (
    AddressHeader,
    HeaderRegistry,
    MessageIDHeader,
    UnstructuredHeader,
)
from email.message import EmailMessage
from email.policy import default as default_policy
from functools import lru_cache
from typing import Any, TypeAlias

from ..models import Outbox

LINE_LIMIT = 998  # RFC 5322's hard line limit
MAIL_POLICY = default_policy.clone(max_line_length=LINE_LIMIT)
WIRE_POLICY = MAIL_POLICY.clone(linesep="\r\n")  # as smtplib flattens a message


@dataclass(frozen=True)
class Wire:
    """A message flattened as SMTP carries it: the envelope, and the bytes with CRLF line ends."""

    sender: str
    recipients: tuple[str, ...]
    data: bytes
    options: tuple[str, ...] = ()  # MAIL FROM options: SMTPUTF8 for international addresses

    def message(self) -> EmailMessage:
        """The message as the receiving end parses it."""
        return email.message_from_bytes(self.data, policy=MAIL_POLICY)

    def __getitem__(self, name: str) -> Any:
        """A header of the message, as the receiving end reads it."""
        return self.message()[name]


Mail: TypeAlias = EmailMessage | Wire  # what a transport hands over


def build_message(row: Outbox, mail_from: str) -> EmailMessage:
    """The MIME message for an outbox row: text, and HTML as the alternative."""
    # Long headers must not be folded into RFC 2047 words: List-Unsubscribe must stay a URL.
    message = EmailMessage(policy=MAIL_POLICY)
    message["From"] = mail_from
    message["To"] = row.to_addr
    message["Subject"] = row.subject
    message["Message-ID"] = row.message_id
    for name, value in json.loads(row.headers).items():
        if value:
            message[name] = value
    message.set_content(row.body_text)
    if row.body_html:
        message.add_alternative(row.body_html, subtype="html")
    return message


# What the standard library writes on the wire as it is, so that it needs no parsing here:
# printable ASCII words with single spaces between them, plain addresses and Message-IDs.
# ("=?" could start an encoded word, which the library would decode.)
_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_DOT_ATOM = rf"{_ATEXT}(?:\.{_ATEXT})*"
_ADDR_SPEC = rf"{_DOT_ATOM}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
_PLAIN_TEXT = re.compile(r"[!-~]+(?: [!-~]+)*")
_PLAIN_ADDRESS = re.compile(rf"{_ATEXT}(?: {_ATEXT})* <({_ADDR_SPEC})>|({_ADDR_SPEC})")
_PLAIN_ID = re.compile(rf"<{_DOT_ATOM}@{_DOT_ATOM}>")
# Headers that shape the envelope or the MIME structure, and header names at all: an extra
# header outside these rules makes the message be built whole, with the library's checks.
_SHAPING = re.compile(r"from|to|cc|bcc|sender|subject|message-id|mime-version|content-.*|resent-.*")
_FIELD_NAME = re.compile(r"[!-9;-~]+")
_REGISTRY = HeaderRegistry()
_BOUNDARY_WIDTH = len(repr(sys.maxsize - 1))


def wire_message(row: Outbox, mail_from: str) -> Mail:
    """The message for an outbox row as smtplib would flatten `build_message`'s, built cheaply.

    A mail of the usual shape is written straight into the bytes the standard library would
    write (the tests hold the two byte for byte); any other is built whole by `build_message`.
    """
    return _flattened(row, mail_from) or build_message(row, mail_from)


def _flattened(row: Outbox, mail_from: str) -> Wire | None:
    """The wire form of a row of the usual shape, or None for `build_message` to build."""
    sender = _PLAIN_ADDRESS.fullmatch(mail_from)
    recipient = _PLAIN_ADDRESS.fullmatch(row.to_addr)
    extra = [(name, value) for name, value in json.loads(row.headers).items() if value]
    names = [name.lower() for name, _ in extra]
    if (
        sender is None
        or recipient is None
        or "=?" in mail_from + row.to_addr
        or len(set(names)) < len(names)
        or not all(isinstance(value, str) for _, value in extra)
        or any(_SHAPING.fullmatch(name) or not _FIELD_NAME.fullmatch(name) for name in names)
    ):
        return None
    text = _text_body(row.body_text)
    html = _text_body(row.body_html) if row.body_html else None
    if text is None or (row.body_html and html is None):
        return None
    fields = [
        ("From", mail_from),
        ("To", row.to_addr),
        ("Subject", row.subject),
        ("Message-ID", row.message_id),
        *extra,
    ]
    head = b"".join(_header(name, value) for name, value in fields)
    if html is None:
        data = head + _part("plain", *text, mime_version=True)
    else:
        # As add_alternative leaves it: the text part first, MIME-Version on the HTML part.
        first = _part("plain", *text, mime_version=False)
        second = _part("html", *html, mime_version=True)
        boundary = _boundary(first + b"\r\n" + second)
        data = b"".join((
            head,
            b"MIME-Version: 1.0\r\n",
            f'Content-Type: multipart/alternative; boundary="{boundary}"\r\n\r\n'.encode(),
            f"--{boundary}\r\n".encode(),
            first,
            f"\r\n--{boundary}\r\n".encode(),
            second,
            f"\r\n--{boundary}--\r\n".encode(),
        ))
    envelope_from = sender[1] or sender[2]
    return Wire(envelope_from, (recipient[1] or recipient[2],), data)


def _header(name: str, value: str) -> bytes:
    """One header line as the standard library folds it for the wire."""
    plain = _plain_form(name)
    if (
        plain is not None
        and len(name) + len(value) <= LINE_LIMIT - 2
        and "=?" not in value
        and plain.fullmatch(value)
    ):
        return f"{name}: {value}\r\n".encode()
    return _folded(name, value)


@lru_cache(maxsize=256)
def _plain_form(name: str) -> re.Pattern[str] | None:
    """The values of this header the library writes unchanged, if it has such."""
    kind = _REGISTRY[name]
    if issubclass(kind, UnstructuredHeader):
        return _PLAIN_TEXT
    if issubclass(kind, AddressHeader):
        return _PLAIN_ADDRESS
    if issubclass(kind, MessageIDHeader):
        return _PLAIN_ID
    return None


@lru_cache(maxsize=1024)
def _folded(name: str, value: str) -> bytes:
    """One header folded and encoded by the library itself (Dates repeat, hence the cache)."""
    return WIRE_POLICY.fold_binary(*WIRE_POLICY.header_store_parse(name, value))


def _text_body(text: str) -> tuple[str, bytes] | None:
    """The transfer encoding and wire bytes of a UTF-8 text part, or None if it needs encoding.

    As the library's content manager decides: 7bit or 8bit while no line is over the limit.
    """
    try:
        lines = text.encode("utf-8").splitlines()
    except UnicodeEncodeError:
        return None
    if max(map(len, lines), default=0) > LINE_LIMIT:
        return None
    body = b"\r\n".join(lines) + b"\r\n"
    return ("7bit" if body.isascii() else "8bit"), body


def _part(subtype: str, encoding: str, body: bytes, *, mime_version: bool) -> bytes:
    """A text part: its headers as set_content writes them, then its body."""
    return b"".join((
        f'Content-Type: text/{subtype}; charset="utf-8"\r\n'.encode(),
        f"Content-Transfer-Encoding: {encoding}\r\n".encode(),
        b"MIME-Version: 1.0\r\n" if mime_version else b"",
        b"\r\n",
        body,
    ))


def _boundary(parts: bytes) -> str:
    """A random multipart boundary that no line of the parts holds, as the generator picks it."""
    boundary = f"{'=' * 15}{random.randrange(sys.maxsize):0{_BOUNDARY_WIDTH}d}=="
    candidate, counter = boundary, 0
    # (The generator's own test, tried only on the rare parts that hold the boundary at all.)
    while candidate.encode() in parts and re.search(
        b"^--" + re.escape(candidate.encode()) + b"(--)?$", parts, re.MULTILINE
    ):
        candidate, counter = f"{boundary}.{counter}", counter + 1
    return candidate
