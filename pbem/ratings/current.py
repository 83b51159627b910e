"""The ratings now: rebuilt from the rated-game rows once, then brought up to date game by game.

Each process keeps one `Ratings`. Before use it compares the rows' count and newest
change with what it folded: new games that finish after everything folded are applied
one by one (the same figures a rebuild gives); anything else, such as a game annulled or
adjudicated after later games, or rows rebuilt, folds everything again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..db.kept import PerDatabase
from ..models import Game, RatedGameRow
from .core.fold import apply, rebuild
from .core.games import RatedGame
from .core.state import Ratings
from .records import from_row

Key = tuple[int, datetime | None]


def rows_key(session: Session) -> Key:
    """How many rows there are and when the newest was written."""
    count, newest = session.execute(
        select(func.count(), func.max(RatedGameRow.changed_at))
    ).one()
    return int(count), newest


def rows_since(session: Session, changed: datetime | None) -> list[tuple[int, RatedGame]]:
    """Rows written after a moment (all rows when it is None), in finish order."""
    query = (
        select(Game.public_id, RatedGameRow)
        .join(RatedGameRow, RatedGameRow.game_id == Game.id)
        .order_by(RatedGameRow.finished_at, Game.public_id)
    )
    if changed is not None:
        query = query.where(RatedGameRow.changed_at > changed)
    return [(row.game_id, from_row(public_id, row)) for public_id, row in session.execute(query)]


class Current:
    """One process's ratings, kept up to date from the rows."""

    def __init__(self) -> None:
        self._ratings = Ratings()
        self._key: Key = (0, None)
        self._seen: set[int] = set()
        self._lock = threading.Lock()

    def get(self, session: Session) -> Ratings:
        """The ratings as of the rows now."""
        key = rows_key(session)
        with self._lock:
            if key != self._key:
                self._catch_up(session, key)
            return self._ratings

    def _catch_up(self, session: Session, key: Key) -> None:
        fresh = rows_since(session, self._key[1]) if self._key[1] is not None else []
        last = self._ratings.last
        appendable = (
            self._key[1] is not None
            and len(fresh) == key[0] - self._key[0]
            and all(game_id not in self._seen for game_id, _ in fresh)
            and all(last is None or game.key > last for _, game in fresh)
        )
        if appendable:
            self._ratings = extended(self._ratings, (game for _, game in fresh))
            self._seen.update(game_id for game_id, _ in fresh)
        else:
            everything = rows_since(session, None)
            self._ratings = rebuild(game for _, game in everything)
            self._seen = {game_id for game_id, _ in everything}
        self._key = key

    def clear(self) -> None:
        """Forget everything (the next use rebuilds)."""
        with self._lock:
            self.__init__()  # type: ignore[misc]


def extended(ratings: Ratings, games: Iterable[RatedGame]) -> Ratings:
    """The ratings with more games applied in order."""
    for game in games:
        ratings = apply(ratings, game)
    return ratings


CURRENT: PerDatabase[Current] = PerDatabase(Current)


def rating_of(session: Session, player: int, kind: str) -> float | None:
    """A player's shown rating in a game kind, for seeding (None before their first game)."""
    found = CURRENT.of(session).get(session).standings.get(kind, {}).get(str(player))
    return float(found.display) if found is not None else None


def entry_record(session: Session, player: int, kind: str) -> tuple[float | None, int]:
    """A player's shown rating in a game kind (None before their first game) and how many
    rated games of it they have played: what an event's entry rules ask."""
    found = CURRENT.of(session).get(session).standings.get(kind, {}).get(str(player))
    return (float(found.display), found.games) if found is not None else (None, 0)
