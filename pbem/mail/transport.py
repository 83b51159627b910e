"""Transports that hand a message to the next hop (SMTP or a local maildir), and MIME building."""

from __future__ import annotations

import json
import mailbox
import smtplib
import ssl
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from ..models import Outbox

MAIL_POLICY = default_policy.clone(max_line_length=998)  # RFC 5322's hard line limit


class Transport(Protocol):
    """Something that hands a message to the next hop, raising on failure."""

    def send(self, message: EmailMessage) -> None: ...

    def close(self) -> None: ...


class MaildirTransport:
    """Writes each message into a maildir (the default with no SMTP configured)."""

    def __init__(self, path: Path) -> None:
        for sub in ("tmp", "new", "cur"):
            (path / sub).mkdir(parents=True, exist_ok=True)
        self.box = mailbox.Maildir(path, create=False)

    def send(self, message: EmailMessage) -> None:
        """Store the message as a new mail."""
        self.box.add(message)

    def close(self) -> None:
        """Nothing to close."""


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
        self._client: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        if self._client is None:
            if self.ssl:
                context = ssl.create_default_context()
                client: smtplib.SMTP = smtplib.SMTP_SSL(
                    self.host, self.port, timeout=self.timeout, context=context
                )
            else:
                client = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            # A failed STARTTLS or login must close the connection, not leak it.
            self._client = client
            try:
                if self.starttls and not self.ssl:
                    client.starttls(context=ssl.create_default_context())
                if self.user:
                    client.login(self.user, self.password or "")
            except BaseException:
                self.close()
                raise
        return self._client

    def send(self, message: EmailMessage) -> None:
        """Send one message on the open connection, opening it if needed."""
        try:
            self._connect().send_message(message)
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
