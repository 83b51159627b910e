"""`pbem ratings`: rebuild every finished game's rating row from its log, and show boards."""

from __future__ import annotations

import click
from flask.cli import with_appcontext
from sqlalchemy import select

from .. import clock
from ..models import Player
from ..ratings import records
from ..ratings.core import queries
from ..ratings.core.games import OVERALL
from ..ratings.current import CURRENT
from .common import fail, ready_services


@click.group("ratings")
def ratings() -> None:
    """Rebuild and show ratings (they are rebuilt from the game logs, never stored as truth)."""


@ratings.command()
@with_appcontext
def rebuild() -> None:
    """Re-derive every finished game's rating row from its log, then fold all ratings again."""
    svc = ready_services()
    with svc.db.read() as session:
        ids = records.finished_games(session)
        with click.progressbar(length=len(ids), label="verifying logs") as bar:
            try:
                for done in records.check_logs(session, ids):
                    bar.update(done)
            except records.RatingsLogError as e:
                fail(e)
    with click.progressbar(length=len(ids), label="finished games") as bar:
        for done in records.rebuild_rows(svc.write, ids):
            bar.update(done)
    CURRENT.clear()
    with svc.db.read() as session:
        folded = CURRENT.of(session).get(session)
    rated = sum(1 for r in folded.recent if r.status.name == "RATED")
    click.echo(f"{len(ids)} finished games read; {folded.folded} in the ratings "
               f"({rated} of the newest {len(folded.recent)} rated)")


@ratings.command()
@click.option("--kind", default=OVERALL, show_default=True, help="A game kind, or overall.")
@click.option("--active-days", type=click.IntRange(1, 36500),
              help="Only players active within so many days.")
@click.option("--limit", type=click.IntRange(1, 10_000), default=20, show_default=True)
@with_appcontext
def show(kind: str, active_days: int | None, limit: int) -> None:
    """Print a leaderboard."""
    svc = ready_services()
    with svc.db.read() as session:
        rows = queries.leaderboard(CURRENT.of(session).get(session), kind, now=clock.utcnow(),
                                   active_days=active_days, limit=limit)
        ids = [int(row.standing.player) for row in rows]
        names = {str(p.id): p.name for p in session.scalars(
            select(Player).where(Player.id.in_(ids)))} if ids else {}
    for row in rows:
        s = row.standing
        flag = " (provisional)" if s.provisional else ""
        name = names.get(s.player, s.player)
        click.echo(f"{row.place:>4}. {name:<24} {s.display:>5}{flag}  {s.games} games")
