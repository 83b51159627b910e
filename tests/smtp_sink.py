"""A real SMTP server on 127.0.0.1 (aiosmtpd) that keeps what arrives, for tests."""

from __future__ import annotations

import email
import socket
import threading
import time
from email.message import EmailMessage
from email.policy import default
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Keep:
    def __init__(self, sink: SmtpSink) -> None:
        self.sink = sink

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=default)
        assert isinstance(message, EmailMessage)
        with self.sink.lock:
            self.sink.messages.append(message)
            self.sink.recipients.append(list(envelope.rcpt_tos))
            self.sink.senders.append(str(envelope.mail_from))
            self.sink.raw.append(bytes(envelope.original_content or envelope.content))
        return "250 OK"


class SmtpSink:
    """Start, stop (an outage) and restart on the same port; read messages back."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []
        self.senders: list[str] = []  # each mail's envelope sender (its return path)
        self.raw: list[bytes] = []  # each mail's bytes as they arrived (a DKIM check reads them)
        self.lock = threading.Lock()
        self._controller: Controller | None = None

    @property
    def url(self) -> str:
        """The PBEM_SMTP_URL that reaches this sink."""
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> SmtpSink:
        """Listen (again) on the sink's port."""
        self._controller = Controller(_Keep(self), hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self

    def stop(self) -> None:
        """Stop listening: connections are refused until start()."""
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def wait_for(self, count: int, timeout: float = 10.0) -> list[EmailMessage]:
        """Wait (bounded) until at least `count` messages arrived; return them all."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.messages) >= count:
                    return list(self.messages)
            time.sleep(0.05)
        with self.lock:
            raise AssertionError(f"expected {count} mails, got {len(self.messages)}")

    def to(self, address: str) -> list[EmailMessage]:
        """The messages sent to one address, in arrival order."""
        with self.lock:
            return [m for m in self.messages if address in str(m["To"])]
