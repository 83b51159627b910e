"""What every command shares: the app's services on an up-to-date database, errors, arguments."""

from __future__ import annotations

from typing import Any, NoReturn

import click

from ..db import migrate
from ..errors import Busy, PbemError
from ..services import Services, services


def fail(error: Exception) -> NoReturn:
    """Stop with the error's message and a non-zero status (the operator sees who is busy)."""
    held = f" ({error.holder})" if isinstance(error, Busy) and error.holder else ""
    raise click.ClickException(f"{error}{held}")


def player_arg(text: str) -> tuple[str, str | None]:
    """An address from EMAIL or 'Name <EMAIL>', with the name if one was given."""
    if "<" in text and text.endswith(">"):
        name, _, email = text[:-1].partition("<")
        return email.strip(), name.strip() or None
    return text.strip(), None


def upgraded_services() -> Services:
    """The app's services, its database first brought to the schema this code expects.

    For commands that set up a server of their own, as `pbem serve` does: on a fresh
    instance they create the tables rather than stop.
    """
    svc = services()
    current, head = migrate.revisions(svc.db.engine)
    if current != head:
        upgrade(svc)
        where = svc.db.engine.url.render_as_string(hide_password=True)
        was = "had no tables" if current is None else f"was at revision {current}"
        click.echo(f"the database {where} {was}: upgraded to revision {head}"
                   " (as `pbem db upgrade` does)", err=True)
    return svc


def upgrade(svc: Services) -> None:
    """Apply every migration the database lacks; stop with the reason if it cannot be done."""
    try:
        with svc.db.turn():  # a migration writes: it takes its turn like any write
            migrate.upgrade(svc.db.engine)
    except PbemError as e:
        fail(e)


def ready_services() -> Services:
    """The app's services, once its database has the schema this code expects."""
    svc = services()
    current, head = migrate.revisions(svc.db.engine)
    if current != head:
        where = svc.db.engine.url.render_as_string(hide_password=True)
        state = "has no tables yet" if current is None else f"is at revision {current}, not {head}"
        fail(click.ClickException(f"the database {where} {state}: run `pbem db upgrade` first"))
    return svc


def write(svc: Services, work: Any) -> Any:
    """Run a change in one transaction; stop with its message if refused."""
    try:
        return svc.write(work)
    except PbemError as e:
        fail(e)
