"""Rebuilding ratings from finished games, against a bare openskill loop over the same ranks.

Usage: python bench/bench_ratings.py [--quick] [--games N] [--repeat N] [--seed N]

The games are 4-player games of three kinds among a pool of 2,000 players, with random
ranks (ties included) and now and then a seat that timed out; one player sits in every
100th game, so that their history has 1,000 points at 100,000 games. The records are built
before the clock starts (the server builds them from the logs). pbem.ratings.core.fold.rebuild
rates each game twice, in its kind and overall; the baseline does the same rating maths
with nothing else: model.rate on the same teams with the same ranks, once per pool, the
ratings kept in a dict. Both run alternately `--repeat` times; the best run of each counts.
Times are the CPU time of this process, which other jobs on a shared machine disturb less
than the wall clock.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import click
from openskill.models import PlackettLuce, PlackettLuceRating

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.ratings.core import chart, fold, queries  # noqa: E402
from pbem.ratings.core.games import OVERALL, RatedGame, Seat  # noqa: E402
from pbem.ratings.core.state import Ratings  # noqa: E402

KINDS = ("martian-dice", "martian-race", "mars")
POOL = 2_000
SEATS = 4
REGULAR = "p-regular"  # sits in every 100th game
START = datetime(2024, 1, 1, tzinfo=UTC)


def make_games(count: int, seed: int) -> list[RatedGame]:
    """`count` finished 4-player games in finish order, about 10 minutes apart."""
    rng = random.Random(seed)
    players = [f"p{i:04d}" for i in range(POOL)]
    games = []
    at = START
    for n in range(count):
        chosen = rng.sample(players, SEATS)
        if n % 100 == 0:
            chosen[0] = REGULAR
        raw = [rng.randint(1, SEATS) for _ in range(SEATS)]
        ranks = [1 + sum(o < r for o in raw) for r in raw]  # competition ranks, ties kept
        seats = tuple(Seat(p, r, rng.random() < 0.02) for p, r in zip(chosen, ranks, strict=True))
        at += timedelta(seconds=rng.randint(0, 1200))
        games.append(RatedGame(f"g{n:06d}", rng.choice(KINDS), at, seats))
    return games


def bare_loop(games: Sequence[tuple[str, list[str], list[float]]], pools: int) -> float:
    """The seconds openskill alone takes: model.rate per game and pool, ratings in a dict."""
    model = PlackettLuce()
    ratings: dict[tuple[str, str], PlackettLuceRating] = {}
    started = time.process_time()
    for kind, players, ranks in games:
        for pool in (kind, OVERALL)[:pools]:
            teams = [[ratings.get((pool, p)) or model.rating()] for p in players]
            rated = model.rate(teams, ranks=ranks)
            for player, team in zip(players, rated, strict=True):
                ratings[(pool, player)] = team[0]
    return time.process_time() - started


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    """The seconds a call takes, and what it returned."""
    started = time.process_time()
    result = work()
    return time.process_time() - started, result


@click.command()
@click.option("--quick", is_flag=True, help="20,000 games, one run of each side.")
@click.option("--games", "count", type=int, help="How many games (default 100,000).")
@click.option("--repeat", type=int, help="Runs of each side (default 3; the best counts).")
@click.option("--seed", default=1, show_default=True, help="Seed of the random games.")
def main(quick: bool, count: int | None, repeat: int | None, seed: int) -> None:
    """Measure a full ratings rebuild against the bare openskill loop, and a big chart."""
    count = count or (20_000 if quick else 100_000)
    repeat = repeat or (1 if quick else 3)
    click.echo(f"building {count:,} game records...", err=True)
    games = make_games(count + 50, seed)
    games, later = games[:count], games[count:]
    inputs = [
        (g.kind, [s.player or "" for s in g.seats], [float(p or 0) for p in g.places])
        for g in games
    ]
    rebuilds, bares = [], []
    ratings = Ratings()
    with click.progressbar(range(repeat), label="rebuild vs bare loop", file=sys.stderr) as bar:
        for _ in bar:
            ratings = Ratings()  # a live rebuild would weigh on whatever runs next
            gc.collect()
            bares.append(bare_loop(inputs, pools=2))
            gc.collect()
            spent, ratings = timed(lambda: fold.rebuild(games))
            rebuilds.append(spent)
    one_pool = bare_loop(inputs, pools=1)
    points = len(queries.history(ratings, REGULAR))
    drawn = [timed(lambda: draw(ratings)) for _ in range(21)]
    ET.fromstring(drawn[0][1])  # the chart is well-formed
    applies = []
    for game in later:
        spent, ratings = timed(lambda r=ratings, g=game: fold.apply(r, g))
        applies.append(spent)
    rows = [
        ("games (4 seats, 3 kinds, 2,000 players)", f"{count:,}"),
        ("rebuild, best of runs", seconds(rebuilds)),
        ("bare loop, 2 pools, best of runs", seconds(bares)),
        ("bare loop, kind pool only (1 run)", f"{one_pool:.2f} s"),
        ("per game: rebuild / bare", f"{per_game(rebuilds, count)} / {per_game(bares, count)}"),
        ("ratio bare / rebuild (target >= 0.5)", verdict(min(bares) / min(rebuilds))),
        ("ratio against one pool's bare loop", f"{one_pool / min(rebuilds):.2f}"),
        (
            f"history + chart of {points:,} points, median of 21",
            f"{statistics.median(t for t, _ in drawn) * 1000:.1f} ms, {len(drawn[0][1]):,} bytes",
        ),
        ("apply one more game, median of 50", f"{statistics.median(applies) * 1000:.2f} ms"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        click.echo(f"{name:<{width}}  {value}")


def draw(ratings: Ratings) -> str:
    """The regular player's overall chart, from their history in the ratings."""
    return chart.chart(queries.history(ratings, REGULAR), player="Regular", kind=OVERALL)


def seconds(runs: list[float]) -> str:
    """The best run, then every run."""
    return f"{min(runs):.2f} s  ({', '.join(f'{t:.2f}' for t in runs)})"


def per_game(runs: list[float], count: int) -> str:
    """The best run's time per game."""
    return f"{min(runs) / count * 1e6:.0f} us"


def verdict(ratio: float) -> str:
    """The ratio, and whether it meets the target."""
    return f"{ratio:.2f} {'OK' if ratio >= 0.5 else 'BELOW TARGET'}"


if __name__ == "__main__":
    main()
