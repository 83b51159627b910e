"""Games from the command line: start one, show it, play a move, play a reply mail."""

from __future__ import annotations

import sys
from typing import Any

import click
from flask.cli import with_appcontext
from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import present
from ..errors import PbemError, Rejected
from ..inbox import route
from ..log.games import Loaded, load
from ..mail.compose import templates
from ..models import Tournament
from ..play.act import submit
from ..play.start import start_game, start_mirror
from ..text import one_line
from .common import fail, player_arg, ready_services

EX_TEMPFAIL = 75  # sysexits.h: a temporary failure, the MTA retries


@click.command("new-game")
@click.argument("kind")
@click.option("--player", "players", multiple=True, required=True, help="EMAIL or 'Name <EMAIL>'")
@click.option("--preset")
@click.option("--option", "options", multiple=True, help="KEY=VALUE")
@click.option("--stream", help="Share a dice stream between games (duplicate dice).")
@click.option(
    "--dice-scheme",
    type=click.IntRange(1, 2),
    default=1,
    help="2: dice drawn from each roll's address (seat, turn, roll), as duplicate events use.",
)
@click.option(
    "--mirror",
    is_flag=True,
    help="Two games with the seats swapped and the same dice (e.g. a Martian Frisby match).",
)
@click.option("--deadline-hours", default=72, show_default=True, help="Hours for each decision.")
@click.option(
    "--timeout-policy",
    type=click.Choice(["bot", "forfeit"]),
    default="bot",
    show_default=True,
    help="At a missed deadline the house bot moves, or the seat forfeits.",
)
@with_appcontext
def new_game(
    kind: str,
    players: tuple[str, ...],
    preset: str | None,
    options: tuple[str, ...],
    stream: str | None,
    dice_scheme: int,
    mirror: bool,
    deadline_hours: int,
    timeout_policy: str,
) -> None:
    """Start a game (or a mirror pair), mail the players, print its id and URL."""
    svc = ready_services()
    parsed = {}
    for item in options:
        key, sep, value = item.partition("=")
        if not sep:
            fail(click.BadParameter(f"--option {item!r} must be KEY=VALUE"))
        parsed[key.strip()] = value.strip()
    seats = [player_arg(p) for p in players]
    settings: dict[str, Any] = {
        "options": parsed,
        "preset": preset,
        "deadline_hours": deadline_hours,
        "timeout_policy": timeout_policy,
    }

    def begin(s: Session) -> list[str]:
        if mirror:
            if stream is not None:
                raise Rejected("a mirror match names its own dice stream; leave out --stream")
            games: tuple[Loaded, ...] = start_mirror(s, svc.ctx, kind, seats, **settings)
        else:
            one = start_game(
                s, svc.ctx, kind, seats, stream=stream, dice_scheme=dice_scheme, **settings
            )
            games = (one,)
        return [loaded.game.public_id for loaded in games]

    try:
        public_ids = svc.write(begin)
    except PbemError as e:
        fail(e)
    for public_id in public_ids:
        click.echo(public_id)
        click.echo(f"{svc.settings.base_url}/games/{public_id}")


@click.command()
@click.argument("game")
@with_appcontext
def show(game: str) -> None:
    """Print a game's position as text."""
    with ready_services().db.read() as session:
        try:
            loaded = load(session, game)
        except PbemError as e:
            if session.scalar(select(Tournament.id).where(Tournament.public_id == game)):
                fail(PbemError(f"{e}: {game} is a tournament (`pbem tournament show {game}`)"))
            fail(e)
        pos = present.of_game(loaded, None)
        board = templates.get_template(f"games/{loaded.game.kind}/board.txt").render(
            view=pos["view"], pos=pos
        )
        click.echo(
            f"{loaded.rules.title} {loaded.game.public_id} ({loaded.game.status}), "
            f"event {loaded.game.head_seq}, head {loaded.game.head_hash[:16]}"
        )
        wide = max(map(len, pos["seat_names"]))
        for name, seat in zip(pos["seat_names"], loaded.game.seats, strict=True):
            click.echo(f"  {name:<{wide}}  {one_line(seat.player.name)} <{seat.player.email}>")
        click.echo(board.rstrip())
        click.echo(pos["awaited_text"])


@click.command()
@click.argument("token")
@click.argument("action", nargs=-1, required=True)
@with_appcontext
def play(token: str, action: tuple[str, ...]) -> None:
    """Act with a move link's token."""
    svc = ready_services()
    try:
        grant = svc.signer.read_move_token(token.rsplit("/", 1)[-1])
        result = svc.write(lambda s: submit(s, svc.ctx, grant, " ".join(action)))
    except PbemError as e:
        fail(e)
    click.echo(result.description)


@click.command("ingest-mail")
@with_appcontext
def ingest_mail() -> None:
    """Take in a mail read from standard input (an MTA pipe: `pbem ingest-mail < mail`):
    a reply that plays, a bounce, a confirmation or mail commands."""
    svc = ready_services()
    raw = sys.stdin.buffer.read()
    try:
        result = svc.write(lambda s: route.receive(s, svc.ctx, raw, "pipe"))
    except PbemError as e:
        # Nothing was played: EX_TEMPFAIL asks the MTA to keep the mail and try again later.
        click.echo(f"not played now, try again later: {e}", err=True)
        sys.exit(EX_TEMPFAIL)
    # A rejected move was answered by mail; the MTA must not bounce it as well.
    click.echo(f"{result.kind}, {result.status}: {result.message}")
