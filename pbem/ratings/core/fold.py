"""Ratings as a fold of finished games: `rebuild` from the start, `apply` one more game.

Each game rates its players twice with the same rule: in the pool of its kind and in the
OVERALL pool. Within a pool a player's sigma first grows for the days since their last
game in that pool (`scale.grown`), then openskill rates the game (`skill.Rater`). `rebuild`
and `apply` share `rate_pool` and `result_of`, so a rebuild and a run of applies do the
same float operations in the same order and give the same figures to the last bit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from .games import OVERALL, InvalidGame, OutOfOrder, RatedGame, Status
from .scale import display, grown, idle_days
from .skill import MU, SIGMA, Rater
from .state import Change, History, Ratings, Result, Row, Standing, State

RECENT = 100  # games kept in Ratings.recent, newest first
BEFORE: Final = 4  # where a Row keeps the shown rating before the game
AFTER: Final = 5  # and after it
NO_HISTORY = History()


def rate_pool(
    rater: Rater, game: RatedGame, olds: Sequence[State | None]
) -> tuple[list[State], list[Row]]:
    """Rate a game's rated seats in one pool: their states and history rows after it.

    `olds` are the seats' states before (None for a player new to the pool), in the order
    of `game.rated`.
    """
    at = game.finished_at
    priors = [
        (MU, SIGMA) if old is None else (old[0], grown(old[1], idle_days(old[3], at)))
        for old in olds
    ]
    posts = rater.rate(priors, [place for _, place in game.rated])
    count = len(posts)
    states: list[State] = []
    rows: list[Row] = []
    for (_, place), old, (mu0, sigma0), (mu, sigma) in zip(
        game.rated, olds, priors, posts, strict=True
    ):
        states.append((mu, sigma, 1 if old is None else old[2] + 1, at))
        before, after = display(mu0, sigma0), display(mu, sigma)
        rows.append((game.game, at, mu, sigma, before, after, place, count))
    return states, rows


def result_of(game: RatedGame, status: Status, rows: Mapping[str, Row]) -> Result:
    """List a folded game with each seat's change in the game's kind."""
    changes: list[Change] = []
    for seat in game.seats:
        row = None if seat.player is None else rows.get(seat.player)
        changes.append(None if row is None else (row[BEFORE], row[AFTER]))
    return Result(game, status, tuple(changes))


def rebuild(games: Iterable[RatedGame]) -> Ratings:
    """Fold every game from the start, in finish order (ties broken by game id)."""
    ordered = sorted(games, key=lambda g: (g.finished_at, g.game))
    rater = Rater()
    tables: dict[str, dict[str, State]] = {}
    histories: dict[str, dict[str, list[Row]]] = {}
    results_of: dict[str, list[Result]] = {}
    results: list[Result] = []
    seen: set[str] = set()
    for game in ordered:
        if game.game in seen:
            raise InvalidGame(f"game {game.game!r}: given more than once")
        seen.add(game.game)
        status = game.outcome
        kind_rows: dict[str, Row] = {}
        if status is Status.RATED:
            for pool in (game.kind, OVERALL):
                table = tables.setdefault(pool, {})
                history = histories.setdefault(pool, {})
                states, rows = rate_pool(rater, game, [table.get(p) for p, _ in game.rated])
                for (player, _), state, row in zip(game.rated, states, rows, strict=True):
                    table[player] = state
                    if player in history:
                        history[player].append(row)
                    else:
                        history[player] = [row]
                    if pool != OVERALL:
                        kind_rows[player] = row
        result = result_of(game, status, kind_rows)
        results.append(result)
        for seat in game.seats:
            if seat.player is not None:
                results_of.setdefault(seat.player, []).append(result)
    return Ratings(
        standings={
            pool: {p: Standing(p, pool, *state) for p, state in table.items()}
            for pool, table in tables.items()
        },
        histories={
            pool: {p: History.from_rows(rows) for p, rows in by.items()}
            for pool, by in histories.items()
        },
        results_of={p: tuple(r) for p, r in results_of.items()},
        recent=tuple(reversed(results[-RECENT:])),
        last=ordered[-1].key if ordered else None,
        folded=len(ordered),
    )


def apply(ratings: Ratings, game: RatedGame) -> Ratings:
    """Fold one more game, finished after every game already folded; the rest is shared."""
    check_order(ratings, game)
    rater = Rater()
    status = game.outcome
    standings = dict(ratings.standings)
    histories = dict(ratings.histories)
    kind_rows: dict[str, Row] = {}
    if status is Status.RATED:
        for pool in (game.kind, OVERALL):
            table = dict(standings.get(pool, {}))
            history = dict(histories.get(pool, {}))
            olds = [state_of(table.get(p)) for p, _ in game.rated]
            states, rows = rate_pool(rater, game, olds)
            for (player, _), state, row in zip(game.rated, states, rows, strict=True):
                table[player] = Standing(player, pool, *state)
                history[player] = history.get(player, NO_HISTORY).added(row)
                if pool != OVERALL:
                    kind_rows[player] = row
            standings[pool] = table
            histories[pool] = history
    result = result_of(game, status, kind_rows)
    results_of = dict(ratings.results_of)
    for seat in game.seats:
        if seat.player is not None:
            results_of[seat.player] = results_of.get(seat.player, ()) + (result,)
    return Ratings(
        standings=standings,
        histories=histories,
        results_of=results_of,
        recent=((result,) + ratings.recent)[:RECENT],
        last=game.key,
        folded=ratings.folded + 1,
    )


def state_of(standing: Standing | None) -> State | None:
    """Return the plain state the fold works on, from a standing."""
    if standing is None:
        return None
    return (standing.mu, standing.sigma, standing.games, standing.last_played)


def check_order(ratings: Ratings, game: RatedGame) -> None:
    """Raise OutOfOrder unless the game is new and finishes after every folded game."""
    if ratings.last is not None and game.key <= ratings.last:
        at, last = ratings.last
        raise OutOfOrder(
            f"game {game.game!r} finished at {game.finished_at.isoformat()}, not after game "
            f"{last!r} ({at.isoformat()}), the newest already rated: rebuild instead"
        )
    for seat in game.seats:
        if seat.player is not None:
            if any(r.record.game == game.game for r in ratings.results_of.get(seat.player, ())):
                raise OutOfOrder(f"game {game.game!r} is already rated: rebuild to re-rate it")
            break
