"""Running a server: serve, migrate, deliver the outbox, and tick deadlines and digests."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from werkzeug.serving import run_simple

from ..errors import PbemError
from ..log import tally
from ..mail import digest, outbox, outgoing, transport
from ..play import chance, deadlines
from ..services import services
from ..tournaments.service import tick_all
from .common import fail, ready_services, upgrade


@click.group()
def db() -> None:
    """Database commands."""


@db.command("upgrade")
@with_appcontext
def db_upgrade() -> None:
    """Apply every migration (creates the database on first use)."""
    upgrade(services())
    click.echo(f"database at head: {services().db.engine.url.render_as_string(hide_password=True)}")


@db.command("recount-dice")
@with_appcontext
def db_recount_dice() -> None:
    """Count every revealed die and shuffle again from the logs (the totals /audit/dice shows)."""
    svc = ready_services()
    before, after = svc.write(lambda session: (tally.recount(session), tally.read(session)))
    dice = sum(n for (what, _, _), n in after.items() if what == "die")
    shuffles = sum(n for (what, _, _), n in after.items() if what == "shuffle")
    click.echo(f"counted {dice:,} dice and {shuffles:,} shuffles of the revealed games")
    if before == after:
        click.echo("the running totals were right")
    else:
        changed = sorted(key for key in before.keys() | after.keys() if before[key] != after[key])
        click.echo(f"the running totals were wrong for {len(changed)} faces; corrected:")
        for what, sides, face in changed:
            name = f"{sides}-sided die, face {face}" if what == "die" else (
                f"shuffle of {sides}, item {face} first")
            click.echo(f"  {name}: {before[what, sides, face]:,} -> {after[what, sides, face]:,}")


def deliver_forever(
    interval: float, stop: threading.Event | None = None, tick_every: int = 0
) -> None:
    """Deliver the outbox every few seconds until stopped (and check deadlines now and then)."""
    svc = services()
    rounds = 0
    while stop is None or not stop.is_set():
        # One failed pass (the database restarting, say) must not end the loop: mail would
        # stop until the server is restarted.
        try:
            if tick_every and rounds % tick_every == 0:
                with svc.db.read() as session:
                    games = deadlines.due_games(session)
                deadlines.tick(svc.write, svc.ctx, games, datetime.now(UTC))
                for error in tick_all(svc.write, svc.ctx, datetime.now(UTC)):
                    click.echo(error, err=True)
            digest.send_due(svc.write, svc.ctx, datetime.now(UTC))
            hop = transport.transport_for(svc.settings.smtp_url, svc.settings.maildir)
            out = outgoing.for_settings(svc.settings, svc.signer)
            result = outbox.deliver_due(svc.db, hop, out)
            for error in result.errors:
                click.echo(f"mail not delivered (will retry): {error}", err=True)
            for problem in result.set_aside:
                click.echo(f"{problem} (see `pbem mail failed`)", err=True)
        except Exception as e:
            click.echo(f"mail pass failed (will retry): {e}", err=True)
        rounds += 1
        if stop is not None:
            stop.wait(interval)
        else:
            time.sleep(interval)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--debug/--no-debug",
    default=None,
    help="Show /dev/mail (default: on while mail goes to the local maildir).",
)
@with_appcontext
def serve(host: str, port: int, debug: bool | None) -> None:
    """Migrate, then serve the app and deliver mail from this process."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    svc = services()
    upgrade(svc)
    app.debug = debug if debug is not None else svc.settings.smtp_url is None
    if "PBEM_BASE_URL" not in os.environ:
        # Without a configured base URL, mailed links point where this server listens.
        shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        svc.settings = replace(svc.settings, base_url=f"http://{shown_host}:{port}")
        svc.ctx = replace(svc.ctx, base_url=svc.settings.base_url)
    stop = threading.Event()
    sender = threading.Thread(target=lambda: _deliver_in(app, stop), name="pbem-mail", daemon=True)
    sender.start()
    where = f"http://{host}:{port}"
    click.echo(f"pbem serving on {where} (links use {svc.settings.base_url})")
    if app.debug and not svc.settings.smtp_url:
        click.echo(f"mail goes to {svc.settings.maildir}; read it at {where}/dev/mail")
    try:
        # Not app.run(): Flask ignores it inside a `flask`/FlaskGroup command
        # (FLASK_RUN_FROM_CLI), so `pbem serve` would exit at once without serving.
        run_simple(host, port, app, use_reloader=False, use_debugger=False, threaded=True)
    finally:
        stop.set()


