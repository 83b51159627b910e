"""Configuration read once from the environment when the app is created."""

from __future__ import annotations

import math
import os
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import ConfigError
from .links import MIN_KEY_BYTES, check_key

# Pages and mails are Jinja templates kept beside the package, at the project's top level.
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
KEY_FILE = "secret_key"
YEAR = 365 * 24 * 60 * 60


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
    # A test instance: `pbem tick --at TIME` may act as if it were later (never where people play).
    test_instance: bool = False


def secret_key_from(instance: Path) -> str:
    """Return the instance's secret key, creating a random one on first use.

    Processes starting at the same moment all end up with the one key that reached the
    disk first, whole: each writes its own candidate to a temporary file, and only a hard
    link, which never replaces a file, puts it in place.
    """
    path = instance / KEY_FILE
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        write_once(path, secrets.token_hex(MIN_KEY_BYTES))
    return read_key(path)


def write_once(path: Path, key: str) -> None:
    """Put `key` at `path` unless a key is there already: the whole key or nothing."""
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "w") as f:
            f.write(key + "\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            return  # another process got there first: its key is the instance's key
        except OSError as e:
            raise ConfigError(
                f"cannot create {path} on this file system ({e.strerror}); set PBEM_SECRET_KEY "
                f"to a random key of at least {MIN_KEY_BYTES} bytes instead"
            ) from e
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)  # the new name survives a power cut too
        finally:
            os.close(folder)
    finally:
        os.unlink(temporary)


def read_key(path: Path) -> str:
    """The key in a key file; ConfigError if it is too short to sign with (say, empty)."""
    key = path.read_text().strip()
    if len(key.encode()) < MIN_KEY_BYTES:
        raise ConfigError(
            f"the secret key in {path} is {len(key.encode())} bytes long, and a key needs at "
            f"least {MIN_KEY_BYTES}: the file is damaged (a crash while it was written can "
            f"leave it empty). Delete {path} and start again to make a new key (links mailed "
            f"before then stop working), or set PBEM_SECRET_KEY"
        )
    return key


def load_settings(environ: dict[str, str] | None = None) -> Settings:
    """Read the PBEM_* variables, with defaults that give a working local server."""
    env = dict(os.environ if environ is None else environ)
    instance = Path(env.get("PBEM_INSTANCE_PATH", Path.cwd() / "instance")).resolve()
    instance.mkdir(parents=True, exist_ok=True)
    configured = env.get("PBEM_SECRET_KEY")
    if configured:
        check_key(configured, "PBEM_SECRET_KEY")
    fallbacks = tuple(k for k in env.get("PBEM_SECRET_KEY_FALLBACKS", "").split(",") if k)
    for number, key in enumerate(fallbacks, 1):
        check_key(key, f"key {number} of PBEM_SECRET_KEY_FALLBACKS")
    return Settings(
        instance_path=instance,
        database_url=env.get("PBEM_DATABASE_URL") or f"sqlite:///{instance / 'pbem.db'}",
        secret_key=configured or secret_key_from(instance),
        secret_key_fallbacks=fallbacks,
        base_url=env.get("PBEM_BASE_URL", "http://127.0.0.1:5000").rstrip("/"),
        mail_from=env.get("PBEM_MAIL_FROM", "pbem <pbem@localhost>"),
        smtp_url=env.get("PBEM_SMTP_URL") or None,
        maildir=Path(env.get("PBEM_MAILDIR", instance / "mail")),
        link_max_age=int(setting(env, "PBEM_LINK_MAX_AGE", 60 * 60 * 24 * 30, 60, 10 * YEAR)),
        inbound_token=env.get("PBEM_INBOUND_TOKEN") or None,
        write_wait=setting(env, "PBEM_WRITE_WAIT", 5, 0.1, 600, whole=False),
        verp=env.get("PBEM_VERP", "1").lower() not in ("0", "no", "false", "off"),
        dkim_selector=env.get("PBEM_DKIM_SELECTOR") or None,
        dkim_key=Path(env["PBEM_DKIM_KEY"]) if env.get("PBEM_DKIM_KEY") else None,
        dkim_domain=env.get("PBEM_DKIM_DOMAIN") or None,
        imap_url=env.get("PBEM_IMAP_URL") or None,
        test_instance=env.get("PBEM_TEST_INSTANCE", "").lower() in ("1", "yes", "true", "on"),
    )


def setting(
    env: dict[str, str], name: str, default: float, low: float, high: float, whole: bool = True
) -> float:
    """A number from the environment between low and high; ConfigError naming it if not."""
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # nan compares false: refused too
        kind = "a whole number" if whole else "a number"
        raise ConfigError(f"{name} must be {kind} from {low:g} to {high:g}, not {text!r}")
    return value
