"""Standings: points, tie-breaks in the event's order, shared places, and why each tie fell."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.figures import counted, figure

from . import explain, formats
from .model import Bye, Entrant, Tournament
from .scoring import Scored, scored_games
from .tiebreaks import LOWER_IS_BETTER, TITLES, Ledger, group_by, signed


@dataclass(frozen=True)
class Standing:
    """A line of the standings; `lines` gives the arithmetic, `why` the tie with the line above."""

    place: int
    player: str
    name: str
    status: str
    points: float
    tiebreaks: tuple[tuple[str, float], ...]
    games: int
    above: str | None
    ledger: Ledger = field(compare=False, repr=False)
    reason: str = ""  # why the player stands here, when the format places players itself

    @property
    def lines(self) -> tuple[str, ...]:
        """Return the points and each tie-break as readable arithmetic."""
        return explain.lines(self.ledger, self.player)

    @property
    def why(self) -> str:
        """Explain the order against the line above when both have the same points, else ''
        (or the format's own reason for the place, when it places players itself)."""
        if self.reason:
            return self.reason
        if self.above is None:
            return ""
        return why(self.ledger, self.ledger.order, self.above, self.player, self.place)

    def tiebreak(self, name: str) -> float:
        """Return one tie-break's value."""
        return dict(self.tiebreaks)[name]


def standings(t: Tournament) -> tuple[Standing, ...]:
    """Return the tournament's standings, rebuilt from its games and byes."""
    rows = rank(t.entrants, scored_games(t), t.byes, t.config.tiebreaks)
    placing = formats.format_of(t).placing(t)
    return rows if placing is None else placed(rows, placing)


def placed(rows: Sequence[Standing], placing: Sequence[tuple[str, str]]) -> tuple[Standing, ...]:
    """Put the rows in a format's own order, one place each, with its reasons."""
    by_player = {r.player: r for r in rows}
    order = [player for player, _ in placing]
    if sorted(order) != sorted(by_player):
        raise ValueError(f"a format's placing must list every entrant once: got {order}, "
                         f"the entrants are {sorted(by_player)}")
    return tuple(replace(by_player[player], place=i + 1, above=order[i - 1] if i else None,
                         reason=reason)
                 for i, (player, reason) in enumerate(placing))


def rank(
    entrants: Sequence[Entrant], games: Sequence[Scored], byes: Sequence[Bye],
    tiebreaks: Sequence[str],
) -> tuple[Standing, ...]:
    """Order players by points, then each tie-break in turn; equal on all, they share a place."""
    players = [e.player for e in entrants]
    totals = {p: 0.0 for p in players}
    for game in games:
        if not game.annulled:
            for player, points in zip(game.seats, game.points, strict=True):
                totals[player] += points
    for bye in byes:
        totals[bye.player] += bye.points
    ledger = Ledger.of({e.player: e.name for e in entrants}, games, byes, totals)
    ledger.order = tuple(tiebreaks)
    keys: dict[str, tuple[float, ...]] = {p: (round(totals[p], 9),) for p in players}
    for name in tiebreaks:
        if name == "direct-encounter":
            ledger.groups = group_by(keys, players)
        values = ledger.compute(name)
        ledger.values[name] = values
        keys = {p: keys[p] + (signed(name, values[p]),) for p in players}
    seeding = {p: i for i, p in enumerate(players)}
    ordered = sorted(players, key=lambda p: (tuple(-k for k in keys[p]), seeding[p]))
    by_player = {e.player: e for e in entrants}
    rows: list[Standing] = []
    for i, player in enumerate(ordered):
        above = ordered[i - 1] if i else None
        tied = above is not None and keys[above] == keys[player]
        place = rows[-1].place if tied else i + 1
        entrant = by_player[player]
        rows.append(Standing(
            place, player, entrant.name, entrant.status, totals[player],
            tuple((name, ledger.values[name][player]) for name in tiebreaks),
            len(ledger.games[player]), above, ledger,
        ))
    return tuple(rows)


def why(ledger: Ledger, tiebreaks: Sequence[str], above: str, below: str, place: int) -> str:
    """Explain the order of two neighbours level on points ('' when they are not)."""
    names, totals = ledger.names, ledger.totals
    if round(totals[above], 9) != round(totals[below], 9):
        return ""
    level = f"both have {counted(totals[above], 'point')}"
    for name in tiebreaks:
        a, b = ledger.values[name][above], ledger.values[name][below]
        if signed(name, a) != signed(name, b):
            lower = " (lower is better)" if name in LOWER_IS_BETTER else ""
            return (f"{names[above]} is above {names[below]}: {level}; "
                    f"{TITLES[name]} {figure(a)} against {figure(b)}{lower}")
        level += f", {TITLES[name]} {figure(a)}"
    return f"{names[above]} and {names[below]} share place {place}: {level}"
