"""The `pbem` command: serve, migrate, create and play games, deliver mail, export and verify."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, with_appcontext
from werkzeug.serving import run_simple

import engine

from . import audit, deadlines, digest, inbound, migrate, outbox, present, services, store
from .errors import PbemError
from .fuzz import play_star as fuzz_game
from .mail import templates
from .models import DiceSecret, Event, Game, GameSeat
from .play import load, player_for, start_game, submit


def register(app: Flask) -> None:
    """Attach the commands to an app (so `flask --app pbem` works too)."""
    for command in (
        serve,
        db,
        new_game,
        show,
        play,
        send_mail,
        tick,
        fuzz,
        ingest_mail,
        export,
        import_log,
        verify,
    ):
        app.cli.add_command(command)


def fail(error: Exception) -> None:
    """Stop with the error's message and a non-zero status."""
    raise click.ClickException(str(error))


@click.group(cls=FlaskGroup, create_app=lambda: _create(), add_default_commands=False)
def main() -> None:
    """pbem: a play-by-email turn server for the Martian dice games."""


def _create() -> Flask:
    from . import create_app

    return create_app()


@click.group()
def db() -> None:
    """Database commands."""


@db.command("upgrade")
@with_appcontext
def db_upgrade() -> None:
    """Apply every migration (creates the database on first use)."""
    migrate.upgrade(services().db.engine)
    click.echo(f"database at head: {services().db.engine.url.render_as_string(hide_password=True)}")


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
            digest.send_due(svc.write, svc.ctx, datetime.now(UTC))
            transport = outbox.transport_for(svc.settings.smtp_url, svc.settings.maildir)
            result = outbox.deliver_due(svc.db, transport, svc.settings.mail_from)
            for error in result.errors:
                click.echo(f"mail not delivered (will retry): {error}", err=True)
        except Exception as e:
            click.echo(f"mail pass failed (will retry): {e}", err=True)
        rounds += 1
        if stop is not None:
            stop.wait(interval)
        else:
            time.sleep(interval)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
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
    migrate.upgrade(svc.db.engine)
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


@click.command("new-game")
@click.argument("kind")
@click.option("--player", "players", multiple=True, required=True, help="EMAIL or 'Name <EMAIL>'")
@click.option("--preset")
@click.option("--option", "options", multiple=True, help="KEY=VALUE")
@click.option("--stream", help="Share a dice stream between games (duplicate dice).")
@with_appcontext
def new_game(
    kind: str,
    players: tuple[str, ...],
    preset: str | None,
    options: tuple[str, ...],
    stream: str | None,
) -> None:
    """Start a game, mail the players, print its id and URL."""
    svc = services()
    parsed = {}
    for item in options:
        key, sep, value = item.partition("=")
        if not sep:
            fail(click.BadParameter(f"--option {item!r} must be KEY=VALUE"))
        parsed[key.strip()] = value.strip()
    seats = [_player_arg(p) for p in players]
    try:
        public_id = svc.write(
            lambda s: (
                start_game(
                    s, svc.ctx, kind, seats, options=parsed, preset=preset, stream=stream
                ).game.public_id
            )
        )
    except PbemError as e:
        fail(e)
    click.echo(public_id)
    click.echo(f"{svc.settings.base_url}/games/{public_id}")


def _player_arg(text: str) -> tuple[str, str | None]:
    if "<" in text and text.endswith(">"):
        name, _, email = text[:-1].partition("<")
        return email.strip(), name.strip() or None
    return text.strip(), None


@click.command()
@click.argument("game")
@with_appcontext
def show(game: str) -> None:
    """Print a game's position as text."""
    with services().db.read() as session:
        try:
            loaded = load(session, game)
        except PbemError as e:
            fail(e)
        pos = present.position(loaded.rules, loaded.state, None)
        board = templates.get_template(f"games/{loaded.game.kind}.txt").render(
            view=pos["view"], pos=pos
        )
        click.echo(
            f"{loaded.rules.title} {loaded.game.public_id} ({loaded.game.status}), "
            f"event {loaded.game.head_seq}, head {loaded.game.head_hash[:16]}"
        )
        click.echo(board.rstrip())
        click.echo(pos["awaited_text"])


@click.command()
@click.argument("token")
@click.argument("action", nargs=-1, required=True)
@with_appcontext
def play(token: str, action: tuple[str, ...]) -> None:
    """Act with a move link's token."""
    svc = services()
    try:
        grant = svc.signer.read_move_token(token.rsplit("/", 1)[-1])
        result = svc.write(lambda s: submit(s, svc.ctx, grant, " ".join(action)))
    except PbemError as e:
        fail(e)
    click.echo(result.description)


