"""A whole tournament through the server: a 64-player, 7-round two-player Swiss simulated.

Usage: python bench/bench_tournament_event.py [--quick] [--players 64] [--rounds 7] [--kind K]
                                              [--dir PATH]

`pbem tournament simulate` does it all through the service layer on a SQLite file (WAL,
synchronous=FULL, as the server runs): create the event, enter the players, start it,
then play every game with the house bot, one submission per move, each with its rolls,
log append, snapshot, mail and state cache; results and pairings follow from the games'
ends. The baseline, measured in the same run, is the same number of games of the same
kind played by the same bot in the engine alone (no database, no server), so the ratio
says what running a tournament costs on top of playing its games.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.testing import with_limits  # noqa: E402
from pbem.config import load_settings  # noqa: E402
from pbem.db import migrate  # noqa: E402
from pbem.tournaments import simulate  # noqa: E402
from pbem.web.app import create_app  # noqa: E402


def engine_only(kind: str, games: int, seed: int) -> tuple[float, int]:
    """Seconds to play this many bot games in the engine alone, and the moves made."""
    rules = engine.rules_for(kind)
    rng = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        # The same optional stall and turn limits as a simulated tournament's games.
        state = rules.start(2, rules.resolve_options(with_limits(rules, None)))
        while True:
            pending = rules.pending(state)
            if isinstance(pending, engine.Finished):
                break
            if isinstance(pending, engine.Roll):
                values = tuple(rng.randint(1, pending.sides) for _ in range(pending.count))
                state = engine.step(rules, state, engine.Rolled(values))
            elif isinstance(pending, engine.Shuffle):
                order = list(range(pending.n))
                rng.shuffle(order)
                state = engine.step(rules, state, engine.Shuffled(tuple(order)))
            else:
                seat = pending.seats[0]
                action = rules.bot_action(state, seat)
                state = engine.step(rules, state, engine.Played(seat, action))
                moves += 1
    return time.perf_counter() - started, moves


@click.command()
@click.option("--quick", is_flag=True, help="8 players, 2 rounds.")
@click.option("--players", type=int, help="How many players (default 64).")
@click.option("--rounds", type=int, help="How many rounds (default 7).")
@click.option("--kind", default="martian-frisby", show_default=True)
@click.option("--seed", default=1, show_default=True)
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path))
def main(
    quick: bool, players: int | None, rounds: int | None, kind: str, seed: int,
    folder: Path | None,
) -> None:
    """Simulate the event through the server, then the same games in the engine alone."""
    players = players or (8 if quick else 64)
    rounds = rounds or (2 if quick else 7)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        base = load_settings({"PBEM_INSTANCE_PATH": str(Path(tmp) / "instance"),
                              "PBEM_SECRET_KEY": "the benchmark key: 32 bytes or longer"})
        settings = replace(base, database_url=f"sqlite:///{Path(tmp) / 'pbem.db'}")
        app = create_app({"SETTINGS": settings})
        svc = app.extensions["pbem"]
        migrate.upgrade(svc.db.engine)
        with app.app_context():
            report = simulate.run(svc, "swiss", kind, players, None, seed, {"rounds": rounds},
                                  progress=click.progressbar)
        svc.db.dispose()
    alone, alone_moves = engine_only(kind, report.games, seed)
    click.echo(f"{players}-player, {rounds}-round Swiss of {kind}: {report.games} games, "
               f"{report.moves:,} moves")
    click.echo(f"  through the server:  {report.seconds:8.1f} s  "
               f"({report.seconds / report.moves * 1000:.2f} ms per move)")
    click.echo(f"  engine alone:        {alone:8.1f} s  "
               f"({alone / max(alone_moves, 1) * 1000:.3f} ms per move, {alone_moves:,} moves)")
    click.echo(f"  ratio (engine alone / through the server, per move): "
               f"{(alone / max(alone_moves, 1)) / (report.seconds / report.moves):.3f}")
    for line in report.lines()[-2:]:
        click.echo(f"  {line}")


if __name__ == "__main__":
    main()
