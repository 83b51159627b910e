"""`pbem tournament show`: the director's page at a glance, as text for a terminal."""

from __future__ import annotations

from datetime import datetime

import click
from flask.cli import with_appcontext

from engine.figures import counted

from .. import clock
from ..errors import PbemError
from ..tournaments import dashboard, reports
from ..tournaments.core import entries
from ..tournaments.dashboard import Dashboard
from ..tournaments.log import Held, load
from .common import fail, ready_services

STATUS = {"registering": "open for registration", "running": "running", "closed": "over"}
RECENT_ACTS = 10


def when(at: datetime) -> str:
    """A moment as the event's pages and mails write it ('Thursday 26 November 2026, 06:00
    UTC'); SQLite gives it back without its zone."""
    return entries.when(clock.as_utc(at))


def heading(held: Held, board: Dashboard) -> list[str]:
    """The event's name, state and round, its directors, and how many are playing."""
    t = held.state
    state = STATUS.get(held.row.status, held.row.status)
    if t.started and board.round:
        state += f", round {board.round}" + (f" of {board.rounds}" if board.rounds else "")
    active = sum(1 for e in board.entrants if e.active)
    lead = ", ".join(f"{name} ({role})" for name, role in board.directors)
    lines = [
        f"{held.row.name} ({held.public_id}): {state}",
        reports.describe(held)[0],
        f"Directed by {lead}.",
        f"{active} active of {counted(len(board.entrants), 'entrant')}; "
        f"{counted(len(board.games), 'game')} in play.",
    ]
    first = [row for row in held.standings if row.place == 1]
    if t.closed and first:
        names = " and ".join(row.name for row in first)
        lines.append(f"Won by {names} with {counted(first[0].points, 'point')} "
                     f"(`pbem tournament standings {held.public_id}` for the table).")
    return lines


def warnings(held: Held, board: Dashboard) -> list[str]:
    """What needs the director: a stuck event, overdue games, bouncing mail, who is away."""
    lines = []
    if held.row.problem and held.row.problem_at is not None:
        lines.append(f"PROBLEM since {when(held.row.problem_at)}: the server "
                     f"cannot carry the event on: {held.row.problem}. It tries again at "
                     "every tick.")
    if board.overdue:
        late = ", ".join(f"game {g.game} ({', '.join(g.awaited)})" for g in board.overdue)
        lines.append(f"Overdue: {late}. The next tick applies the timeout policy.")
    elif board.games:
        lines.append("No game is overdue.")
    for e in board.failing:
        lines.append(f"Mail to {e.name} bounces: {e.mail_failing}.")
    for e in board.away:
        assert e.away_until is not None
        lines.append(f"{e.name} is away until {when(e.away_until)}.")
    return lines


def games(board: Dashboard) -> list[str]:
    """Each game in play: its id, round and players, and whom it waits for until when."""
    if not board.games:
        return []
    lines = ["", "Games in play:"]
    for g in board.games:
        where = f"round {g.round}: " if g.round else ""
        if g.held:
            state = "in play (the round's tables share their dice: nothing is shown)"
        elif g.awaited:
            state = f"waiting for {', '.join(g.awaited)}"
            state += f" until {when(g.until)}" if g.until else ""
            state += " (OVERDUE)" if g.overdue else ""
        else:
            state = "ended; its result is recorded at the next tick"
        lines.append(f"  {g.game}  {where}{' v '.join(g.names)}: {state}")
    return lines


def pairing(held: Held, board: Dashboard) -> list[str]:
    """When the next games are paired, and what pairing now would give."""
    t = held.state
    lines = ["", f"Next pairing: {board.next_pairing}."]
    if board.next_due and board.round:
        carried = ("adjudicated on the scores so far"
                   if board.unfinished_games == "adjudicate" else "carried into it")
        lines.append(f"Round {board.round + 1} starts by {when(board.next_due)} at the latest; "
                     f"games of round {board.round} unfinished then are {carried}.")
    if board.ends and not t.closed:
        lines.append(f"Forecast end: {board.ends.strftime('%A %d %B %Y')} "
                     "(if every game takes its full time).")
    if board.forecast:
        lines += ["Due now (`pbem tournament pair` pairs it):",
                  *(f"  {line}" for line in board.forecast)]
    elif board.why_not and not t.closed:
        lines.append(f"Nothing to pair now: {board.why_not}.")
    return lines


def actions(board: Dashboard) -> list[str]:
    """The latest actions people took, newest first, each with who and why."""
    if not board.acts:
        return []
    lines = ["", "Latest actions:"]
    for act in board.acts[:RECENT_ACTS]:
        why = f": {act.why}" if act.why else ""
        lines.append(f"  {when(act.at)}  {act.who} {act.what}{why}")
    if len(board.acts) > RECENT_ACTS:
        lines.append(f"  ... {counted(len(board.acts) - RECENT_ACTS, 'earlier action')}: "
                     "see the director's page")
    return lines


def show_lines(held: Held, board: Dashboard) -> list[str]:
    """The whole glance, line by line."""
    return [*heading(held, board), *warnings(held, board), *games(board),
            *pairing(held, board), *actions(board)]


@click.command()
@click.argument("public_id")
@with_appcontext
def show(public_id: str) -> None:
    """The event at a glance: its state, games in play and whom they wait for, what needs
    the director, the next pairing, the latest actions (as the director's page)."""
    svc = ready_services()
    with svc.db.read() as session:
        try:
            held = load(session, public_id)
        except PbemError as e:
            fail(e)
        board = dashboard.build(session, held, clock.utcnow())
    for line in show_lines(held, board):
        click.echo(line)
