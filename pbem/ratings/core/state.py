"""What a fold of games produces: standings, rating histories, listed games, and Ratings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from .games import RatedGame, Status
from .scale import display, is_provisional

Change = tuple[int, int] | None  # a seat's shown rating before and after, None if not rated
State = tuple[float, float, int, datetime]  # mu, sigma, games, last played: a fold's working copy
Row = tuple[str, datetime, float, float, int, int, int, int]  # a Point's fields, in order


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's current rating in one pool (a game kind, or OVERALL)."""

    player: str
    pool: str
    mu: float
    sigma: float
    games: int
    last_played: datetime

    @property
    def display(self) -> int:
        """The Elo-like number shown (see `scale`)."""
        return display(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        """Whether the rating is still too uncertain to take at face value."""
        return is_provisional(self.sigma)


@dataclass(frozen=True, slots=True)
class Point:
    """One rated game in a player's history in a pool: what a chart plots.

    `before` is the shown rating the game started from (after any growth for idle time),
    `after` the one it left; `rank` is the player's place among the rated seats (after
    bots were dropped and timeouts moved last) and `places` how many rated seats there were.
    """

    game: str
    at: datetime
    mu: float
    sigma: float
    before: int
    after: int
    rank: int
    places: int

    @property
    def delta(self) -> int:
        """The change of the shown rating this game made."""
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class History:
    """A player's rated games in one pool, oldest first, kept as one tuple per Point field.

    A rebuild of 100,000 four-player games makes 800,000 points; kept by column they take
    a fraction of the memory and time that as many objects would. `points` gives Points.
    """

    game: tuple[str, ...] = ()
    at: tuple[datetime, ...] = ()
    mu: tuple[float, ...] = ()
    sigma: tuple[float, ...] = ()
    before: tuple[int, ...] = ()
    after: tuple[int, ...] = ()
    rank: tuple[int, ...] = ()
    places: tuple[int, ...] = ()

    @classmethod
    def from_rows(cls, rows: Sequence[Row]) -> History:
        """Return the history of these points, given as rows of Point fields (no rows zip to
        no columns: an empty history)."""
        return cls(*zip(*rows, strict=True))

    def __len__(self) -> int:
        return len(self.game)

    @property
    def points(self) -> tuple[Point, ...]:
        """Every point, oldest first."""
        columns = zip(
            self.game, self.at, self.mu, self.sigma, self.before, self.after, self.rank,
            self.places, strict=True,
        )
        return tuple(Point(*row) for row in columns)

    def added(self, row: Row) -> History:
        """Return this history with one more point at the end."""
        game, at, mu, sigma, before, after, rank, places = row
        return History(
            self.game + (game,), self.at + (at,), self.mu + (mu,), self.sigma + (sigma,),
            self.before + (before,), self.after + (after,), self.rank + (rank,),
            self.places + (places,),
        )


@dataclass(frozen=True, slots=True)
class Result:
    """A folded game as listed: the record, the status that counted, per-seat changes."""

    record: RatedGame
    status: Status
    changes: tuple[Change, ...]  # in the game's kind, one per seat


@dataclass(frozen=True)
class Ratings:
    """Everything folded from the games, by pool then player; treat it as read-only.

    `results_of` lists every game a player sat in, rated or not, oldest first; `recent`
    the newest games of anyone (up to fold.RECENT), newest first; `last` the fold order key
    (finish time, game id) of the newest game folded, and `folded` how many were.
    """

    standings: Mapping[str, Mapping[str, Standing]] = field(default_factory=dict)
    histories: Mapping[str, Mapping[str, History]] = field(default_factory=dict)
    results_of: Mapping[str, tuple[Result, ...]] = field(default_factory=dict)
    recent: tuple[Result, ...] = ()
    last: tuple[datetime, str] | None = None
    folded: int = 0
