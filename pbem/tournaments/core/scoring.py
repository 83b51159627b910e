"""Points per game: places on a common scale or game points, byes, and what is annulled."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from .model import Table, Tournament

# A table of n gives `(n - place) / (n - 1)` per seat, a shared place the average over the places
# it covers, so two players score 1 / 1/2 / 0 and tables of 3 and 5 compare. With `{"by":
# "game-points"}` a game gives each seat its outcome score instead (a game without scores falls
# back to places). Annulled games count for nobody: those the director annulled, those whose result
# is flagged "annulled", and every timeout loss of a player after their first one (the first
# counts).

ANNULLED = "annulled"


@dataclass(frozen=True)
class Scored:
    """A finished game as the standings count it (`annulled` says why it does not count)."""

    game: str
    round: int | None
    seats: tuple[str, ...]
    ranks: tuple[int, ...]
    places: tuple[float, ...]
    points: tuple[float, ...]
    annulled: str
    flags: tuple[str, ...]
    finished_at: datetime | None


@lru_cache(maxsize=4096)
def average_places(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """Return each seat's place, a shared place averaged over the places it covers."""
    better = [sum(1 for r in ranks if r < mine) for mine in ranks]
    return tuple(b + (ranks.count(mine) + 1) / 2 for b, mine in zip(better, ranks, strict=True))


@lru_cache(maxsize=4096)
def place_points(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """Return each seat's table points, (n - place) / (n - 1) with shared places averaged."""
    n = len(ranks)
    return tuple((n - p) / (n - 1) for p in average_places(ranks))


def score_game(
    table: Table, ranks: tuple[int, ...], scores: tuple[float, ...] | None,
    flags: tuple[str, ...], scoring: str, annulled: str, finished_at: datetime | None,
) -> Scored:
    """Return a finished game's places and points (all 0 when annulled)."""
    if annulled:
        points: tuple[float, ...] = (0.0,) * len(ranks)
    elif scoring == "game-points" and scores is not None:
        points = scores
    else:
        points = place_points(ranks)
    if annulled and ANNULLED not in flags:
        flags = flags + (ANNULLED,)
    return Scored(table.game, table.round, table.seats, ranks, average_places(ranks), points,
                  annulled, flags, finished_at)


def timeout_annulments(t: Tournament) -> dict[str, str]:
    """Return the games annulled as a player's later timeout losses, with the reason."""
    finished = sorted(
        (table.result.finished_at, table.result.seq, table.game)
        for table in t.tables
        if table.result is not None and table.result.timed_out and not base_annulment(table)
    )
    first: dict[str, str] = {}
    annulled: dict[str, str] = {}
    for _, _, game in finished:
        table = t.by_game[game]
        assert table.result is not None
        for seat in table.result.timed_out:
            player = table.seats[seat]
            if player not in first:
                first[player] = game
            elif game not in annulled:
                name = t.entrant(player).name
                annulled[game] = f"a later timeout loss of {name} (the first was {first[player]})"
    return annulled


def base_annulment(table: Table) -> str:
    """Return why a game is annulled by the director or its result, or ''."""
    if table.annulled is not None:
        return f"annulled by the director: {table.annulled}"
    if table.result is not None and ANNULLED in table.result.flags:
        return "annulled in its result"
    return ""


def scored_games(t: Tournament) -> tuple[Scored, ...]:
    """Return every finished game of the event, in pairing order, as standings count it."""
    later = timeout_annulments(t)
    scoring = t.config.scoring
    scored = []
    for table in t.tables:
        result = table.result
        if result is None:
            continue
        reason = later.get(table.game, "") if later else ""
        if table.annulled is not None or ANNULLED in result.flags:
            reason = base_annulment(table)
        scored.append(score_game(table, result.ranks, result.scores, result.flags, scoring,
                                 reason, result.finished_at))
    return tuple(scored)


def totals(t: Tournament, games: Sequence[Scored] | None = None) -> dict[str, float]:
    """Return each entrant's points: games that count plus byes."""
    points = {e.player: 0.0 for e in t.entrants}
    for game in scored_games(t) if games is None else games:
        if not game.annulled:
            for player, value in zip(game.seats, game.points, strict=True):
                points[player] = points.get(player, 0.0) + value
    for bye in t.byes:
        points[bye.player] = points.get(bye.player, 0.0) + bye.points
    return points


def bye_points(t: Tournament) -> float:
    """Return what a pairing bye scores: a win on the places scale, nothing in game points."""
    return 1.0 if t.config.scoring == "places" else 0.0
