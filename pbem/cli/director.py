"""`pbem director`: the operator's actions on any game, logged with a reason (a tournament
game's extension or replacement goes through its event's log too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click
from flask.cli import with_appcontext
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..bounds import MAX_SEATS, numbers, wholes
from ..errors import PbemError
from ..models import Game, Tournament
from ..play import director as actions
from ..services import Services
from ..tournaments import directing, reports
from ..tournaments.log import load
from .common import fail, player_arg, ready_services

T = TypeVar("T")
REASON = click.option("--reason", required=True, help="Why: it is logged with the action.")


def run(svc: Services, work: Callable[[Session], T]) -> T:
    """Do a director action in one transaction; stop with its message if it is refused."""
    try:
        return svc.write(work)
    except PbemError as e:
        fail(e)


def event_head(session: Session, game: str) -> tuple[str, int] | None:
    """The tournament a game was paired by, and its log's head (read in the action's own
    transaction, before the action, so that only what the action led to is listed)."""
    found = session.execute(
        select(Tournament.public_id, Tournament.head_seq)
        .join(Game, Game.tournament_id == Tournament.id).where(Game.public_id == game)
    ).one_or_none()
    return None if found is None else (found[0], found[1])


def tell_event(svc: Services, event: tuple[str, int] | None) -> None:
    """What a game's ending made its tournament do: the games it paired, and byes."""
    if event is None:
        return
    public_id, before = event
    with svc.db.read() as s:
        held = load(s, public_id)
    paired = reports.paired_lines(held, before)
    if paired:
        click.echo(f"{held.row.name} ({public_id}) paired:")
        for line in paired:
            click.echo(line)


def read(parse: Callable[[], T]) -> T:
    """Numbers from an option; stop naming the option and its limits if they are not."""
    try:
        return parse()
    except PbemError as e:
        fail(click.BadParameter(str(e)))


@click.group("director")
def director() -> None:
    """Adjudicate, abort, extend a deadline or replace a player in a game."""


@director.command()
@click.argument("game")
@click.option("--ranks", required=True, help="One per seat, 1 best: 1,2 or 1,1,3.")
@click.option("--scores", help="One per seat, if the game keeps scores.")
@REASON
@with_appcontext
def adjudicate(game: str, ranks: str, scores: str | None, reason: str) -> None:
    """End a game with the outcome you set."""
    svc = ready_services()
    ranked = read(lambda: wholes(ranks, "each rank", 1, MAX_SEATS))
    scored = read(lambda: numbers(scores, "each score", *actions.SCORES)) if scores else None
    event, loaded = run(svc, lambda s: (
        event_head(s, game),
        actions.adjudicate(s, svc.ctx, game, actions.OPERATOR, reason, ranked, scored),
    ))
    click.echo(f"{game}: {loaded.ruling.text if loaded.ruling else 'adjudicated'}")
    tell_event(svc, event)


@director.command()
@click.argument("game")
@REASON
@with_appcontext
def abort(game: str, reason: str) -> None:
    """End a game with no result."""
    svc = ready_services()
    event, _ = run(svc, lambda s: (
        event_head(s, game), actions.abort(s, svc.ctx, game, actions.OPERATOR, reason)))
    click.echo(f"{game}: aborted")
    tell_event(svc, event)


@director.command()
@click.argument("game")
@click.option("--hours", type=int, required=True)
@REASON
@with_appcontext
def extend(game: str, hours: int, reason: str) -> None:
    """Give the open decision more time."""
    svc = ready_services()
    run(svc, lambda s: directing.extend_game(s, svc.ctx, game, actions.OPERATOR, hours, reason))
    click.echo(f"{game}: deadline extended by {hours} hours")


@director.command()
@click.argument("game")
@click.option("--seat", type=int, required=True, help="The seat, counting from 0.")
@click.option("--player", required=True, help="EMAIL or 'Name <EMAIL>' of the new player.")
@REASON
@with_appcontext
def replace(game: str, seat: int, player: str, reason: str) -> None:
    """Hand a seat to another player (mailed an invitation, and a turn mail if awaited)."""
    svc = ready_services()
    email, name = player_arg(player)
    run(svc, lambda s: directing.replace_seat(s, svc.ctx, game, actions.OPERATOR, seat, email,
                                              name, reason))
    click.echo(f"{game}: seat {seat} is now played by {name or email}")
