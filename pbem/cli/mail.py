"""`pbem mail`: the mails set aside because they cannot be sent as they are."""

from __future__ import annotations

from datetime import UTC, datetime

import click
from flask.cli import with_appcontext

from ..bounds import MAX_ID
from ..mail import outbox
from .common import fail, ready_services


@click.group()
def mail() -> None:
    """Mails set aside: list them, or put one back in line."""


@mail.command("failed")
@with_appcontext
def failed() -> None:
    """List every mail set aside, with the reason."""
    rows = outbox.set_aside(ready_services().db)
    for row in rows:
        when = row.failed_at.isoformat(timespec="seconds") if row.failed_at else "?"
        click.echo(f"{row.id}  {when}  {row.purpose} to {row.to_addr}: {row.subject!r}")
        click.echo(f"    {row.last_error}")
    click.echo(f"{len(rows)} mails set aside")


@mail.command("retry")
@click.argument("mail_id", type=click.IntRange(1, MAX_ID))
@with_appcontext
def retry(mail_id: int) -> None:
    """Put a mail set aside back in line (once what stopped it is fixed)."""
    if not outbox.retry(ready_services().db, mail_id, datetime.now(UTC)):
        fail(click.ClickException(f"no mail {mail_id} is set aside"))
    click.echo(f"mail {mail_id} is due again")