@click.command("send-mail")
@click.option("--loop", is_flag=True, help="Keep delivering every few seconds.")
@click.option("--interval", default=5.0, show_default=True)
@with_appcontext
def send_mail(loop: bool, interval: float) -> None:
    """Deliver the outbox (once, or as a loop)."""
    svc = services()
    if loop:
        deliver_forever(interval)
        return
    transport = outbox.transport_for(svc.settings.smtp_url, svc.settings.maildir)
    result = outbox.deliver_due(svc.db, transport, svc.settings.mail_from)
    click.echo(f"sent {result.sent}, failed {result.failed}")
    for error in result.errors:
        click.echo(f"  {error}", err=True)


@click.command()
@click.option("--loop", is_flag=True, help="Keep checking every minute.")
@click.option("--interval", default=60.0, show_default=True)
@with_appcontext
def tick(loop: bool, interval: float) -> None:
    """Send deadline reminders, then apply each game's timeout policy (run it from cron)."""
    svc = services()
    while True:
        with svc.db.read() as session:
            games = deadlines.due_games(session)
        now = datetime.now(UTC)
        report = deadlines.tick(svc.write, svc.ctx, games, now)
        digests = digest.send_due(svc.write, svc.ctx, now)
        click.echo(
            f"{len(games)} games with a decision open: {len(report.reminded)} reminded, "
            f"{len(report.timed_out)} timed out; {digests} digests"
        )
        for error in report.errors:
            click.echo(f"  {error}", err=True)
        if not loop:
            return
        time.sleep(interval)


@click.command()
@click.argument("kind")
@click.option("--games", default=1000, show_default=True, help="How many random games.")
@click.option("--seats", type=int, help="Players (default: the fewest the game allows).")
@click.option("--preset")
@click.option("--option", "options", multiple=True, help="KEY=VALUE")
@click.option("--jobs", default=0, help="Worker processes (default: one per CPU).")
@click.option("--first-seed", default=0, show_default=True)
def fuzz(
    kind: str,
    games: int,
    seats: int | None,
    preset: str | None,
    options: tuple[str, ...],
    jobs: int,
    first_seed: int,
) -> None:
    """Play random games of KIND: each must end, never dead-end, and replay alike."""
    try:
        rules = engine.rules_for(kind)
        parsed = dict(item.partition("=")[::2] for item in options)
        resolved = rules.resolve_options(parsed, preset)
    except engine.RulesError as e:
        fail(e)
    count = seats or rules.seats[0]
    work = [(kind, count, resolved, seed) for seed in range(first_seed, first_seed + games)]
    problems, events, draws = [], 0, 0
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if jobs == 1:
            results: Iterable[Any] = map(fuzz_game, work)
        else:
            pool = stack.enter_context(multiprocessing.Pool(jobs or None))
            results = pool.imap_unordered(fuzz_game, work, chunksize=8)
        with click.progressbar(results, length=games, label=f"{kind}, {count} players") as bar:
            for result in bar:
                events += result.events
                draws += result.draw
                if result.problem:
                    problems.append(f"seed {result.seed}: {result.problem}")
    seconds = time.perf_counter() - started
    click.echo(
        f"{games} games, {games - len(problems)} ended cleanly ({draws} draws), "
        f"{events:,} events in {seconds:.0f} s ({events / seconds:,.0f} events/s)"
    )
    for problem in problems[:20]:
        click.echo(f"  {problem}", err=True)
    if problems:
        sys.exit(1)


@click.command("ingest-mail")
@with_appcontext
def ingest_mail() -> None:
    """Play a reply mail read from standard input (an MTA pipe: `pbem ingest-mail < mail`)."""
    svc = services()
    raw = sys.stdin.buffer.read()
    result = svc.write(lambda s: inbound.ingest(s, svc.ctx, raw))
    # A rejected move was answered by mail; the MTA must not bounce it as well.
    click.echo(f"{result.status}: {result.message}")


@click.command()
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--full", is_flag=True, help="Include secrets not yet revealed (operators only).")
@with_appcontext
def export(game: str, output: Path | None, full: bool) -> None:
    """Write a game's log as JSON lines, with secrets hidden until they are revealed."""
    with services().db.read() as session:
        try:
            loaded = load(session, game)
        except PbemError as e:
            fail(e)
        g = loaded.game
        header = audit.header_for(g.public_id, g.kind, loaded.setup.rules_version, g.stream)
        log = store.entries(session, g)
        if not full:
            log = present.public_log(loaded.rules, loaded.setup, log, loaded.state)
        text = "\n".join(audit.export_lines(header, log)) + "\n"
    if output:
        output.write_text(text)
    else:
        sys.stdout.write(text)


