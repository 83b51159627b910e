"""`pbem fetch-mail`: replies, bounces and commands read from an IMAP mailbox (PBEM_IMAP_URL)."""

from __future__ import annotations

import sys
import time

import click
from flask.cli import with_appcontext

from ..errors import PbemError
from ..inbox.fetch import PASS_LIMIT, fetch_pass
from ..mail.imap import IMAP_ERRORS, ImapSettings, Mailbox
from .common import fail, ready_services

EX_TEMPFAIL = 75  # sysexits.h: a temporary failure (the mailbox or the database)


def say(line: str) -> None:
    """One line of the fetcher's log, at once (a supervisor reads it as it comes)."""
    click.echo(line)


@click.command("fetch-mail")
@click.option("--loop", is_flag=True, help="Keep going: wait for new mail (IDLE) and take it in.")
@click.option("--interval", default=60.0, show_default=True,
              help="Seconds to wait for new mail between passes (and before reconnecting).")
@with_appcontext
def fetch_mail(loop: bool, interval: float) -> None:
    """Take in each new mail of the PBEM_IMAP_URL mailbox once, then move it to its processed
    folder: replies that play, bounces, confirmations and mail commands."""
    svc = ready_services()
    if not svc.settings.imap_url:
        fail(click.ClickException("set PBEM_IMAP_URL (imaps://user:password@host/INBOX)"))
    try:
        settings = ImapSettings.from_url(svc.settings.imap_url)
    except ValueError as e:
        fail(e)
    while True:
        try:
            box = Mailbox(settings)
            try:
                while True:
                    result = fetch_pass(box, svc.write, svc.ctx, say)
                    if result.taken >= PASS_LIMIT:
                        continue  # more are waiting: no pause
                    if not loop:
                        return
                    box.wait(interval)
            finally:
                box.close()
        except (*IMAP_ERRORS, PbemError) as e:
            # Nothing is lost: a mail not committed is still waiting in the mailbox.
            say(f"mailbox {settings.where}: {type(e).__name__}: {e}; nothing was lost, "
                + ("trying again" if loop else "run again later"))
            if not loop:
                sys.exit(EX_TEMPFAIL)
            time.sleep(min(interval, 30.0))
