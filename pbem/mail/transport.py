"""Transports that hand a message to the next hop: SMTP, or a local maildir."""

from __future__ import annotations

import mailbox
import re
import smtplib
import socket
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from .wire import Mail, Wire


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
                client.sendmail(
                    message.sender, list(message.recipients), message.data, list(message.options)
                )
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
