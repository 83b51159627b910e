"""The result the server gives a game it ends on a round's date: the scores so far, if the
game keeps any (the leader wins, level scores draw), else a draw; and the basis, in words."""

from __future__ import annotations

import math
from dataclasses import dataclass

import engine
from engine.figures import figure

from ..log.games import Loaded


@dataclass(frozen=True)
class Ruling:
    """Places and scores per seat, and what they were read from."""

    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None
    basis: str


def current_scores(loaded: Loaded) -> tuple[float, ...] | None:
    """The game's scores now, when its rules tell them (`Rules.scores(state)`), else None."""
    read = getattr(loaded.rules, "scores", None)
    if not callable(read):
        return None
    try:
        values = tuple(float(v) for v in read(loaded.state))
    except (TypeError, ValueError):
        return None
    seats = len(loaded.game.seats)
    if len(values) != seats or not all(math.isfinite(v) for v in values):
        return None
    return values


def ruling(loaded: Loaded, names: list[str]) -> Ruling:
    """Adjudicate an unfinished game on its scores so far, or as a draw without any."""
    seats = len(loaded.game.seats)
    scores = current_scores(loaded)
    if scores is None:
        return Ruling((1,) * seats, None, "no score (the game keeps none): a draw")
    ranks = engine.Outcome.from_scores(scores, "").ranks
    said = ", ".join(f"{name} {figure(v)}" for name, v in zip(names, scores, strict=True))
    if all(rank == 1 for rank in ranks):
        return Ruling(ranks, scores, f"the scores so far ({said}): level, so a draw")
    leaders = [name for name, rank in zip(names, ranks, strict=True) if rank == 1]
    return Ruling(ranks, scores, f"the scores so far ({said}): {' and '.join(leaders)} "
                                 f"{'leads' if len(leaders) == 1 else 'lead'}, so "
                                 f"{'wins' if len(leaders) == 1 else 'share first place'}")
