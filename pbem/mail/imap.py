"""A mailbox at a provider, read over IMAP with TLS: new mails by UID, marked and moved once
they are taken in, and a wait for new mail (IDLE when the server has it)."""

from __future__ import annotations

import imaplib
import ssl
import time
from dataclasses import dataclass
from datetime import date
from urllib.parse import parse_qs, unquote, urlsplit

from imapclient import IMAPClient

DONE = "$PbemDone"  # set on a mail once its transaction committed, before it is moved
TOO_OLD = "$PbemTooOld"  # a mail older than the age limit, moved unread
CHUNK = 500  # UIDs per command when moving many mails at once


@dataclass(frozen=True)
class ImapSettings:
    """Where the mailbox is: read from imaps://user:password@host:port/FOLDER?processed=X."""

    host: str
    port: int
    user: str
    password: str
    folder: str
    processed: str
    starttls: bool
    cafile: str | None
    max_age_days: int

    @classmethod
    def from_url(cls, url: str) -> ImapSettings:
        """Read the URL; ValueError names what is wrong with it."""
        parts = urlsplit(url)
        if parts.scheme not in ("imaps", "imap"):
            raise ValueError(f"PBEM_IMAP_URL must start with imaps:// or imap://, not {url!r}")
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        starttls = query.get("starttls", "1" if parts.scheme == "imap" else "0") == "1"
        if parts.scheme == "imap" and not starttls:
            raise ValueError("IMAP without TLS would send the password in clear: use imaps://")
        if not parts.username or not parts.password or not parts.hostname:
            raise ValueError("PBEM_IMAP_URL needs a user, a password and a host")
        return cls(
            host=parts.hostname,
            port=parts.port or (993 if parts.scheme == "imaps" else 143),
            user=unquote(parts.username),
            password=unquote(parts.password),
            folder=unquote(parts.path.lstrip("/")) or "INBOX",
            processed=query.get("processed", "pbem-processed"),
            starttls=parts.scheme == "imap",
            cafile=query.get("cafile"),
            max_age_days=int(query.get("max_age_days", "30")),
        )

    @property
    def where(self) -> str:
        """The mailbox named for a log, without the password."""
        return f"{self.user}@{self.host}:{self.port}/{self.folder}"


class Mailbox:
    """One IMAP connection to the folder replies arrive in."""

    def __init__(self, settings: ImapSettings, timeout: float = 60.0) -> None:
        self.settings = settings
        context = ssl.create_default_context(cafile=settings.cafile)
        self.client = IMAPClient(
            settings.host, port=settings.port, ssl=not settings.starttls,
            ssl_context=context, timeout=timeout,
        )
        try:
            if settings.starttls:
                self.client.starttls(context)
            self.client.login(settings.user, settings.password)
            if not self.client.folder_exists(settings.processed):
                self.client.create_folder(settings.processed)
            self.uidvalidity = int(self.client.select_folder(settings.folder)[b"UIDVALIDITY"])
        except BaseException:
            self.close()
            raise

    def waiting(self) -> list[int]:
        """The UIDs of the mails in the folder, oldest first."""
        return sorted(int(u) for u in self.client.search(["NOT", "DELETED"]))

    def marked_done(self) -> list[int]:
        """Mails taken in whose move did not happen (the fetcher stopped in between)."""
        return sorted(int(u) for u in self.client.search(["KEYWORD", DONE, "NOT", "DELETED"]))

    def older_than(self, day: date) -> list[int]:
        """Mails that arrived before a day (by the server's INTERNALDATE)."""
        return sorted(int(u) for u in self.client.search(["BEFORE", day, "NOT", "DELETED"]))

    def fetch(self, uid: int) -> bytes | None:
        """A mail's bytes, without marking it read; None if it is gone."""
        found = self.client.fetch([uid], ["BODY.PEEK[]"]).get(uid)
        return bytes(found[b"BODY[]"]) if found else None

    def done(self, uids: list[int], keyword: str = DONE) -> None:
        """Mark mails by UID and move them to the processed folder."""
        for start in range(0, len(uids), CHUNK):
            chunk = uids[start : start + CHUNK]
            self.client.add_flags(chunk, [keyword], silent=True)
            if self.client.has_capability("MOVE"):
                self.client.move(chunk, self.settings.processed)
            else:
                self.client.copy(chunk, self.settings.processed)
                self.client.delete_messages(chunk, silent=True)
                if self.client.has_capability("UIDPLUS"):
                    self.client.uid_expunge(chunk)
                else:
                    self.client.expunge()

    def wait(self, seconds: float) -> None:
        """Wait for new mail: IDLE up to `seconds` when the server has it, else sleep."""
        if not self.client.has_capability("IDLE"):
            time.sleep(seconds)
            return
        self.client.idle()
        try:
            self.client.idle_check(timeout=seconds)
        finally:
            self.client.idle_done()

    def close(self) -> None:
        """Log out (quietly, the connection may be gone already)."""
        try:
            self.client.logout()
        except (imaplib.IMAP4.error, OSError):
            try:
                self.client.shutdown()
            except (imaplib.IMAP4.error, OSError):
                pass  # the connection is gone already


# What a dropped or refused IMAP connection raises: the pass ends, the next one starts afresh.
IMAP_ERRORS = (imaplib.IMAP4.error, OSError, ssl.SSLError, EOFError)