def _deliver_in(app: Flask, stop: threading.Event) -> None:
    with app.app_context():
        deliver_forever(1.0, stop, tick_every=60)


@click.command("send-mail")
@click.option("--loop", is_flag=True, help="Keep delivering every few seconds.")
@click.option("--interval", default=5.0, show_default=True)
@with_appcontext
def send_mail(loop: bool, interval: float) -> None:
    """Deliver the outbox (once, or as a loop)."""
    svc = ready_services()
    if loop:
        deliver_forever(interval)
        return
    hop = transport.transport_for(svc.settings.smtp_url, svc.settings.maildir)
    try:
        result = outbox.deliver_due(svc.db, hop, outgoing.for_settings(svc.settings, svc.signer))
    except PbemError as e:
        fail(e)
    click.echo(f"sent {result.sent}, failed {result.failed}, set aside {len(result.set_aside)}")
    for error in result.errors:
        click.echo(f"  {error}", err=True)
    for problem in result.set_aside:
        click.echo(f"  {problem}", err=True)
    if result.set_aside:
        click.echo("  `pbem mail failed` lists every mail set aside", err=True)


def moment(text: str, now: datetime) -> datetime:
    """A time for `--at`: ISO 8601 (UTC unless it says otherwise), or +N hours or days."""
    spoken = text.strip().lower()
    if spoken.startswith("+") and spoken[-1:] in ("h", "d") and spoken[1:-1].isdigit():
        amount = int(spoken[1:-1])
        return now + (timedelta(hours=amount) if spoken.endswith("h") else timedelta(days=amount))
    try:
        at = datetime.fromisoformat(text.strip())
    except ValueError:
        raise click.BadParameter(
            f"--at takes a time such as 2026-12-01T18:00 (UTC), or +72h or +3d, not {text!r}"
        ) from None
    return at if at.tzinfo else at.replace(tzinfo=UTC)


@click.command()
@click.option("--loop", is_flag=True, help="Keep checking every minute.")
@click.option("--interval", default=60.0, show_default=True)
@click.option("--at", "at", metavar="TIME",
              help="Act as if it were TIME (ISO 8601 UTC, or +72h, +3d): reminders, timeouts, "
                   "pairings and digests due by then happen now. Test instances only "
                   "(PBEM_TEST_INSTANCE=1).")
@with_appcontext
def tick(loop: bool, interval: float, at: str | None) -> None:
    """Send deadline reminders, then apply each game's timeout policy (run it from cron)."""
    svc = ready_services()
    if at is not None and not svc.settings.test_instance:
        fail(PbemError(
            "--at makes deadlines pass early: games time out and forfeit for real, so it runs "
            "only on a test instance (set PBEM_TEST_INSTANCE=1 there, never where people play)"
        ))
    if at is not None and loop:
        fail(click.BadParameter("--at ticks once: leave out --loop"))
    while True:
        with svc.db.read() as session:
            games = deadlines.due_games(session)
        now = datetime.now(UTC) if at is None else moment(at, datetime.now(UTC))
        if at is not None:
            click.echo(f"acting as if it were {now:%Y-%m-%d %H:%M} UTC")
        try:
            report = deadlines.tick(svc.write, svc.ctx, games, now)
            report.errors.extend(tick_all(svc.write, svc.ctx, now))
            svc.write(chance.reveal_due)
            digests = digest.send_due(svc.write, svc.ctx, now)
        except PbemError as e:
            if not loop:
                fail(e)
            click.echo(f"tick failed (will retry): {e}", err=True)
            time.sleep(interval)
            continue
        click.echo(
            f"{len(games)} games with a decision open: {len(report.reminded)} reminded, "
            f"{len(report.timed_out)} timed out; {digests} digests"
        )
        for error in report.errors:
            click.echo(f"  {error}", err=True)
        if not loop:
            return
        time.sleep(interval)
