"""`pbem mail`: mails set aside, failing addresses; `pbem doctor`: settings and DNS records."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import click
from flask.cli import with_appcontext
from sqlalchemy import select

from ..bounds import MAX_ID
from ..errors import PbemError
from ..mail import dns, failing, outbox, outgoing
from ..models import Player
from .common import fail, ready_services


@click.group()
def mail() -> None:
    """Mails set aside (list, retry) and addresses that bounce (list, clear)."""


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


@click.command()
@with_appcontext
def doctor() -> None:
    """Check the mail settings and print the DNS records (SPF, DKIM, DMARC) to publish."""
    svc = ready_services()
    settings = svc.settings
    try:
        out = outgoing.for_settings(settings, svc.signer)
    except PbemError as e:
        fail(e)
    click.echo(f"From: {settings.mail_from}")
    hop = f"SMTP {settings.smtp_url.split('@')[-1]}" if settings.smtp_url else "the maildir"
    click.echo(f"Outgoing: {hop}")
    click.echo(
        "Return paths: "
        + ("each mail's own (pbem+b12.MAC@...), so bounces find their mail" if out.signer
           else "the From address (PBEM_VERP=0): bounces cannot be matched to their mail")
    )
    signing = (
        f"signing as {out.dkim.selector}._domainkey.{out.dkim.domain}" if out.dkim
        else "off (set PBEM_DKIM_SELECTOR and PBEM_DKIM_KEY)"
    )
    click.echo(f"DKIM: {signing}")
    click.echo(f"Replies and bounces come in by: {inbound_ways(settings)}")
    click.echo("")
    click.echo("Publish these DNS records:")
    for record in dns.records(settings):
        click.echo(f"; {record.why}")
        click.echo(record.zone_line())


def inbound_ways(settings: Any) -> str:
    """How mail reaches the server, as configured."""
    ways = ["`pbem ingest-mail` from an MTA pipe"]
    if settings.inbound_token:
        ways.append("POST /api/inbound-mail")
    if settings.imap_url:
        ways.append(f"`pbem fetch-mail` from {settings.imap_url.split('@')[-1]}")
    return ", ".join(ways)


@mail.command("bounced")
@with_appcontext
def bounced() -> None:
    """List the addresses whose mail bounced for good (their mail is held)."""
    with ready_services().db.read() as session:
        rows = session.scalars(
            select(Player).where(Player.mail_failing_at.is_not(None)).order_by(Player.email)
        ).all()
        for player in rows:
            when = player.mail_failing_at.isoformat(timespec="seconds")  # type: ignore[union-attr]
            click.echo(f"{player.email}  since {when}: {player.mail_failure}")
        click.echo(f"{len(rows)} failing addresses")


@mail.command("works")
@click.argument("address")
@with_appcontext
def works(address: str) -> None:
    """Say an address works again: its held mail goes out."""
    svc = ready_services()

    def clear(session: Any) -> int:
        player = session.scalars(select(Player).where(Player.email == address.lower())).first()
        if player is None or player.mail_failing_at is None:
            raise PbemError(f"{address} is not marked failing")
        return failing.clear(session, player, datetime.now(UTC))

    try:
        released = svc.write(clear)
    except PbemError as e:
        fail(e)
    click.echo(f"{address} works again; {released} held mails are due")
