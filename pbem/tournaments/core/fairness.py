"""Fairness figures for a whole event: rematches, score spread at tables, seat balance, byes."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .model import Tournament
from .scoring import scored_games


@dataclass(frozen=True)
class Fairness:
    """How evenly an event was paired, from its log alone."""

    meetings: tuple[tuple[int, int], ...]
    rematches: tuple[tuple[str, str, int], ...]
    spreads: tuple[tuple[str, float], ...]
    seats: tuple[tuple[str, tuple[int, ...]], ...]
    byes: tuple[tuple[str, int], ...]
    smallest_table: int

    @property
    def rematch_games(self) -> int:
        """Return how many games paired two players who had met before."""
        return sum(n - 1 for _, _, n in self.rematches)

    @property
    def rematch_rate(self) -> float:
        """Return the share of games that were rematches (0 when there were none)."""
        games = sum(count * times for times, count in self.meetings)
        return self.rematch_games / games if games else 0.0

    @property
    def largest_spread(self) -> float:
        """Return the widest score spread any table had when it was paired."""
        return max((spread for _, spread in self.spreads), default=0.0)

    @property
    def mean_spread(self) -> float:
        """Return the average score spread of the tables when they were paired."""
        return sum(s for _, s in self.spreads) / len(self.spreads) if self.spreads else 0.0

    @property
    def seat_imbalance(self) -> int:
        """Return the largest gap between a player's most and least used seat (of every table)."""
        gaps = [max(c[:self.smallest_table]) - min(c[:self.smallest_table])
                for _, c in self.seats if sum(c)]
        return max(gaps, default=0)


def fairness(t: Tournament) -> Fairness:
    """Return the fairness figures of a tournament."""
    largest = t.config.table_sizes[-1]
    met: Counter[tuple[str, str]] = Counter()
    seats = {e.player: [0] * largest for e in t.entrants}
    for table in t.tables:
        for i, player in enumerate(table.seats):
            seats[player][i] += 1
            for other in table.seats[i + 1:]:
                met[min(player, other), max(player, other)] += 1
    return Fairness(
        meetings=tuple(sorted(Counter(met.values()).items())),
        rematches=tuple(sorted((a, b, n) for (a, b), n in met.items() if n > 1)),
        spreads=spreads(t),
        seats=tuple((e.player, tuple(seats[e.player])) for e in t.entrants),
        byes=tuple(sorted(Counter(b.player for b in t.byes if b.points > 0).items())),
        smallest_table=t.config.table_sizes[0],
    )


def spreads(t: Tournament) -> tuple[tuple[str, float], ...]:
    """Return each game's score spread, from the points scored before it was paired."""
    changes: list[tuple[int, tuple[str, ...], tuple[float, ...]]] = []
    for game in scored_games(t):
        result = t.by_game[game.game].result
        if result is not None and not game.annulled:
            changes.append((result.seq, game.seats, game.points))
    changes += [(b.seq, (b.player,), (b.points,)) for b in t.byes]
    changes.sort(key=lambda change: change[0])
    points = {e.player: 0.0 for e in t.entrants}
    found, i = [], 0
    for table in sorted(t.tables, key=lambda tb: tb.seq):
        while i < len(changes) and changes[i][0] < table.seq:
            for player, value in zip(changes[i][1], changes[i][2], strict=True):
                points[player] += value
            i += 1
        at_table = [points[p] for p in table.seats]
        found.append((table.game, max(at_table) - min(at_table)))
    return tuple(found)
