"""How our mails leave: each with a return path naming it (VERP), and signed with DKIM."""

from __future__ import annotations

import copy
import functools
import io
import re
from dataclasses import dataclass, replace
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.policy import SMTPUTF8
from email.utils import getaddresses, parseaddr
from pathlib import Path

import dkim

from ..config import Settings
from ..errors import PbemError
from ..links import Signer
from ..models import Outbox
from .wire import LINE_LIMIT, Mail, Wire, wire_message

# What the signature covers: the headers a reader sees and those that steer a reply or an
# unsubscribe (RFC 8058 asks for List-Unsubscribe and List-Unsubscribe-Post).
SIGNED = (
    "From", "To", "Subject", "Date", "Message-ID", "Reply-To", "In-Reply-To", "References",
    "List-Id", "List-Unsubscribe", "List-Unsubscribe-Post", "Auto-Submitted",
    "MIME-Version", "Content-Type", "Content-Transfer-Encoding",
)


@dataclass(frozen=True)
class DkimKey:
    """A DKIM signing key: the selector and domain of its DNS record, and the private key."""

    selector: str
    domain: str
    private_key: bytes

    @classmethod
    def from_file(cls, selector: str, domain: str, path: Path) -> DkimKey:
        """Read a PEM private key (RSA) from a file."""
        return cls(selector, domain, path.read_bytes())

    def sign(self, data: bytes) -> bytes:
        """The message with its DKIM-Signature header first."""
        present = {m.lower() for m in re.findall(rb"^([!-9;-~]+):", data.split(b"\r\n\r\n")[0],
                                                 re.M)}
        headers = [h.encode() for h in SIGNED if h.lower().encode() in present]
        signature = dkim.sign(
            data, self.selector.encode(), self.domain.encode(), self.private_key,
            canonicalize=(b"relaxed", b"relaxed"), include_headers=headers, linesep=b"\r\n",
        )
        return bytes(signature) + data


@dataclass(frozen=True)
class Outgoing:
    """What every mail leaving needs: the From address, the signer that makes each mail's
    VERP return path (None: the From address), and a DKIM key (None: unsigned)."""

    mail_from: str
    signer: Signer | None = None
    dkim: DkimKey | None = None

    def return_path(self, mail_id: int) -> str | None:
        """pbem+b12.MAC@domain: a bounce to it names mail 12, and nobody can forge one."""
        if self.signer is None:
            return None
        local, _, domain = parseaddr(self.mail_from)[1].rpartition("@")
        if not local or not domain:
            return None
        return f"{local}+{self.signer.number_ref('b', mail_id)}@{domain}"

    def mail(self, row: Outbox) -> Mail:
        """The outbox row as the transport hands it over: enveloped, and signed if set up."""
        mail = wire_message(row, self.mail_from)
        envelope = self.return_path(row.id)
        if envelope is None and self.dkim is None:
            return mail
        wire = mail if isinstance(mail, Wire) else flattened(mail)
        if envelope is not None:
            wire = replace(wire, sender=envelope)
        if self.dkim is not None:
            wire = replace(wire, data=self.dkim.sign(wire.data))
        return wire


def domain_of(address: str) -> str:
    """The domain of an address ("localhost" without one)."""
    return parseaddr(address)[1].rpartition("@")[2] or "localhost"


def flattened(message: EmailMessage) -> Wire:
    """A message built whole, as the bytes and envelope smtplib's send_message would send."""
    sender = parseaddr(str(message["From"]))[1]
    fields = [str(message[h]) for h in ("To", "Cc", "Bcc") if message[h] is not None]
    recipients = tuple(address for _, address in getaddresses(fields))
    shown = copy.copy(message)
    del shown["Bcc"]
    options: tuple[str, ...] = ()
    international = not "".join((sender, *recipients)).isascii()
    policy = SMTPUTF8.clone(max_line_length=LINE_LIMIT) if international else message.policy
    if international:
        options = ("SMTPUTF8", "BODY=8BITMIME")
    with io.BytesIO() as out:
        BytesGenerator(out, policy=policy).flatten(shown, linesep="\r\n")
        return Wire(sender, recipients, out.getvalue(), options)


@functools.lru_cache(maxsize=8)
def for_settings(settings: Settings, signer: Signer) -> Outgoing:
    """How mails leave under these settings; a DKIM key that cannot sign stops here."""
    key = None
    if settings.dkim_selector or settings.dkim_key:
        if not (settings.dkim_selector and settings.dkim_key):
            raise PbemError("DKIM needs both PBEM_DKIM_SELECTOR and PBEM_DKIM_KEY")
        domain = settings.dkim_domain or domain_of(settings.mail_from)
        try:
            key = DkimKey.from_file(settings.dkim_selector, domain, settings.dkim_key)
            key.sign(b"From: a@b\r\nSubject: test\r\n\r\nx\r\n")
        except (OSError, dkim.DKIMException, ValueError) as e:
            raise PbemError(f"the DKIM key {settings.dkim_key} cannot sign: {e}") from e
    return Outgoing(settings.mail_from, signer if settings.verp else None, key)
