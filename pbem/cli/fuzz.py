"""`pbem fuzz`: random play-throughs in worker processes; every game must end and replay alike."""

from __future__ import annotations

import contextlib
import multiprocessing
import random
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import click

import engine
from engine.testing import DeadEnd, play_randomly, with_limits

from .common import fail


@dataclass(frozen=True)
class Result:
    """One random game: its seed, how it ended, and whether the contract held."""

    seed: int
    events: int
    finished: bool
    draw: bool
    problem: str | None


def play_one(kind: str, seats: int, options: Mapping[str, Any], seed: int) -> Result:
    """Play one random game and check that replaying its events gives the same state."""
    rules = engine.rules_for(kind)
    try:
        game = play_randomly(rules, seats, random.Random(seed), options)
    except DeadEnd as e:
        return Result(seed, 0, False, False, f"dead end: {e}")
    except engine.RulesError as e:
        return Result(seed, 0, False, False, f"the rules refused a legal action: {e}")
    replayed = engine.replay(rules, seats, options, game.events)
    problem = None
    if rules.dump(replayed) != rules.dump(game.state):
        problem = "replaying the events gave another state"
    elif not game.finished:
        problem = "the game did not end within the event budget"
    outcome = rules.outcome(game.state)
    draw = outcome is not None and min(outcome.ranks) == max(outcome.ranks)
    return Result(seed, len(game.events), game.finished, draw, problem)


def play_star(job: tuple[str, int, Mapping[str, Any], int]) -> Result:
    """play_one for a worker pool."""
    return play_one(*job)


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
        # The limits no rulebook has are off by default; random play needs them (--option
        # stall_rounds=0 turns one off again).
        resolved = rules.resolve_options({**with_limits(rules, None), **parsed}, preset)
    except engine.RulesError as e:
        fail(e)
    count = seats or rules.seats[0]
    work = [(kind, count, resolved, seed) for seed in range(first_seed, first_seed + games)]
    problems, events, draws = [], 0, 0
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if jobs == 1:
            results: Iterable[Any] = map(play_star, work)
        else:
            pool = stack.enter_context(multiprocessing.Pool(jobs or None))
            results = pool.imap_unordered(play_star, work, chunksize=8)
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
