"""`pbem tournament`: create, register, start, pair, standings, export, verify, simulate
(`show` and the directors' actions are in modules of their own)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click
from flask.cli import with_appcontext
from sqlalchemy import select

from engine.figures import counted

from .. import clock
from ..errors import PbemError
from ..models import Player, Tournament
from ..play import director as games
from ..play.start import player_for
from ..ratings.current import entry_record
from ..services import Services
from ..tournaments import directing, exports, mails, reports, service, simulate
from ..tournaments.log import Held, load
from . import tournament_directing, tournament_show
from .common import fail, player_arg, ready_services, upgraded_services, write
from .formats import as_options, formats_command, known_system, settings_from, with_settings


def held_or_fail(svc: Services, public_id: str) -> Held:
    """The tournament, read; stop with a message if there is none."""
    with svc.db.read() as session:
        try:
            return load(session, public_id)
        except PbemError as e:
            fail(e)


@click.group("tournament")
def tournament() -> None:
    """Run tournaments: round robin, Swiss, rolling Swiss, knockout, and installed formats."""


tournament.add_command(formats_command)


@tournament.command()
@click.argument("name")
@click.option("--system", required=True, callback=known_system,
              help="The format: see `pbem tournament formats`.")
@click.option("--kind", required=True, help="The game, e.g. martian-dice.")
@click.option("--director", "director_email", required=True,
              help="The director: EMAIL or 'Name <EMAIL>'.")
@click.option("--preset")
@click.option("--option", "options", multiple=True, help="A game option, KEY=VALUE.")
@click.option("--tables", help="Seats per table, e.g. 2, or 4,5 (default: 2 if allowed).")
@with_settings
@click.option("--deadline-hours", type=float, default=72.0, show_default=True,
              help="Hours for each decision: a whole number from 1 to 2,160.")
@click.option("--timeout-policy", type=click.Choice(["bot", "forfeit"]), default="forfeit",
              show_default=True)
@click.option("--scoring", type=click.Choice(["places", "game-points"]))
@click.option("--tiebreak", "tiebreaks", multiple=True, help="Tie-breaks in order.")
@click.option("--unrated", is_flag=True)
@click.option("--duplicate", is_flag=True,
              help="Every table of a round rolls the same dice (dice games; see the board pages).")
@click.option("--description", help="Notes for the entrants, shown on the event's page.")
@click.option("--max-players", type=int, help="The most players the event takes.")
@click.option("--entries-close", "registration_closes", metavar="TIME",
              help="No entries after this time (YYYY-MM-DD HH:MM, UTC); a rolling or "
                   "late-entry event takes entries after its start until then.")
@click.option("--starts-at", metavar="TIME",
              help="The event starts by itself at this time (YYYY-MM-DD HH:MM, UTC), at the "
                   "next `pbem tick`, once enough players have entered.")
@click.option("--round-start", "round_starts", multiple=True, metavar="TIME",
              help="A Swiss's timetable: the time by which round 2, 3, ... starts (YYYY-MM-DD "
                   "HH:MM, UTC), once per round from 2 on, in order.")
@click.option("--unfinished-games", type=click.Choice(["adjudicate", "carry"]),
              help="With a timetable: a game still unfinished at the next round's date is "
                   "adjudicated on the scores so far, or carried (it goes on).")
@click.option("--private", is_flag=True,
              help="Entry by the director's invitation only (`register --mail` invites).")
@click.option("--rating-min", type=float, help="Entrants' rating in the game, at least.")
@click.option("--rating-max", type=float, help="Entrants' rating in the game, at most.")
@click.option("--min-rated-games", type=int,
              help="Rated games of the game an entrant must have played.")
@with_appcontext
def create(name: str, system: str, kind: str, director_email: str, preset: str | None,
           options: tuple[str, ...], tables: str | None, tiebreaks: tuple[str, ...],
           unrated: bool, scoring: str | None, **settings: Any) -> None:
    """Create a tournament; prints its id and URL."""
    svc = ready_services()
    settings["duplicate"] = settings["duplicate"] or None
    settings["private"] = settings["private"] or None
    settings["round_starts"] = list(settings["round_starts"]) or None
    fields: dict[str, Any] = {
        "name": name, "system": system, "kind": kind, "preset": preset,
        "options": dict(item.partition("=")[::2] for item in options),
        "tiebreaks": list(tiebreaks) or None, "rated": not unrated,
        "scoring": {"by": scoring} if scoring else None,
        **settings_from(settings),
    }
    if tables:
        try:
            fields["table_sizes"] = [int(n) for n in tables.split(",")]
        except ValueError:
            fail(click.BadParameter(f"--tables takes seat counts such as 4,5, not {tables!r}"))
    email, director = player_arg(director_email)
    try:
        held = svc.write(lambda s: service.create(s, player_for(s, email, director), fields))
    except PbemError as e:
        fail(PbemError(as_options(str(e), system)))
    click.echo(held.public_id)
    click.echo(f"{svc.settings.base_url}/tournaments/{held.public_id}")


@tournament.command("list")
@with_appcontext
def list_tournaments() -> None:
    """List the tournaments, newest first."""
    svc = ready_services()
    with svc.db.read() as session:
        rows = session.scalars(select(Tournament).order_by(Tournament.created_at.desc())).all()
        if not rows:
            click.echo("No tournaments yet: `pbem tournament create` makes one.")
            return
        wide = max(len(row.public_id) for row in rows)

        def line(*cells: str) -> str:
            public_id, status, system, kind, name = cells
            return f"{public_id:<{wide}}  {status:<11}  {system:<13}  {kind:<18}  {name}"

        click.echo(line("Id", "Status", "Format", "Game", "Name"))
        for row in rows:
            click.echo(line(row.public_id, row.status, row.system, row.kind, row.name))


@tournament.command()
@click.argument("public_id")
@click.argument("emails", nargs=-1, required=True)
@click.option("--mail", "by_mail", is_flag=True,
              help="Mail each address a registration link instead of entering it now.")
@with_appcontext
def register(public_id: str, emails: tuple[str, ...], by_mail: bool) -> None:
    """Enter players (EMAIL or 'Name <EMAIL>'), or mail them registration links."""
    svc = ready_services()

    def work(session: Any) -> tuple[int, int, Held]:
        held = load(session, public_id, for_update=True)
        before = held.state.head
        for text in emails:
            email, name = player_arg(text)
            if by_mail:
                # The player is known by the name given from now on: the link enters them by it.
                invited = player_for(session, email, name)
                # the command line speaks for the event's director
                director = session.get(Player, held.row.director_id)
                mails.queue_registration(session, svc.ctx, held, invited.email,
                                         inviter=director)
            else:
                player = player_for(session, email, name)
                record = entry_record(session, player.id, held.row.kind)
                held = service.register(session, held, player, *record, by=games.OPERATOR.name,
                                        ctx=svc.ctx)
        return len(emails), before, held

    count, before, held = write(svc, work)
    click.echo(f"{counted(count, 'registration link')} mailed" if by_mail
               else f"{counted(count, 'player')} registered")
    # A late entrant of a rolling or late-entry event may be paired at once.
    for line in reports.paired_lines(held, before):
        click.echo(line)


@tournament.command()
@click.argument("public_id")
@with_appcontext
def start(public_id: str) -> None:
    """Close registration, seed the entrants, and pair the first games."""
    svc = ready_services()
    held = write(svc, lambda s: service.start(s, svc.ctx, load(s, public_id, for_update=True),
                                             clock.utcnow()))
    click.echo(f"{public_id}: started with {counted(len(held.state.active()), 'player')}, "
               f"{counted(len(held.state.tables), 'game')} paired; the entrants' mails are queued")
    for line in reports.paired_lines(held, -1):
        click.echo(line)


@tournament.command()
@click.argument("public_id")
@click.option("--preview", is_flag=True, help="Show what would be paired, with penalties.")
@with_appcontext
def pair(public_id: str, preview: bool) -> None:
    """Pair what is due now (a round, or free players); refused with the reason otherwise."""
    svc = ready_services()
    now = clock.utcnow()
    if preview:
        with svc.db.read() as session:
            held = load(session, public_id)
            plan = directing.preview(session, held, now)
            if plan is None:
                fail(PbemError(f"nothing to pair: {directing.why_nothing_is_due(held, now)}"))
            for line in reports.plan_lines(held, plan):
                click.echo(line)
        return

    def work(session: Any) -> tuple[int, Held]:
        held = load(session, public_id, for_update=True)
        return held.state.head, directing.pair_now(session, svc.ctx, held, now)

    before, held = write(svc, work)
    click.echo(f"{public_id}: {counted(len(held.state.tables), 'game')} paired in all; "
               "the entrants' mails are queued")
    for line in reports.paired_lines(held, before):
        click.echo(line)


@tournament.command()
@click.argument("public_id")
@click.option("--explain", is_flag=True, help="Show each player's arithmetic.")
@with_appcontext
def standings(public_id: str, explain: bool) -> None:
    """Print the standings, with the tie-break order and, on request, the arithmetic."""
    held = held_or_fail(ready_services(), public_id)
    for line in reports.standings_lines(held, explain):
        click.echo(line)


@tournament.command("export")
@click.argument("public_id")
@click.option("--what", type=click.Choice(["results", "csv", "ics", "log"]), default="results",
              show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def export_tournament(public_id: str, what: str, output: Path | None) -> None:
    """Export results (JSON), standings (CSV), deadlines (ICS) or the event log (JSON lines)."""
    svc = ready_services()
    with svc.db.read() as session:
        held = load(session, public_id)
        text = exports.export_text(session, svc.settings.base_url, held, what)
    if output:
        output.write_text(text)
    else:
        sys.stdout.write(text)


@tournament.command()
@click.argument("target")
@with_appcontext
def verify(target: str) -> None:
    """Check a tournament (id, or an exported log at any path): chain, folding, every pairing
    re-derived and every result recomputed from its game."""
    svc = ready_services()
    path = Path(target)
    with svc.db.read() as session:
        if path.is_file():
            try:
                report = exports.verify_text(session, path.read_text(encoding="utf-8"))
            except (ValueError, OSError) as e:
                fail(click.ClickException(f"{target}: {e}"))
        elif path.suffix == ".jsonl" or os.sep in target:
            fail(click.ClickException(f"there is no file {target!r}"))
        else:
            report = exports.verify_held(session, held_or_fail(svc, target))
    if report.problem:
        click.echo(f"FAILED at seq {report.seq}: {report.problem}", err=True)
        sys.exit(1)
    for line in exports.verified_lines(report):
        click.echo(line)


@tournament.command("simulate")
@click.argument("system", callback=known_system)
@click.argument("kind")
@click.option("--players", type=click.IntRange(2, 512), required=True)
@click.option("--tables", help="Seats per table (default: 2 if the game allows it).")
@with_settings
@click.option("--seed", type=click.IntRange(0, 2**31), default=0, show_default=True)
@click.option("--duplicate", is_flag=True,
              help="Every table of a round rolls the same dice (dice games; see the board pages).")
@with_appcontext
def simulate_command(system: str, kind: str, players: int, tables: str | None,
                     seed: int, **settings: Any) -> None:
    """Play a whole event with the house bots through the service layer; show the outcome."""
    svc = upgraded_services()  # a fresh instance gets its tables, as `pbem serve` gives them
    settings["duplicate"] = settings["duplicate"] or None
    sizes = [int(n) for n in tables.split(",")] if tables else None
    try:
        report = simulate.run(svc, system, kind, players, sizes, seed, settings_from(settings),
                              progress=click.progressbar)
    except PbemError as e:
        fail(e)
    for line in report.lines():
        click.echo(line)


for command in (*tournament_directing.COMMANDS, tournament_show.show):
    tournament.add_command(command)
