"""What a pairing proposes (tables, byes, penalties, notes) and the hash of its inputs."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.figures import figure

from .errors import iso
from .model import Tournament


@dataclass(frozen=True, order=True)
class Penalty:
    """What a table costs, worst first: kept-apart pairs, rematches, spread, seats, ratings.

    `met` adds, over the pairs at the table, the square of how often they met before;
    `spread` is the score spread; `seat` adds how often each player already sat in the
    seat they get; `rating` is the rating spread. Compared field by field, in this order.
    """

    forbidden: int = 0
    met: int = 0
    spread: float = 0.0
    seat: int = 0
    rating: float = 0.0

    def __add__(self, other: Penalty) -> Penalty:
        return Penalty(self.forbidden + other.forbidden, self.met + other.met,
                       self.spread + other.spread, self.seat + other.seat,
                       self.rating + other.rating)

    def __str__(self) -> str:
        return (f"kept apart {self.forbidden}, met before {self.met}, score spread "
                f"{figure(self.spread)}, repeated seats {self.seat}, "
                f"rating spread {figure(self.rating)}")


@dataclass(frozen=True)
class PlannedBye:
    """A player left out of this pairing, and the points that gives them."""

    player: str
    points: float


@dataclass(frozen=True)
class Rematch:
    """Two players paired again because no other pairing was possible, and why."""

    players: tuple[str, str]
    meeting: int  # which meeting this is: 2 for the first rematch
    why: str

    def payload(self) -> dict[str, Any]:
        """Return it as the pair event logs it."""
        return {"players": list(self.players), "meeting": self.meeting, "why": self.why}


@dataclass(frozen=True)
class Plan:
    """What to pair now: tables as seat tuples, byes, each table's penalty, and why."""

    round: int | None
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[PlannedBye, ...]
    penalties: tuple[Penalty, ...]
    notes: tuple[str, ...]
    away: tuple[str, ...]
    inputs: str
    algorithm: str
    rematches: tuple[Rematch, ...] = ()  # logged in the pair event when there are any

    def payload(self, games: Sequence[str]) -> dict[str, Any]:
        """Return the `pair` event payload, given the ids of the games the server started."""
        if len(games) != len(self.tables):
            raise ValueError(f"{len(self.tables)} tables need {len(self.tables)} game ids, "
                             f"got {len(games)}")
        payload = {
            "round": self.round,
            "tables": [{"game": g, "seats": list(s)} for g, s in zip(games, self.tables,
                                                                      strict=True)],
            "byes": [{"player": b.player, "points": b.points} for b in self.byes],
            "away": list(self.away),
            "inputs": self.inputs,
            "algorithm": self.algorithm,
        }
        if self.rematches:
            payload["rematches"] = [r.payload() for r in self.rematches]
        return payload


def canonical_json(value: Any) -> str:
    """Write JSON the way the logs hash it: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


# The settings the built-in formats had before formats became plug-ins, in the order the inputs
# hash has always listed them; any other setting of a format is hashed under "format_settings".
LISTED_SETTINGS = ("rounds", "games_per_player", "max_concurrent", "pair_min_free",
                   "pair_max_wait_hours", "advance")


def pairing_inputs(
    t: Tournament, round_: int | None, away: Sequence[str], algorithm: str
) -> dict[str, Any]:
    """Return everything a pairing may read from the tournament, as JSON."""
    config = t.config
    inputs: dict[str, Any] = {
        "algorithm": algorithm,
        "system": config.system,
        "round": round_,
        "table_sizes": list(config.table_sizes),
        "settings": [*(config.settings.get(name) for name in LISTED_SETTINGS),
                     config.scoring, config.deadline_hours],
        "entrants": [[e.player, e.status, e.rating] for e in t.entrants],
        "games": [
            [tb.game, tb.round, list(tb.seats), iso(tb.paired_at),
             None if tb.result is None else list(tb.result.ranks),
             None if tb.result is None or tb.result.scores is None else list(tb.result.scores),
             None if tb.result is None else list(tb.result.flags),
             None if tb.result is None else iso(tb.result.finished_at),
             None if tb.result is None else list(tb.result.timed_out),
             tb.annulled is not None]
            for tb in t.tables
        ],
        "byes": [[b.player, b.round, b.points] for b in t.byes],
        "forbidden": [list(pair) for pair in t.forbidden],
        "away": sorted(away),
    }
    others = {k: v for k, v in sorted(config.settings.items()) if k not in LISTED_SETTINGS}
    if others:
        inputs["format_settings"] = others
    return inputs


def inputs_hash(t: Tournament, round_: int | None, away: Sequence[str], algorithm: str) -> str:
    """Return the sha256 hex of the canonical JSON of the pairing inputs."""
    data = canonical_json(pairing_inputs(t, round_, away, algorithm))
    return hashlib.sha256(data.encode()).hexdigest()


def make_plan(
    t: Tournament, round_: int | None, tables: Sequence[Sequence[str]],
    byes: Sequence[PlannedBye], penalties: Sequence[Penalty], notes: Sequence[str],
    away: Sequence[str] = (), rematches: Sequence[Rematch] = (),
) -> Plan:
    """Return a format's plan; the registry stamps it with its inputs' hash and algorithm."""
    return Plan(
        round=round_,
        tables=tuple(tuple(table) for table in tables),
        byes=tuple(byes),
        penalties=tuple(penalties),
        notes=tuple(notes),
        away=tuple(away),
        inputs="",
        algorithm="",
        rematches=tuple(rematches),
    )


def stamp(t: Tournament, plan: Plan, algorithm: str) -> Plan:
    """Return the plan with the algorithm's name and the hash of the inputs it was made from."""
    return replace(plan, algorithm=algorithm,
                   inputs=inputs_hash(t, plan.round, plan.away, algorithm))
