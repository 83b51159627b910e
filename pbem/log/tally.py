"""Running counts of every revealed die and shuffle, added to as each game's seed is revealed.

A game's dice count once its seed is revealed, and never change after: the transaction that
logs the reveal adds them to the totals, so that reading the totals costs the same however
many games were played. `recount` counts them again from the logs (`pbem db recount-dice`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any, cast

from sqlalchemy import Table, delete, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from ..models import DiceCount, Event

Counts = Counter[tuple[str, int, int]]  # (die | shuffle, sides, face) -> how many
CHANCE = ("roll", "shuffle")
TABLE = cast(Table, DiceCount.__table__)


def counts_of(events: Iterable[tuple[str, dict[str, Any]]]) -> Counts:
    """The faces of the rolls and the first items of the shuffles (numbered from 1)."""
    found: Counts = Counter()
    for kind, payload in events:
        if kind == "roll":
            sides = int(payload["sides"])
            found.update(("die", sides, int(value)) for value in payload["values"])
        elif kind == "shuffle" and payload["order"]:
            order = payload["order"]
            found["shuffle", len(order), int(order[0]) + 1] += 1
    return found


def count_game(session: Session, game_id: int) -> None:
    """Add a game's dice to the totals: done in the transaction that reveals its seed."""
    query = select(Event.kind, Event.payload).where(
        Event.game_id == game_id, Event.kind.in_(CHANCE)
    )
    add(session, counts_of((kind, json.loads(payload)) for kind, payload in session.execute(query)))


def add(session: Session, counts: Counts) -> None:
    """Add counts to the totals, one upsert per (what, sides, face)."""
    if not counts:
        return
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    upsert = dialect.insert(TABLE)
    upsert = upsert.on_conflict_do_update(
        index_elements=["what", "sides", "face"],
        set_={"count": TABLE.c.count + upsert.excluded.count},
    )
    # In key order: two reveals at once lock the rows they share in the same order.
    rows = [
        {"what": what, "sides": sides, "face": face, "count": n}
        for (what, sides, face), n in sorted(counts.items())
    ]
    session.execute(upsert, rows)


def read(session: Session) -> Counts:
    """The totals as they stand."""
    rows = session.execute(select(TABLE.c.what, TABLE.c.sides, TABLE.c.face, TABLE.c.count))
    return Counter({(what, sides, face): count for what, sides, face, count in rows})


def by_size(counts: Counts) -> tuple[dict[int, Counter[int]], dict[int, Counter[int]]]:
    """The totals as face counts per size of die, and first-item counts per size of shuffle."""
    dice: dict[int, Counter[int]] = {}
    shuffles: dict[int, Counter[int]] = {}
    for (what, sides, face), n in counts.items():
        (shuffles if what == "shuffle" else dice).setdefault(sides, Counter())[face] = n
    return dice, shuffles


def recount(session: Session) -> Counts:
    """Count every revealed game's dice again from the logs; return the totals found before."""
    if session.get_bind().dialect.name == "postgresql":
        # No reveal may add to the totals between reading the logs and writing them.
        session.execute(text("LOCK TABLE dice_counts IN EXCLUSIVE MODE"))
    before = read(session)
    revealed = select(Event.game_id).where(Event.kind == "reveal")
    query = select(Event.kind, Event.payload).where(
        Event.kind.in_(CHANCE), Event.game_id.in_(revealed)
    )
    rows = session.execute(query.execution_options(yield_per=5000))
    found = counts_of((kind, json.loads(payload)) for kind, payload in rows)
    session.execute(delete(TABLE))
    add(session, found)
    return before
