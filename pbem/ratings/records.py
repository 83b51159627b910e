"""Each finished game as ratings read it, derived from its log and kept as a row.

A game's row says who sat where (a house bot or an imported placeholder is not rated),
the places (adjudicated ones when a director set them), who timed out, and whether the
game counts: aborted games, games where someone never moved, annulled tournament games
and games of unrated tournaments do not. Rows are written when a game ends and by
`rebuild_rows`; they are a cache of the logs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .. import clock
from ..context import Context
from ..errors import PbemError
from ..log import store
from ..log.chain import check_chain
from ..log.games import Loaded, dice_held, loaded_from, shares_dice
from ..models import Game, RatedGameRow, Tournament
from ..tournaments.core.scoring import timeout_annulments
from ..tournaments.log import load as load_tournament
from .core.games import RatedGame, Seat, Status

UNRATED_DOMAINS = ("@bot.invalid", "@imported.invalid")  # house bots, unknown importees


def is_rated_player(email: str) -> bool:
    """Whether a seat's player is a person whose results are rated."""
    return not email.endswith(UNRATED_DOMAINS)


def finished_at(log: list[store.LogEntry]) -> datetime:
    """When a game ended: its last event before the seed's reveal."""
    last = next(e for e in reversed(log) if e.kind != "reveal")
    return clock.as_utc(datetime.fromisoformat(last.at))


def annulled(session: Session, game: Game) -> bool | None:
    """Whether a tournament annulled the game; None when its tournament is unrated."""
    if game.tournament_id is None:
        return False
    row = session.get(Tournament, game.tournament_id)
    if row is None:
        return False
    state = load_tournament(session, row.public_id).state
    if not state.config.rated:
        return None
    table = state.by_game.get(game.public_id)
    return table is not None and (
        table.annulled is not None or game.public_id in timeout_annulments(state)
    )


def rated_game(session: Session, loaded: Loaded) -> RatedGame | None:
    """A finished game as ratings see it (None when its tournament is unrated)."""
    game = loaded.game
    log = store.entries(session, game)
    timed_out = {e.seat for e in log if e.kind == "timeout"}
    moved = {e.seat for e in log if e.kind == "move"}
    outcome = loaded.outcome
    ranks = outcome.ranks if outcome is not None else (None,) * len(game.seats)
    seats = tuple(
        Seat(str(s.player_id) if is_rated_player(s.player.email) else None, ranks[s.seat],
             s.seat in timed_out)
        for s in game.seats
    )
    status = Status.RATED
    cancelled = annulled(session, game)
    if cancelled is None:
        return None
    # An aborted game has no outcome: its ruling sets none, and a director may abort only a
    # game still going. A game over without an outcome counts as aborted too (one imported
    # before imports kept their ruling is one), so `outcome is None` says both.
    if outcome is None:
        status = Status.ABORTED
    elif cancelled:
        status = Status.ANNULLED
    elif any(s.seat not in moved for s in game.seats):
        status = Status.NEVER_MOVED
    adjudicated = loaded.ruling is not None and loaded.ruling.kind == "adjudicate"
    return RatedGame(game.public_id, game.kind, finished_at(log), seats, status, adjudicated)


def to_row(game_id: int, record: RatedGame) -> RatedGameRow:
    """The row that stores a rated game."""
    seats = [{"player": s.player, "rank": s.rank, "timed_out": s.timed_out} for s in record.seats]
    return RatedGameRow(game_id=game_id, kind=record.kind, finished_at=record.finished_at,
                        seats=json.dumps(seats), status=record.status.name,
                        adjudicated=record.adjudicated, changed_at=clock.utcnow())


def from_row(public_id: str, row: RatedGameRow) -> RatedGame:
    """A rated game read back from its row."""
    seats = tuple(Seat(s["player"], s["rank"], bool(s["timed_out"])) for s in json.loads(row.seats))
    return RatedGame(public_id, row.kind, clock.as_utc(row.finished_at), seats,
                     Status[row.status], bool(row.adjudicated))


def refresh(session: Session, game: Game) -> None:
    """Write (or rewrite) the row of a game that is over, once its dice are nobody's to come."""
    if game.status == "active" or dice_held(session, game):
        return
    record = rated_game(session, loaded_from(session, game))
    session.execute(delete(RatedGameRow).where(RatedGameRow.game_id == game.id))
    if record is not None:
        session.add(to_row(game.id, record))


def on_game_end(session: Session, ctx: Context, loaded: Loaded) -> None:
    """The game-end hook: keep the game's row (after its tournament has recorded it).

    The last game on a shared dice stream to end brings in the rows of the others too.
    """
    game = loaded.game
    sharing = [game]
    if shares_dice(game):
        sharing = list(session.scalars(select(Game).where(Game.stream == game.stream)
                                       .order_by(Game.id)))
    for each in sharing:
        refresh(session, each)


def rated_games(session: Session) -> list[RatedGame]:
    """Every row, in finish order."""
    query = (
        select(Game.public_id, RatedGameRow)
        .join(RatedGameRow, RatedGameRow.game_id == Game.id)
        .order_by(RatedGameRow.finished_at, Game.public_id)
    )
    return [from_row(public_id, row) for public_id, row in session.execute(query)]


def finished_games(session: Session) -> list[int]:
    """The ids of every game that is over."""
    query = select(Game.id).where(Game.status != "active").order_by(Game.id)
    return list(session.scalars(query))


def unverified(session: Session, game_id: int) -> str | None:
    """Why a game's log cannot be trusted for ratings (a broken chain or head), or None."""
    game = session.get(Game, game_id)
    if game is None:
        return None
    log = store.entries(session, game)
    problem = check_chain(log)
    if problem is not None:
        return f"game {game.public_id}: seq {problem.seq}: {problem.reason}"
    if not log or (log[-1].seq, log[-1].hash) != (game.head_seq, game.head_hash):
        return f"game {game.public_id}: the log does not end at the game's head"
    return None


def check_logs(session: Session, ids: Iterable[int]) -> Iterator[int]:
    """Verify each game's chain before anything is rewritten; RatingsLogError names the first."""
    for game_id in ids:
        problem = unverified(session, game_id)
        if problem is not None:
            raise RatingsLogError(f"ratings were not rebuilt, nothing changed: {problem}")
        yield 1


class RatingsLogError(PbemError):
    """A game's log fails verification, so ratings are not rebuilt from it."""

    status = 409
    code = "log-does-not-verify"


def rebuild_rows(
    run: Callable[[Callable[[Session], None]], None],
    ids: Iterable[int],
    batch: int = 200,
) -> Iterator[int]:
    """Rewrite the rows of these games from their logs, a batch per transaction."""
    pending = list(ids)
    for start in range(0, len(pending), batch):
        chunk = pending[start : start + batch]

        def work(session: Session, chunk: list[int] = chunk) -> None:
            for game_id in chunk:
                game = session.get(Game, game_id)
                if game is not None:
                    refresh(session, game)

        run(work)
        yield len(chunk)

