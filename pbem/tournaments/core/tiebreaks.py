"""Tie-break values, computed for every player at once from one ledger per standings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.figures import figure

from .model import Bye
from .scoring import Scored

# Every opponent met in a game that counts is an encounter with a factor from the places: 1 beat,
# 1/2 shared a place, 0 behind. Sonneborn-Berger (two players) and Neustadtl (tables) both add
# factor x the opponent's points. Buchholz adds the opponents' points (cut-1 drops the lowest), the
# opponents' average divides that by the encounters, direct encounter adds the factors against the
# players still tied, wins counts the games won outright, average rank is the mean place (lower is
# better; a player with no counted game ranks last at the largest table). Byes add points and take
# no part in any tie-break. The readable arithmetic (explain.py) is only built for the players
# whose `lines` someone reads: a 1,000-player rebuild need not format 60,000 terms.

TITLES = {
    "sonneborn-berger": "Sonneborn-Berger",
    "buchholz-cut-1": "Buchholz cut-1",
    "buchholz": "Buchholz",
    "direct-encounter": "Direct encounter",
    "wins": "Wins",
    "neustadtl": "Neustadtl",
    "opponents-average": "Opponents' average",
    "average-rank": "Average rank",
}
LOWER_IS_BETTER = frozenset({"average-rank"})

Encounter = tuple[str, float, Scored]


def factor_text(factor: float) -> str:
    """Write an encounter's factor: 1, 1/2 or 0."""
    return "1/2" if factor == 0.5 else figure(factor)


def verb(factor: float, size: int) -> str:
    """Say how an encounter went, in chess words for two players."""
    if factor == 1:
        return "beat"
    if factor == 0.5:
        return "drew" if size == 2 else "tied with"
    return "lost to" if size == 2 else "behind"


def ordinal(place: int) -> str:
    """Write 1st, 2nd, 3rd, 4th."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


@dataclass
class Ledger:
    """Everything the tie-breaks of one standings need; the arithmetic is built on demand."""

    names: Mapping[str, str]
    totals: Mapping[str, float]
    counted: list[Scored] = field(default_factory=list)
    games: dict[str, list[Scored]] = field(default_factory=dict)
    annulled: dict[str, list[Scored]] = field(default_factory=dict)
    byes: dict[str, list[Bye]] = field(default_factory=dict)
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    values: dict[str, dict[str, float]] = field(default_factory=dict)

    @classmethod
    def of(cls, names: Mapping[str, str], games: Iterable[Scored], byes: Iterable[Bye],
           totals: Mapping[str, float]) -> Ledger:
        """Gather each player's counted games, annulled games and byes."""
        ledger = cls(names, totals)
        mine: dict[str, list[Scored]] = {p: [] for p in names}
        ledger.games = mine
        for game in games:
            if game.annulled:
                for player in game.seats:
                    ledger.annulled.setdefault(player, []).append(game)
                continue
            ledger.counted.append(game)
            for player in game.seats:
                mine[player].append(game)
        for bye in byes:
            ledger.byes.setdefault(bye.player, []).append(bye)
        return ledger

    def encounters(self, player: str) -> list[Encounter]:
        """Return every opponent the player met in a counted game, with the factor and game."""
        met: list[Encounter] = []
        for game in self.games[player]:
            i = game.seats.index(player)
            mine = game.places[i]
            met.extend(
                (other, 1.0 if mine < game.places[j] else 0.5 if mine == game.places[j] else 0.0,
                 game)
                for j, other in enumerate(game.seats) if j != i
            )
        return met

    def compute(self, name: str) -> dict[str, float]:
        """Return one tie-break for every player (direct encounter needs `groups` first)."""
        if name in ("sonneborn-berger", "neustadtl"):
            return weighted(self.counted, self.totals, self.names)
        if name in ("buchholz", "buchholz-cut-1", "opponents-average"):
            return opponents(self.counted, self.totals, self.names, name)
        if name == "direct-encounter":
            found = dict.fromkeys(self.names, 0.0)
            for player, rivals in self.groups.items():
                if rivals:
                    among = set(rivals)
                    for game in self.games[player]:
                        mine = game.places[game.seats.index(player)]
                        for other, theirs in zip(game.seats, game.places, strict=True):
                            if other in among:
                                found[player] += (1.0 if mine < theirs else
                                                  0.5 if mine == theirs else 0.0)
            return found
        if name in ("wins", "average-rank"):
            return places(self.counted, self.names, name)
        raise ValueError(f"unknown tie-break {name!r}")


