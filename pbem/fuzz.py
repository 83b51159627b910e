"""Random play-throughs of a game in worker processes: every game must end and replay alike."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engine
from engine.testing import DeadEnd, play_randomly


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
