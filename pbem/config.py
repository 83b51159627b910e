"""Configuration read once from the environment when the app is created."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

# Pages and mails are Jinja templates kept beside the package, at the project's top level.
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


@dataclass(frozen=True)
class Settings:
    """Everything the app reads from the environment (docs/architecture.md §9)."""

    instance_path: Path
    database_url: str
    secret_key: str
    secret_key_fallbacks: tuple[str, ...]
    base_url: str
    mail_from: str
    smtp_url: str | None
    maildir: Path
    link_max_age: int
    inbound_token: str | None
    write_wait: float = 5.0  # seconds a write waits for its turn (SQLite) before a 503
    # Each mail's return path names it (pbem+b12.MAC@domain), so bounces find their mail.
    verp: bool = True
    dkim_selector: str | None = None
    dkim_key: Path | None = None  # a PEM RSA private key
    dkim_domain: str | None = None  # default: the domain of mail_from
    # Replies fetched from a mailbox: imaps://user:password@host/INBOX?processed=Processed
    imap_url: str | None = None


def secret_key_from(instance: Path) -> str:
    """Return the instance's secret key, creating a random one on first use."""
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    return path.read_text().strip()


def load_settings(environ: dict[str, str] | None = None) -> Settings:
    """Read the PBEM_* variables, with defaults that give a working local server."""
    env = dict(os.environ if environ is None else environ)
    instance = Path(env.get("PBEM_INSTANCE_PATH", Path.cwd() / "instance")).resolve()
    instance.mkdir(parents=True, exist_ok=True)
    fallbacks = env.get("PBEM_SECRET_KEY_FALLBACKS", "")
    return Settings(
        instance_path=instance,
        database_url=env.get("PBEM_DATABASE_URL") or f"sqlite:///{instance / 'pbem.db'}",
        secret_key=env.get("PBEM_SECRET_KEY") or secret_key_from(instance),
        secret_key_fallbacks=tuple(k for k in fallbacks.split(",") if k),
        base_url=env.get("PBEM_BASE_URL", "http://127.0.0.1:5000").rstrip("/"),
        mail_from=env.get("PBEM_MAIL_FROM", "pbem <pbem@localhost>"),
        smtp_url=env.get("PBEM_SMTP_URL") or None,
        maildir=Path(env.get("PBEM_MAILDIR", instance / "mail")),
        link_max_age=int(env.get("PBEM_LINK_MAX_AGE", str(60 * 60 * 24 * 30))),
        inbound_token=env.get("PBEM_INBOUND_TOKEN") or None,
        write_wait=float(env.get("PBEM_WRITE_WAIT", "5")),
        verp=env.get("PBEM_VERP", "1").lower() not in ("0", "no", "false", "off"),
        dkim_selector=env.get("PBEM_DKIM_SELECTOR") or None,
        dkim_key=Path(env["PBEM_DKIM_KEY"]) if env.get("PBEM_DKIM_KEY") else None,
        dkim_domain=env.get("PBEM_DKIM_DOMAIN") or None,
        imap_url=env.get("PBEM_IMAP_URL") or None,
    )