def signed(name: str, value: float) -> float:
    """Return a sort key part where bigger is better, rounded so that equal sums tie."""
    return round(-value if name in LOWER_IS_BETTER else value, 9)


def group_by(
    keys: Mapping[str, tuple[float, ...]], players: Sequence[str]
) -> dict[str, tuple[str, ...]]:
    """Return, for each player, the others with exactly the same key."""
    buckets: dict[tuple[float, ...], list[str]] = {}
    for player in players:
        buckets.setdefault(keys[player], []).append(player)
    return {p: tuple(q for q in buckets[keys[p]] if q != p) for p in players}


@lru_cache(maxsize=4096)
def beaten(places: tuple[float, ...]) -> tuple[tuple[tuple[int, float], ...], ...]:
    """Return, per seat, the seats it beat (factor 1) or shared a place with (1/2)."""
    return tuple(
        tuple((j, 1.0 if theirs > mine else 0.5) for j, theirs in enumerate(places)
              if theirs > mine or (theirs == mine and j != i))
        for i, mine in enumerate(places)
    )


def weighted(games: Iterable[Scored], totals: Mapping[str, float],
             names: Iterable[str]) -> dict[str, float]:
    """Add, for every encounter, the opponent's points x 1 (beat), 1/2 (shared) or 0."""
    found = dict.fromkeys(names, 0.0)
    for game in games:
        points = [totals[p] for p in game.seats]
        for player, terms in zip(game.seats, beaten(game.places), strict=True):
            value = 0.0
            for j, factor in terms:
                value += factor * points[j]
            found[player] += value
    return found


def opponents(games: Iterable[Scored], totals: Mapping[str, float], names: Iterable[str],
              name: str) -> dict[str, float]:
    """Add the opponents' points (buchholz), less the lowest (cut-1), or average them."""
    sums = dict.fromkeys(names, 0.0)
    counts = dict.fromkeys(sums, 0)
    lowest: dict[str, float] = {}
    cut = name == "buchholz-cut-1"
    for game in games:
        if len(game.seats) == 2:
            a, b = game.seats
            pa, pb = totals[a], totals[b]
            sums[a] += pb
            sums[b] += pa
            counts[a] += 1
            counts[b] += 1
            if cut:
                if a not in lowest or pb < lowest[a]:
                    lowest[a] = pb
                if b not in lowest or pa < lowest[b]:
                    lowest[b] = pa
            continue
        points = [totals[p] for p in game.seats]
        total = sum(points)
        others = len(points) - 1
        for player, mine in zip(game.seats, points, strict=True):
            sums[player] += total - mine
            counts[player] += others
        if cut:
            ordered = sorted(points)
            for player, mine in zip(game.seats, points, strict=True):
                low = ordered[1] if mine == ordered[0] else ordered[0]
                if player not in lowest or low < lowest[player]:
                    lowest[player] = low
    if name == "opponents-average":
        return {p: sums[p] / counts[p] if counts[p] else 0.0 for p in sums}
    if cut:
        return {p: sums[p] - lowest.get(p, 0.0) for p in sums}
    return sums


def places(games: Iterable[Scored], names: Iterable[str], name: str) -> dict[str, float]:
    """Count the games won outright (wins), or average the places (average rank).

    A player with no counted game (only byes) ranks as if last at every table: their average
    rank is the size of the largest table among the counted games, 2 when there is none.
    """
    sums = dict.fromkeys(names, 0.0)
    counts = dict.fromkeys(sums, 0)
    wins = name == "wins"
    largest = 2
    for game in games:
        largest = max(largest, len(game.seats))
        for player, place in zip(game.seats, game.places, strict=True):
            if wins:
                sums[player] += place == 1
            else:
                sums[player] += place
                counts[player] += 1
    if wins:
        return sums
    return {p: sums[p] / counts[p] if counts[p] else float(largest) for p in sums}
