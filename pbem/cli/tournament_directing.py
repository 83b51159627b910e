"""`pbem tournament`'s director actions, carried out as the operator: close entries,
withdraw, replace, disqualify, forbid, bye, undo, annul, start a round, invite, message,
add a director. Each is logged and mailed like the same action on the director page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click
from flask.cli import with_appcontext
from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.figures import counted

from ..bounds import number
from ..models import Player
from ..play import director as games
from ..play.start import normalize_email
from ..services import Services
from ..tournaments import directing
from ..tournaments.log import Held, load
from .common import fail, player_arg, ready_services, write
from .director import read


@click.command("close-entries")
@click.argument("public_id")
@click.option("--reason", required=True)
@with_appcontext
def close_entries(public_id: str, reason: str) -> None:
    """Take no more entries (a rolling or late-entry event takes them after its start)."""
    svc = ready_services()
    write(svc, lambda s: directing.close_entries(s, load(s, public_id, for_update=True),
                                                 games.OPERATOR, reason))
    click.echo(f"{public_id}: entries closed")


@click.command()
@click.argument("public_id")
@click.argument("player_email")
@click.option("--reason", required=True)
@with_appcontext
def withdraw(public_id: str, player_email: str, reason: str) -> None:
    """Withdraw a player (after the start their unfinished games are resigned)."""
    svc = ready_services()

    def work(session: Any) -> Held:
        held = load(session, public_id, for_update=True)
        return directing.withdraw(session, svc.ctx, held, entrant_id(session, player_email, held),
                                  reason, games.OPERATOR)

    write(svc, work)
    click.echo(f"{public_id}: {player_email} withdrawn")


@click.command()
@click.argument("public_id")
@click.argument("player_email")
@click.argument("new_player")
@click.option("--reason", required=True)
@with_appcontext
def replace(public_id: str, player_email: str, new_player: str, reason: str) -> None:
    """Put NEW_PLAYER (EMAIL or 'Name <EMAIL>') in a player's place before their first move."""
    svc = ready_services()
    email, name = player_arg(new_player)

    def work(session: Any) -> Held:
        held = load(session, public_id, for_update=True)
        return directing.replace(session, svc.ctx, held, games.OPERATOR,
                                 entrant_id(session, player_email, held), email, name, reason)

    write(svc, work)
    click.echo(f"{public_id}: {new_player} replaces {player_email}")



def as_operator(public_id: str, said: str,
                act: Callable[[Session, Services, Held], Any]) -> Any:
    """Carry out one director action on the event as the operator; print what was done."""
    svc = ready_services()
    done = write(svc, lambda s: act(s, svc, load(s, public_id, for_update=True)))
    click.echo(f"{public_id}: {said}")
    return done


def entrant_id(session: Session, email: str, held: Held) -> str:
    """The id of the event's entrant with that address; stop naming the address when nobody
    has it or its player has not entered the event."""
    found = session.scalars(select(Player).where(Player.email == normalize_email(email))).first()
    if found is None:
        fail(click.ClickException(f"nobody has the address {email}"))
    if str(found.id) not in held.state.seeding:
        fail(click.ClickException(f"{email} has not entered {held.row.name}"))
    return str(found.id)


@click.command()
@click.argument("public_id")
@click.argument("player_email")
@click.option("--reason", required=True)
@with_appcontext
def disqualify(public_id: str, player_email: str, reason: str) -> None:
    """Disqualify a player: their unfinished games are resigned, their results stay."""
    as_operator(public_id, f"{player_email} disqualified", lambda s, svc, held: (
        directing.disqualify(s, svc.ctx, held, games.OPERATOR, entrant_id(s, player_email, held),
                             reason)))


@click.command()
@click.argument("public_id")
@click.argument("player_email")
@click.argument("other_email")
@click.option("--reason", required=True)
@with_appcontext
def forbid(public_id: str, player_email: str, other_email: str, reason: str) -> None:
    """Never pair these two players together (family, same club...)."""
    as_operator(public_id, f"{player_email} and {other_email} are never paired together",
                lambda s, svc, held: directing.forbid(
                    s, held, games.OPERATOR, entrant_id(s, player_email, held),
                    entrant_id(s, other_email, held), reason))


