"""Play whole tournaments purely: pair what the plan says, finish games with random results."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from datetime import timedelta

from pbem.tournaments.core.formats import is_over, plan, unfinished
from pbem.tournaments.core.model import Tournament
from pbem.tournaments.core.plans import Plan

from .logs import Log

Hook = Callable[[Log, Tournament], None]


def commit(log: Log, p: Plan) -> list[str]:
    """Log a plan as the server would, with fresh game ids."""
    games = [f"g{log.games + i + 1}" for i in range(len(p.tables))]
    log.games += len(games)
    log.add("pair", p.payload(games))
    return games


def random_ranks(rng: random.Random, seats: int) -> list[int]:
    """Return ranks as games give them: shared places allowed, 1 always present."""
    values = [rng.randint(1, seats) for _ in range(seats)]
    order = sorted(values)
    return [order.index(v) + 1 for v in values]


def run(
    log: Log, seed: int, *, hooks: dict[int, Hook] | None = None,
    away: Callable[[int], Collection[str]] = lambda step: (), max_steps: int = 3000,
    on_plan: Callable[[Tournament, Plan], None] | None = None, timeouts: float = 0.1,
    algorithm: str | None = None,
) -> Log:
    """Drive an event to its end; `hooks` act at given steps, `away` says who is away when;
    `algorithm` names an earlier pairing version to pair by (the current one by default)."""
    rng = random.Random(seed)
    for step in range(max_steps):
        if hooks and step in hooks:
            hooks[step](log, log.tournament())
        t = log.tournament()
        if is_over(t):
            return log
        p = plan(t, log.now, frozenset(away(step)), algorithm)
        if p is not None:
            if on_plan is not None:
                on_plan(t, p)
            commit(log, p)
            continue
        going = unfinished(t)
        if not going:
            log.now += timedelta(hours=6)  # someone is waiting for P players or W hours
            continue
        table = going[rng.randrange(len(going))]
        flags = ["timeout"] if rng.random() < timeouts else []
        ranks = random_ranks(rng, len(table.seats))
        scores = None
        if t.config.scoring == "game-points":
            scores = [5.0 * (len(ranks) - r) + rng.randint(0, 4) for r in ranks]
        log.result(table.game, ranks, scores, flags=flags, hours=rng.choice([1, 2, 5]))
    raise AssertionError(f"the event did not end in {max_steps} steps")
