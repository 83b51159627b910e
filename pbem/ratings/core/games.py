"""The record of a finished game that ratings are folded from, and who it rates in what order."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum

OVERALL = "overall"


class RatingsError(Exception):
    """Base class of every error the ratings core raises."""


class InvalidGame(RatingsError, ValueError):
    """A game record whose seats, ranks or fields do not make sense."""


class OutOfOrder(RatingsError):
    """A game given to `apply` that does not finish after every game already rated."""


class Status(Enum):
    """Whether a game counts for ratings, and if not, why not (the value is the reason)."""

    RATED = "rated"
    ABORTED = "aborted"
    NEVER_MOVED = "someone never moved"
    ANNULLED = "annulled"
    TOO_FEW = "fewer than two rated players"


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat's result: its player (None for a bot), rank (1 best) and flags."""

    player: str | None
    rank: int | None
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game as ratings see it; the server builds one from each game's log.

    `status` is the server's verdict (an aborted game, one where someone never moved, an
    annulled one); a game whose status is RATED but that seats fewer than two players
    counts as TOO_FEW. Ranks are the final (or adjudicated) ones; equal ranks share a
    place. A game that was never finished (aborted) may give no ranks at all (None).

    Derived on creation: `places`, each seat's place among the rated seats (see
    `rated_places`); `rated`, the (player, place) of each rated seat in seat order; and
    `outcome`, the status that counts.
    """

    game: str
    kind: str
    finished_at: datetime
    seats: tuple[Seat, ...]
    status: Status = Status.RATED
    adjudicated: bool = False
    places: tuple[int | None, ...] = field(init=False, repr=False, compare=False)
    rated: tuple[tuple[str, int], ...] = field(init=False, repr=False, compare=False)
    outcome: Status = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        check(self)
        places = rated_places(self.seats)
        rated = tuple(
            (s.player, p) for s, p in zip(self.seats, places, strict=True)
            if s.player is not None and p is not None
        )
        too_few = self.status is Status.RATED and len(rated) < 2
        object.__setattr__(self, "places", places)
        object.__setattr__(self, "rated", rated)
        object.__setattr__(self, "outcome", Status.TOO_FEW if too_few else self.status)

    @property
    def key(self) -> tuple[datetime, str]:
        """The order games are folded in: finish time, then game id."""
        return (self.finished_at, self.game)


def rated_places(seats: tuple[Seat, ...]) -> tuple[int | None, ...]:
    """Return each seat's place among the rated seats (None for a bot or a missing rank).

    Bot seats drop out and the others keep their order; a seat that timed out ranks below
    every seat that did not, and all seats that timed out share the last place. Places
    are competition ranks: 1 + the number of rated seats strictly ahead.
    """
    keys = [
        None if s.player is None or s.rank is None else (s.timed_out, 0 if s.timed_out else s.rank)
        for s in seats
    ]
    present = [k for k in keys if k is not None]
    return tuple(None if k is None else 1 + sum(o < k for o in present) for k in keys)


def check(game: RatedGame) -> None:
    """Raise InvalidGame, naming the game, if its fields or seats are inconsistent."""
    name = f"game {game.game!r}"
    if not isinstance(game.game, str) or not game.game:
        raise InvalidGame(f"{name}: the game id must be a non-empty string")
    if not isinstance(game.kind, str) or not game.kind or game.kind == OVERALL:
        raise InvalidGame(f"{name}: kind {game.kind!r} is not a game kind")
    if not isinstance(game.finished_at, datetime) or game.finished_at.utcoffset() is None:
        raise InvalidGame(
            f"{name}: finished_at must be a timezone-aware datetime, not {game.finished_at!r}"
        )
    if not isinstance(game.status, Status):
        raise InvalidGame(f"{name}: status {game.status!r} is not a Status")
    if game.status is Status.TOO_FEW:
        raise InvalidGame(f"{name}: status {game.status.name} cannot be given, only derived")
    if not game.seats or not all(isinstance(s, Seat) for s in game.seats):
        raise InvalidGame(f"{name}: expected one Seat per seat, got {game.seats!r}")
    players = [s.player for s in game.seats if s.player is not None]
    if any(not isinstance(p, str) or not p for p in players):
        raise InvalidGame(f"{name}: a player id must be a non-empty string, got {players!r}")
    if len(set(players)) != len(players):
        twice = sorted({p for p in players if players.count(p) > 1})
        raise InvalidGame(f"{name}: player(s) {', '.join(twice)} hold more than one seat")
    ranks = [s.rank for s in game.seats]
    if all(r is None for r in ranks) and game.status is not Status.RATED:
        return
    given = [r for r in ranks if type(r) is int]
    if len(given) != len(ranks):
        raise InvalidGame(
            f"{name}: ranks {ranks} must all be whole numbers"
            + (", or all None in an unrated game" if None in ranks else "")
        )
    seats = len(ranks)
    if min(given) != 1 or max(given) > seats:
        raise InvalidGame(
            f"{name}: ranks {ranks} must run from 1 (best) to at most {seats}, one per seat"
        )