@click.command()
@click.argument("public_id")
@click.argument("player_email")
@click.option("--points", required=True, help="What it scores (a win is 1).")
@click.option("--reason", required=True)
@with_appcontext
def bye(public_id: str, player_email: str, points: str, reason: str) -> None:
    """Give a player POINTS without a game (a director's bye: they are still paired)."""
    scored = read(lambda: number(points, "--points", *directing.BYE_POINTS))
    as_operator(public_id, f"{player_email} is given {counted(scored, 'point')} without a game "
                "(and is paired as before); they are told by mail",
                lambda s, svc, held: directing.bye(
                    s, svc.ctx, held, games.OPERATOR, entrant_id(s, player_email, held), scored,
                    reason))


@click.command()
@click.argument("public_id")
@click.argument("game")
@click.option("--reason", required=True)
@with_appcontext
def undo(public_id: str, game: str, reason: str) -> None:
    """Take back the pairing of a game nobody has moved in; the next pairing avoids it."""
    as_operator(public_id, f"game {game} taken back", lambda s, svc, held: directing.undo(
        s, svc.ctx, held, games.OPERATOR, game, reason))


@click.command()
@click.argument("public_id")
@click.argument("game")
@click.option("--reason", required=True)
@with_appcontext
def annul(public_id: str, game: str, reason: str) -> None:
    """Annul a game's result: it no longer counts in the standings."""
    as_operator(public_id, f"game {game} annulled", lambda s, svc, held: directing.annul(
        s, held, games.OPERATOR, game, reason))


@click.command("start-round")
@click.argument("public_id")
@click.option("--unfinished", type=click.Choice(["adjudicate", "carry"]), required=True,
              help="What becomes of the round's unfinished games: adjudicate (ended on the "
                   "scores so far) or carry (they go on and count for their own round).")
@click.option("--reason", required=True)
@with_appcontext
def start_round(public_id: str, unfinished: str, reason: str) -> None:
    """Start a Swiss's next round before its last game ends."""
    svc = ready_services()
    held = write(svc, lambda s: directing.start_round(
        s, svc.ctx, load(s, public_id, for_update=True), games.OPERATOR, unfinished, reason))
    click.echo(f"{public_id}: round {held.state.last_round()} started ({unfinished} the "
               "unfinished games)")


@click.command()
@click.argument("public_id")
@click.argument("people", nargs=-1, required=True)
@with_appcontext
def invite(public_id: str, people: tuple[str, ...]) -> None:
    """Mail registration links to PEOPLE (EMAIL or 'Name <EMAIL>' each)."""
    as_operator(public_id, f"registration links mailed to {', '.join(people)}",
                lambda s, svc, held: directing.invite(s, svc.ctx, held, games.OPERATOR,
                                                      "\n".join(people)))


@click.command("message")
@click.argument("public_id")
@click.argument("subject")
@click.option("--text", required=True, help="The message; mailed and kept on the event's page.")
@with_appcontext
def message_command(public_id: str, subject: str, text: str) -> None:
    """Mail every entrant and director a message (signed by the operator)."""
    svc = ready_services()
    write(svc, lambda s: directing.message(s, svc.ctx, load(s, public_id, for_update=True),
                                           games.OPERATOR, subject, text))
    click.echo(f"{public_id}: message sent to every entrant")


@click.command("add-director")
@click.argument("public_id")
@click.argument("director")
@click.option("--reason", required=True)
@click.option("--hand-over", is_flag=True, help="Make them the lead; the lead stops directing.")
@with_appcontext
def add_director(public_id: str, director: str, reason: str, hand_over: bool) -> None:
    """Add a co-director (EMAIL or 'Name <EMAIL>'), or hand the event over to them."""
    svc = ready_services()
    email, name = player_arg(director)
    write(svc, lambda s: directing.add_director(
        s, svc.ctx, load(s, public_id, for_update=True), games.OPERATOR, email, name, reason,
        hand_over=hand_over))
    click.echo(f"{public_id}: {director} " + ("now leads it" if hand_over else "co-directs it"))


COMMANDS = (close_entries, withdraw, replace, disqualify, forbid, bye, undo, annul, start_round,
            invite, message_command, add_director)
