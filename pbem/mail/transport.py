"""Transports that hand a message to the next hop (SMTP or a local maildir), and MIME building."""

from __future__ import annotations

import email
import json
import mailbox
import random
import re
import smtplib
import socket
import ssl
import sys
from collections.abc import Callable
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
from pathlib import Path
from typing import Any, Protocol, TypeAlias
from urllib.parse import parse_qs, unquote, urlsplit

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

    def message(self) -> EmailMessage:
        """The message as the receiving end parses it."""
        return email.message_from_bytes(self.data, policy=MAIL_POLICY)

    def __getitem__(self, name: str) -> Any:
        """A header of the message, as the receiving end reads it."""
        return self.message()[name]


Mail: TypeAlias = EmailMessage | Wire  # what a transport hands over


class Transport(Protocol):
    """Something that hands a message to the next hop, raising on failure."""

    def send(self, message: Mail) -> None: ...

    def close(self) -> None: ...


class MaildirTransport:
    """Writes each message into a maildir (the default with no SMTP configured)."""

    def __init__(self, path: Path) -> None:
        for sub in ("tmp", "new", "cur"):
            (path / sub).mkdir(parents=True, exist_ok=True)
        self.box = mailbox.Maildir(path, create=False)

    def send(self, message: Mail) -> None:
        """Store the message as a new mail."""
        if isinstance(message, Wire):
            self.box.add(message.data.replace(b"\r\n", b"\n"))
        else:
            self.box.add(message)

    def close(self) -> None:
        """Nothing to close."""


class _Client(smtplib.SMTP):
    """An SMTP client that can hold a message's end of data until something is ready.

    The server takes a mail only at the end of its data, and drops it if the connection
    ends before: so whatever `ready` waits for overlaps the exchange up to that point.
    """

    ready: Callable[[], object] | None = None

    def data(self, msg: Any) -> tuple[int, bytes]:
        """Send DATA and the message; send its end only once `ready` returns."""
        if self.ready is None or not isinstance(msg, bytes):
            return super().data(msg)
        self.putcmd("data")
        code, reply = self.getreply()
        if code != 354:
            raise smtplib.SMTPDataError(code, reply)
        quoted = re.sub(rb"(?m)^\.", b"..", msg)
        self.send(quoted if quoted.endswith(b"\r\n") else quoted + b"\r\n")
        try:
            self.ready()
        except BaseException:
            self.close()  # the connection ends without the end of data: no mail is taken
            raise
        self.send(b".\r\n")
        return self.getreply()


class _SslClient(_Client, smtplib.SMTP_SSL):
    """The same over TLS from the start (smtps://)."""


class SmtpTransport:
    """Sends through an SMTP server named by smtp://user:pass@host:port?starttls=1."""

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError(f"PBEM_SMTP_URL must start with smtp:// or smtps://, not {url!r}")
        query = parse_qs(parts.query)
        self.host = parts.hostname or "localhost"
        self.port = parts.port or (465 if parts.scheme == "smtps" else 25)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.ssl = parts.scheme == "smtps"
        self.starttls = query.get("starttls", ["0"])[0] in ("1", "true", "yes")
        self.timeout = timeout
        # Waited for just before each message's end of data (see `_Client`), if set.
        self.ready: Callable[[], object] | None = None
        self._client: _Client | None = None

    def _connect(self) -> _Client:
        if self._client is None:
            if self.ssl:
                context = ssl.create_default_context()
                client: _Client = _SslClient(
                    self.host, self.port, timeout=self.timeout, context=context
                )
            else:
                client = _Client(self.host, self.port, timeout=self.timeout)
            # A failed STARTTLS or login must close the connection, not leak it.
            self._client = client
            try:
                if client.sock is not None:
                    # The end of data goes alone after a wait: it must not wait for an ACK too.
                    client.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                if self.starttls and not self.ssl:
                    client.starttls(context=ssl.create_default_context())
                if self.user:
                    client.login(self.user, self.password or "")
            except BaseException:
                self.close()
                raise
        return self._client

    def send(self, message: Mail) -> None:
        """Send one message on the open connection, opening it if needed."""
        try:
            client = self._connect()
            client.ready = self.ready
            if isinstance(message, Wire):
                client.sendmail(message.sender, list(message.recipients), message.data)
            else:
                client.send_message(message)
        except (smtplib.SMTPServerDisconnected, OSError):
            self.close()
            raise

    def close(self) -> None:
        """Quit the connection if one is open."""
        if self._client is not None:
            try:
                self._client.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self._client = None


def transport_for(smtp_url: str | None, maildir: Path) -> Transport:
    """SMTP when configured, else the local maildir."""
    return SmtpTransport(smtp_url) if smtp_url else MaildirTransport(maildir)


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
