"""What the pages read from Ratings: leaderboards, head-to-head records and recent games."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from .games import OVERALL, Status
from .state import History, Point, Ratings, Result, Standing


@dataclass(frozen=True, slots=True)
class Row:
    """A leaderboard line: the place (shared by equal shown ratings) and the standing."""

    place: int
    standing: Standing


@dataclass(frozen=True, slots=True)
class Record:
    """A player's rated games against one opponent in one pool (a kind, or OVERALL).

    A win is a game the player finished above the opponent, a draw one they shared a place
    in, a loss one they finished below (places after bots drop out and timeouts go last).
    """

    opponent: str
    pool: str
    games: int
    wins: int
    draws: int
    losses: int


def leaderboard(
    ratings: Ratings,
    pool: str = OVERALL,
    *,
    now: datetime | None = None,
    active_days: float | None = None,
    provisional: bool = True,
    limit: int | None = None,
) -> tuple[Row, ...]:
    """Rank a pool's players by shown rating, optionally only those active and settled.

    With `active_days`, only players whose last game in the pool finished at most that many
    days before `now` are listed; with `provisional=False`, provisional ratings are left out.
    Equal shown ratings share a place; higher mu, then the player id, order them.
    """
    if active_days is not None and now is None:
        raise ValueError("an active-players filter needs the moment it counts back from")
    since = None if now is None or active_days is None else now - timedelta(days=active_days)
    listed = [
        s
        for s in ratings.standings.get(pool, {}).values()
        if (since is None or s.last_played >= since) and (provisional or not s.provisional)
    ]
    ranked = sorted(((s.display, s) for s in listed), key=lambda d: (-d[0], -d[1].mu, d[1].player))
    rows: list[Row] = []
    for index, (shown, standing) in enumerate(ranked[:limit]):
        shared = index > 0 and ranked[index - 1][0] == shown
        rows.append(Row(rows[-1].place if shared else index + 1, standing))
    return tuple(rows)


def head_to_head(ratings: Ratings, player: str) -> tuple[Record, ...]:
    """Return the player's record against each opponent, per kind and OVERALL.

    Only rated games count. Opponents met most often come first; each opponent's OVERALL
    record comes before their records per kind.
    """
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for result in ratings.results_of.get(player, ()):
        if result.status is not Status.RATED:
            continue
        record = result.record
        seated = list(zip(record.seats, record.places, strict=True))
        mine = next(p for s, p in seated if s.player == player)
        if mine is None:
            continue
        for seat, place in seated:
            if seat.player is None or seat.player == player or place is None:
                continue
            outcome = 0 if mine < place else 1 if mine == place else 2
            tally[(seat.player, record.kind)][outcome] += 1
            tally[(seat.player, OVERALL)][outcome] += 1
    met = {opponent: sum(t) for (opponent, pool), t in tally.items() if pool == OVERALL}
    keys = sorted(tally, key=lambda k: (-met[k[0]], k[0], k[1] != OVERALL, k[1]))
    return tuple(Record(o, pool, sum(tally[o, pool]), *tally[o, pool]) for o, pool in keys)


def recent_games(
    ratings: Ratings, player: str | None = None, *, kind: str | None = None, limit: int = 20
) -> tuple[Result, ...]:
    """Return the newest games first, rated or not: a player's, or anyone's (the last 100)."""
    if player is None:
        newest = ratings.recent
    else:
        newest = tuple(reversed(ratings.results_of.get(player, ())))
    if kind is not None:
        newest = tuple(r for r in newest if r.record.kind == kind)
    return newest[:limit]


def standing(ratings: Ratings, player: str, pool: str = OVERALL) -> Standing | None:
    """Return a player's rating in a pool, or None if they have no rated game there."""
    return ratings.standings.get(pool, {}).get(player)


def history(ratings: Ratings, player: str, pool: str = OVERALL) -> tuple[Point, ...]:
    """Return a player's rated games in a pool, oldest first: what the chart plots."""
    return ratings.histories.get(pool, {}).get(player, History()).points


def pools_of(ratings: Ratings, player: str) -> tuple[str, ...]:
    """Return the pools a player is rated in: OVERALL first, then the kinds by name."""
    kinds = sorted(p for p, table in ratings.standings.items() if p != OVERALL and player in table)
    return (OVERALL, *kinds) if player in ratings.standings.get(OVERALL, {}) else ()


def change_of(result: Result, player: str) -> tuple[int, int] | None:
    """Return a player's shown rating before and after a listed game, or None if unrated."""
    for seat, change in zip(result.record.seats, result.changes, strict=True):
        if seat.player == player:
            return change
    return None
