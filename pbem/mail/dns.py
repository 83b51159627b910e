"""The DNS records an operator publishes so that our mail is trusted: SPF, DKIM and DMARC."""

from __future__ import annotations

import base64
import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization

from ..config import Settings
from .outgoing import domain_of


@dataclass(frozen=True)
class Record:
    """One TXT record: its name, its value, and why it is there."""

    name: str
    value: str
    why: str

    def zone_line(self) -> str:
        """The record as a zone file line; long values split into 255-character strings."""
        chunks = [self.value[i : i + 255] for i in range(0, len(self.value), 255)]
        return f'{self.name}. IN TXT ' + " ".join(f'"{c}"' for c in chunks)


def dkim_public(private_pem: bytes) -> str:
    """The p= value of a DKIM record: the public key of a PEM private key, base64 DER."""
    key = serialization.load_pem_private_key(private_pem, password=None)
    der = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return base64.b64encode(der).decode()


def spf_mechanism(smtp_url: str | None) -> str:
    """What lets the SMTP relay send for the domain: its address, or its name."""
    host = urlsplit(smtp_url).hostname if smtp_url else None
    if not host:
        return "mx"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return f"mx a:{host}"
    return f"mx ip{address.version}:{address}"


def records(settings: Settings) -> list[Record]:
    """The records for the configured From domain (DKIM only when a key is configured)."""
    domain = settings.dkim_domain or domain_of(settings.mail_from)
    found = [
        Record(
            domain, f"v=spf1 {spf_mechanism(settings.smtp_url)} ~all",
            "SPF: the hosts that may send mail from this domain (add your provider's include:"
            " if a mail service relays for you)",
        )
    ]
    if settings.dkim_selector and settings.dkim_key:
        public = dkim_public(settings.dkim_key.read_bytes())
        found.append(Record(
            f"{settings.dkim_selector}._domainkey.{domain}", f"v=DKIM1; k=rsa; p={public}",
            "DKIM: the public key receivers check each mail's signature against",
        ))
    found.append(Record(
        f"_dmarc.{domain}", f"v=DMARC1; p=none; rua=mailto:postmaster@{domain}; adkim=r; aspf=r",
        "DMARC: what receivers do with mail that fails SPF and DKIM (p=none reports only;"
        " move to p=quarantine once the reports are clean)",
    ))
    return found
