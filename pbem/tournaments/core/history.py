"""What pairing and seating read from a tournament: points, who met whom, seats, byes, ratings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .model import Tournament
from .scoring import totals

SEATS = 8  # the most seats any game has


@dataclass(frozen=True)
class History:
    """The facts pairing weighs, per player; read through the methods, never by iteration."""

    points: Mapping[str, float]
    met: Mapping[str, Mapping[str, int]]
    seats: Mapping[str, tuple[int, ...]]
    balance: Mapping[str, int]
    byes: Mapping[str, int]
    ratings: Mapping[str, float | None]
    forbidden: frozenset[tuple[str, str]]
    seeding: Mapping[str, int]
    colours: Mapping[str, tuple[int, ...]] = field(default_factory=dict)  # see colours.py

    def times_met(self, a: str, b: str) -> int:
        """Return how often two players have been paired together."""
        return self.met.get(a, {}).get(b, 0)

    def kept_apart(self, a: str, b: str) -> bool:
        """Tell whether the director forbade this pair."""
        return (a, b) in self.forbidden or (b, a) in self.forbidden

    def by_standing(self, players: Iterable[str]) -> list[str]:
        """Return players by current standing: points, then seeding order."""
        return sorted(players, key=lambda p: (-round(self.points[p], 9), self.seeding[p]))


def history(t: Tournament) -> History:
    """Return the pairing history of a tournament."""
    players = [e.player for e in t.entrants]
    met: dict[str, dict[str, int]] = {p: {} for p in players}
    seats = {p: [0] * SEATS for p in players}
    balance = dict.fromkeys(players, 0)
    colours: dict[str, list[int]] = {p: [] for p in players}
    for seating in (table.seats for table in t.tables):
        for i, player in enumerate(seating):
            seats[player][i] += 1
            mine = met[player]
            for other in seating:
                if other != player:
                    mine[other] = mine.get(other, 0) + 1
        if len(seating) == 2:
            balance[seating[0]] += 1
            balance[seating[1]] -= 1
            colours[seating[0]].append(1)
            colours[seating[1]].append(-1)
    byes = dict.fromkeys(players, 0)
    for bye in t.byes:
        if bye.points > 0 and not bye.late:  # a late entrant's rounds are not pairing byes
            byes[bye.player] += 1
    return History(
        points=totals(t),
        met=met,
        seats={p: tuple(counts) for p, counts in seats.items()},
        balance=balance,
        byes=byes,
        ratings={e.player: e.rating for e in t.entrants},
        forbidden=frozenset(t.forbidden),
        seeding=dict(t.seeding),
        colours={p: tuple(c) for p, c in colours.items()},
    )
