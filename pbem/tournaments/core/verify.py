"""Re-derive every `pair` event of a log from the events before it, check each result, the close.

The core cannot read a game's log; the server hands `verify` a `Witness`, which recomputes a
`result` (or a director's adjudication) from its game and says how it differs. Every check is
made in the order of the log, so the first event that differs is the one named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .draft import Draft
from .errors import TournamentError
from .export import standings_hash
from .fold import apply
from .formats import plan
from .model import Event, Tournament
from .plans import Plan

# Given a `result` or `director` event and the tournament before it: how it differs from its
# game ('' when it does not, or when the witness cannot tell).
Witness = Callable[[Event, Tournament], str]


@dataclass(frozen=True)
class Mismatch:
    """The first event that does not check, and how it differs."""

    seq: int
    problem: str

    def __str__(self) -> str:
        return f"event {self.seq}: {self.problem}"


def verify(events: Iterable[Event], witness: Witness | None = None) -> Mismatch | None:
    """Return the first `pair`, `close` (or, with a witness, `result`) event that differs from
    a re-derivation, or None."""
    draft = Draft()
    for event in events:
        try:
            if event.kind == "pair" and draft.started_at is not None:
                problem = compare_pair(event, draft.freeze())
                if problem:
                    return Mismatch(event.seq, problem)
            if witness is not None and event.kind in ("result", "director") and draft.config:
                problem = witness(event, draft.freeze())
                if problem:
                    return Mismatch(event.seq, problem)
            if event.kind == "close" and draft.started_at is not None:
                logged, derived = event.payload.get("standings"), standings_hash(draft.freeze())
                if logged != derived:
                    return Mismatch(event.seq, f"standings hash {logged}, derived {derived}")
            apply(draft, event)
        except TournamentError as e:
            return Mismatch(event.seq, f"the log does not fold: {e}")
    return None


def compare_pair(event: Event, t: Tournament) -> str:
    """Return how a logged pairing differs from the plan for the same state ('' if it does not)."""
    payload = event.payload
    away = frozenset(p for p in payload.get("away") or () if isinstance(p, str))
    derived = plan(t, event.at, away, payload.get("algorithm"))
    last, round_ = t.last_round(), payload.get("round")
    holding = t.holding(last) if derived is None and last else ()
    if holding and round_ == last + 1:
        games = ", ".join(tb.game for tb in holding)
        return (f"round {round_} was paired at {event.at.isoformat()} while round {last} still "
                f"had unfinished games ({games}), and no start of round {round_} (by the "
                "director, or on the timetable) was logged before it")
    if derived is None:
        return (f"no pairing was due at {event.at.isoformat()}, but round "
                f"{payload.get('round')} was paired")
    if payload.get("algorithm") != derived.algorithm:
        return (f"paired by {payload.get('algorithm')!r}; this version derives pairings with "
                f"{derived.algorithm!r} and cannot check it")
    if payload.get("round") != derived.round:
        return f"round {payload.get('round')}, derived round {derived.round}"
    return compare_tables(payload, derived) or compare_rest(payload, derived)


def compare_tables(payload: Mapping[str, Any], derived: Plan) -> str:
    """Return the first table whose seats differ."""
    logged = [t for t in payload.get("tables") or () if isinstance(t, Mapping)]
    if len(logged) != len(derived.tables):
        return f"{len(logged)} tables logged, {len(derived.tables)} derived"
    for i, (table, seats) in enumerate(zip(logged, derived.tables, strict=True)):
        logged_seats = tuple(table.get("seats") or ())
        if logged_seats != seats:
            return (f"table {i + 1} (game {table.get('game')}) seats {list(logged_seats)}, "
                    f"derived {list(seats)}")
    return ""


def compare_rest(payload: Mapping[str, Any], derived: Plan) -> str:
    """Return how the byes, the rematches named or the inputs hash differ."""
    logged = sorted((b.get("player"), b.get("points")) for b in payload.get("byes") or ()
                    if isinstance(b, Mapping))
    expected = sorted((b.player, b.points) for b in derived.byes)
    if logged != expected:
        return f"byes {logged}, derived {expected}"
    rematches = [r.payload() for r in derived.rematches]
    if (payload.get("rematches") or []) != rematches:
        return f"rematches {payload.get('rematches') or []}, derived {rematches}"
    if payload.get("inputs") != derived.inputs:
        return f"inputs hash {payload.get('inputs')}, derived {derived.inputs}"
    return ""
