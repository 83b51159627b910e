"""The log from the command line: export a game, import an export, verify either."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from flask.cli import with_appcontext
from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import present
from ..errors import NotFound, PbemError, SharedDice
from ..log import audit, export, store
from ..log.games import dice_held, load
from ..models import Game
from ..play.start import player_for
from .common import fail, ready_services


@click.command("export")
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--full", is_flag=True, help="Include secrets not yet revealed (operators only).")
@with_appcontext
def export_game(game: str, output: Path | None, full: bool) -> None:
    """Write a game's log as JSON lines, with secrets hidden until they are revealed."""
    with ready_services().db.read() as session:
        try:
            loaded = load(session, game)
        except PbemError as e:
            fail(e)
        header = export.header_of(loaded.game, loaded.setup)
        log = store.entries(session, loaded.game)
        if not full and dice_held(session, loaded.game):
            fail(SharedDice(
                f"game {game} shares its dice with other tables; its log opens when every "
                "table has finished (operators: --full)"
            ))
        if not full:
            log = present.public_log(loaded.rules, loaded.setup, log, loaded.state)
        text = "\n".join(export.export_lines(header, log)) + "\n"
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
    header, log = read_log_file(path)
    report = audit.verify(header, log)
    problem = report.first_problem
    if problem is not None:
        fail(click.ClickException(f"seq {problem.seq} ({problem.kind}): {problem.detail}"))
    seed = report.seed
    if seed is None:
        fail(click.ClickException("only finished games (with the seed revealed) can be imported"))
    try:
        public_id = ready_services().write(lambda s: import_into(s, header, log, seed, players))
    except PbemError as e:
        fail(e)
    click.echo(public_id)


def read_log_file(path: Path) -> tuple[dict[str, Any], list[store.LogEntry]]:
    """An exported log read from a file that nobody vouches for; a clear error if it is not one."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        fail(click.ClickException(f"{path} cannot be read as UTF-8 text: {e}"))
    try:
        return export.parse_export(text)
    except ValueError as e:
        fail(click.ClickException(f"{path}: {e}"))


def import_into(
    session: Session,
    header: dict[str, Any],
    log: list[store.LogEntry],
    seed: str,
    players: tuple[str, ...],
) -> str:
    """Store an exported game, seating the given addresses (or placeholders without mail)."""
    setup = store.Setup.from_payload(log[0].payload)
    public_id = str(header["game"])
    if players and len(players) != setup.seats:
        raise PbemError(f"the game has {setup.seats} seats, not {len(players)}")
    if len(set(players)) != len(players):
        raise PbemError("each seat needs a different player")
    emails = players or tuple(f"{public_id}-seat{i}@imported.invalid" for i in range(setup.seats))
    seated = [player_for(session, email, setup.players[seat]) for seat, email in enumerate(emails)]
    if not players:
        for player in seated:
            player.mail_pref = "none"
    return export.import_game(session, header, log, seed, seated).public_id


@click.command()
@click.argument("target")
@with_appcontext
def verify(target: str) -> None:
    """Check a game (id, or an exported .jsonl file): chain, commitment, dice and rules."""
    path = Path(target)
    head: tuple[int, str] | None = None
    if path.suffix == ".jsonl" and path.exists():
        header, log = read_log_file(path)
    else:
        with ready_services().db.read() as session:
            try:
                loaded = load_for_verify(session, target)
            except PbemError as e:
                fail(e)
            game, setup = loaded
            header = export.header_of(game, setup)
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
        if header["stream"] == header["game"]
        else "seed not revealed yet: chance events are checked when the stream's last game ends"
    )
    opened = sum(1 for e in log if e.salt is not None)
    hidden = sum(1 for e in log if e.hidden)
    secrets = ""
    if opened or hidden:
        secrets = f"; {opened} secret events match their commitments"
        secrets += f", {hidden} still secret (commitments only)" if hidden else ""
    click.echo(
        f"OK: {len(report.checks)} events, hash chain intact, {rolls} chance events{secrets}; "
        f"{seed_note}"
    )


def load_for_verify(session: Session, public_id: str) -> tuple[Game, store.Setup]:
    """The game row and its setup, without replaying (verify replays itself)."""
    game = session.scalars(select(Game).where(Game.public_id == public_id)).first()
    if game is None:
        raise NotFound(f"there is no game {public_id!r}")
    try:
        setup = store.load_setup(session, game)
    except (LookupError, ValueError, KeyError) as e:
        raise PbemError(f"game {public_id} has no readable setup event: {e}") from e
    return game, setup