@click.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--player", "players", multiple=True, help="EMAIL per seat, in seat order")
@with_appcontext
def import_log(path: Path, players: tuple[str, ...]) -> None:
    """Rebuild a finished game from an exported log, checking chain, dice and rules."""
    try:
        header, log = audit.parse_export(path.read_text())
    except ValueError as e:
        fail(e)
    report = audit.verify(header, log)
    problem = report.first_problem
    if problem is not None:
        fail(click.ClickException(f"seq {problem.seq} ({problem.kind}): {problem.detail}"))
    if report.seed is None:
        fail(click.ClickException("only finished games (with the seed revealed) can be imported"))
    svc = services()
    public_id = svc.write(lambda s: _import(s, header, log, report.seed or "", players))
    click.echo(public_id)


def _import(
    session: Any,
    header: dict[str, Any],
    log: list[store.LogEntry],
    seed: str,
    players: tuple[str, ...],
) -> str:
    from sqlalchemy import select

    setup = store.Setup.from_payload(log[0].payload)
    public_id = str(header["game"])
    if session.scalars(select(Game.id).where(Game.public_id == public_id)).first():
        raise click.ClickException(f"a game {public_id!r} already exists here")
    if players and len(players) != setup.seats:
        raise click.ClickException(f"the game has {setup.seats} seats, not {len(players)}")
    emails = players or tuple(f"{public_id}-seat{i}@imported.invalid" for i in range(setup.seats))
    now = store.now_text()
    from datetime import datetime

    game = Game(
        public_id=public_id,
        kind=setup.kind,
        status="finished",
        head_seq=log[-1].seq,
        head_hash=log[-1].hash,
        stream=str(header.get("stream", public_id)),
        chances=sum(1 for e in log if e.kind in ("roll", "shuffle")),
        deadline_hours=72,
        created_at=datetime.fromisoformat(log[0].at),
        updated_at=datetime.fromisoformat(now),
    )
    session.add(game)
    session.flush()
    for seat, email in enumerate(emails):
        player = player_for(session, email, setup.players[seat])
        if not players:
            player.mail_pref = "none"
        session.add(GameSeat(game_id=game.id, seat=seat, player_id=player.id))
    session.add(DiceSecret(game_id=game.id, seed=seed))
    for e in log:
        session.add(
            Event(
                game_id=game.id,
                seq=e.seq,
                kind=e.kind,
                seat=e.seat,
                payload=store.canonical_json(e.payload),
                at=e.at,
                hash=e.hash,
            )
        )
    return public_id


@click.command()
@click.argument("target")
@with_appcontext
def verify(target: str) -> None:
    """Check a game (id, or an exported .jsonl file): chain, commitment, dice and rules."""
    path = Path(target)
    head: tuple[int, str] | None = None
    if path.suffix == ".jsonl" and path.exists():
        try:
            header, log = audit.parse_export(path.read_text())
        except ValueError as e:
            fail(e)
    else:
        with services().db.read() as session:
            try:
                loaded = load_for_verify(session, target)
            except PbemError as e:
                fail(e)
            game, setup_version = loaded
            header = audit.header_for(game.public_id, game.kind, setup_version, game.stream)
            log = store.entries(session, game)
            head = (game.head_seq, game.head_hash)
    report = audit.verify(header, log, head)
    with click.progressbar(report.checks, label="checking events") as checks:
        for _ in checks:
            pass
    problem = report.first_problem
    if problem is not None:
        click.echo(f"FAILED at seq {problem.seq} ({problem.kind}): {problem.detail}", err=True)
        sys.exit(1)
    rolls = sum(1 for c in report.checks if c.kind in ("roll", "shuffle"))
    seed_note = (
        "every chance event matches the revealed seed"
        if report.complete
        else "seed not revealed yet: chance events are checked when the game ends"
    )
    click.echo(
        f"OK: {len(report.checks)} events, hash chain intact, {rolls} chance events; {seed_note}"
    )


def load_for_verify(session: Any, public_id: str) -> tuple[Game, int]:
    """The game row and its rules version, without replaying (verify replays itself)."""
    from sqlalchemy import select

    from .errors import NotFound

    game = session.scalars(select(Game).where(Game.public_id == public_id)).first()
    if game is None:
        raise NotFound(f"there is no game {public_id!r}")
    try:
        setup = store.load_setup(session, game)
    except (LookupError, ValueError, KeyError) as e:
        raise PbemError(f"game {public_id} has no readable setup event: {e}") from e
    return game, setup.rules_version
