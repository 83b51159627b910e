"""What the web app and the CLI share: settings, the database, the signer, the service context."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from flask import current_app
from sqlalchemy.orm import Session

from .config import Settings
from .context import Context
from .db import Database
from .errors import StaleTurn
from .links import Signer

T = TypeVar("T")


@dataclass
class Services:
    """The running server's parts; the request or command owns each transaction."""

    settings: Settings
    db: Database
    signer: Signer
    ctx: Context

    @classmethod
    def from_settings(cls, settings: Settings) -> Services:
        """Open the database and build the signer and context the settings describe."""
        db = Database(settings.database_url, write_wait=settings.write_wait)
        signer = Signer(settings.secret_key, settings.secret_key_fallbacks, settings.link_max_age)
        return cls(settings, db, signer, Context(settings.base_url, settings.mail_from, signer))

    def write(self, work: Callable[[Session], T], attempts: int = 3) -> T:
        """Run work in a write transaction, retrying when another writer won a race."""
        for attempt in range(attempts):
            try:
                with self.db.write() as session:
                    return work(session)
            except StaleTurn as e:
                # Only a lost insert race is worth retrying: it carries an IntegrityError.
                if e.__cause__ is None or attempt == attempts - 1:
                    raise
        raise AssertionError("unreachable")


def services() -> Services:
    """The services of the current app."""
    return current_app.extensions["pbem"]  # type: ignore[no-any-return]
