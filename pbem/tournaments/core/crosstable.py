"""A crosstable by rounds, as chess events print them, for any number of players.

One line a player, in the order of the standings: the player's rank (their line's number),
name, and for each round the games they played in it, each as the ranks of the others at
the table, the seat they played (s1 moved first) and the result: 1, ½ or 0 at a table of
two, the place out of the table's size at a larger table; a bye as "bye" and its points.
Then the points and the tie-breaks. A rolling event has no rounds: its columns are each
player's first, second, ... game.

`Crosstable` is worked out once per head (ranks and byes by player); a line costs only its
own games, so a page of 50 lines costs the same at 64 players as at 1,000.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.figures import figure

from .model import Bye, Table, Tournament
from .standings import Standing
from .tiebreaks import TITLES

MATRIX_MOST = 32  # a two-player round robin up to this many players also gets the N x N grid


@dataclass(frozen=True)
class Mark:
    """One game (or bye) of a player in one column."""

    game: str | None  # None for a bye
    opponents: tuple[int, ...]  # the others' ranks, in seat order
    seat: int  # 1 for the first seat; 0 for a bye
    result: str  # "1", "½", "0", "2/4", "playing", "annulled", or a bye's points

    @property
    def text(self) -> str:
        """The mark as the page and the CSV write it: "12 s1 1", "4,9,17 s3 2/4", "bye 1"."""
        if self.game is None:
            return f"bye {self.result}"
        return f"{','.join(map(str, self.opponents))} s{self.seat} {self.result}"


@dataclass(frozen=True)
class Line:
    """A player's line of the crosstable."""

    rank: int
    standing: Standing
    cells: tuple[tuple[Mark, ...], ...]  # one per column

    def cell_text(self, column: int) -> str:
        """A column's marks as text ("" when the player has none in it)."""
        return "; ".join(mark.text for mark in self.cells[column])


def result_text(table: Table, player: str) -> str:
    """How a game went for one of its players: 1, ½, 0, a place at a table, or its state."""
    if table.annulled is not None:
        return "annulled"
    if table.result is None:
        return "playing"
    rank = table.result.ranks[table.seats.index(player)]
    if len(table.seats) == 2:
        best = min(table.result.ranks)
        return "½" if table.result.ranks.count(best) == 2 else ("1" if rank == 1 else "0")
    return f"{rank}/{len(table.seats)}"


@dataclass(frozen=True)
class Crosstable:
    """What every line needs, worked out once from the tournament and its standings."""

    t: Tournament
    rows: Sequence[Standing]
    rank: Mapping[str, int]
    byes: Mapping[str, tuple[Bye, ...]]
    rounds: tuple[int, ...]  # the rounds' numbers; () for a rolling event

    @classmethod
    def of(cls, t: Tournament, rows: Sequence[Standing]) -> Crosstable:
        """Index the tournament for its crosstable."""
        byes: dict[str, list[Bye]] = {}
        for bye in t.byes:
            byes.setdefault(bye.player, []).append(bye)
        numbers = {p.round for p in t.pairings if p.round is not None}
        numbers |= {b.round for b in t.byes if b.round is not None}
        rounds = tuple(range(1, max(numbers) + 1)) if numbers else ()
        return cls(t, rows, {r.player: i + 1 for i, r in enumerate(rows)},
                   {p: tuple(b) for p, b in byes.items()}, rounds)

    @cached_property
    def columns(self) -> tuple[str, ...]:
        """The columns' titles: "1", "2", ... (rounds, or a rolling event's games)."""
        if self.rounds:
            return tuple(str(n) for n in self.rounds)
        games = self.t.games_of
        most = max((len(games.get(r.player, ())) + len(self.byes.get(r.player, ()))
                    for r in self.rows), default=0)
        return tuple(str(n) for n in range(1, most + 1))

    def mark(self, table: Table, player: str) -> Mark:
        """A game from one player's side."""
        others = tuple(self.rank.get(p, 0) for p in table.seats if p != player)
        return Mark(table.game, others, table.seats.index(player) + 1, result_text(table, player))

    def marks(self, player: str) -> list[Mark]:
        """The player's games in pairing order, then their byes."""
        games = [self.mark(table, player) for table in self.t.games_of.get(player, ())]
        return games + [Mark(None, (), 0, figure(b.points)) for b in self.byes.get(player, ())]

    def line(self, row: Standing, width: int) -> Line:
        """The player's line, with `width` columns."""
        player = row.player
        if not self.rounds:
            marks = self.marks(player)
            cells = tuple((marks[n],) if n < len(marks) else () for n in range(width))
            return Line(self.rank[player], row, cells)
        by_round: dict[int, list[Mark]] = {n: [] for n in self.rounds}
        for table in self.t.games_of.get(player, ()):
            if table.round in by_round:
                by_round[table.round].append(self.mark(table, player))
        for bye in self.byes.get(player, ()):
            if bye.round in by_round:
                by_round[bye.round].append(Mark(None, (), 0, figure(bye.points)))
        return Line(self.rank[player], row, tuple(tuple(by_round[n]) for n in self.rounds))

    def lines(self, first: int = 0, count: int | None = None) -> list[Line]:
        """The lines from the `first` (0 for the top) on, `count` of them (all by default)."""
        width = len(self.columns)
        last = len(self.rows) if count is None else first + count
        return [self.line(row, width) for row in self.rows[first:last]]

    def matrix_fits(self) -> bool:
        """Tell whether the event also gets the N x N grid: a small two-player round robin."""
        config = self.t.config
        return (config.system == "round-robin" and config.two_player
                and len(self.rows) <= MATRIX_MOST)


def crosstable_csv(index: Crosstable) -> str:
    """Every line of the crosstable as CSV, each cell written as the page writes it."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    label = "round" if index.rounds else "game"
    tiebreaks = index.t.config.tiebreaks
    writer.writerow(["rank", "place", "player", "name", "status",
                     *(f"{label} {c}" for c in index.columns), "points",
                     *(TITLES.get(n, n) for n in tiebreaks)])
    for line in index.lines():
        row = line.standing
        writer.writerow([line.rank, row.place, row.player, row.name, row.status,
                         *(line.cell_text(n) for n in range(len(line.cells))), figure(row.points),
                         *(figure(value) for _, value in row.tiebreaks)])
    return out.getvalue()


def crosstable_json(index: Crosstable, tournament: str) -> dict[str, Any]:
    """Every line of the crosstable as data: each mark's game, opponents, seat and result."""
    def marks(cell: tuple[Mark, ...]) -> list[dict[str, Any]]:
        return [{"game": m.game, "opponents": list(m.opponents), "seat": m.seat or None,
                 "result": m.result, "text": m.text} for m in cell]

    return {
        "format": "pbem-crosstable", "version": 1, "tournament": tournament,
        "by": "round" if index.rounds else "game", "columns": list(index.columns),
        "tiebreaks": list(index.t.config.tiebreaks),
        "lines": [
            {"rank": line.rank, "place": line.standing.place, "player": line.standing.player,
             "name": line.standing.name, "status": line.standing.status,
             "cells": [marks(cell) for cell in line.cells], "points": line.standing.points,
             "tiebreaks": dict(line.standing.tiebreaks)}
            for line in index.lines()
        ],
    }
