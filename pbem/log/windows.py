"""A window on a long log: its events with the state before them, and the events near one.

Pages that show a few events of a long game read only those, and fold from the nearest
snapshot before them, so that their cost follows the window, never the log's length.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Event, Game, Snapshot
from .store import LogEntry, Setup, entries, fold


def window(
    session: Session, game: Game, setup: Setup, first: int, last: int
) -> tuple[Any, list[LogEntry]]:
    """The state before event `first`, and the events `first` to `last`.

    The state is folded from the newest snapshot before `first` (of the game's rules
    version), or from the start when there is none.
    """
    rules = setup.rules()
    snapshot = session.scalars(
        select(Snapshot)
        .where(
            Snapshot.game_id == game.id,
            Snapshot.rules_version == rules.version,
            Snapshot.seq < min(first, game.head_seq + 1),
        )
        .order_by(Snapshot.seq.desc())
        .limit(1)
    ).first()
    if snapshot is None:
        after, state = -1, rules.start(setup.seats, setup.options)
    else:
        after, state = snapshot.seq, rules.load(json.loads(snapshot.state))
    log = entries(session, game, after=after, through=last)
    state = fold(rules, setup, (e for e in log if e.seq < first), state)
    return state, [e for e in log if e.seq >= first]


def nearest(
    session: Session, game: Game, seq: int, kinds: Iterable[str]
) -> tuple[int | None, int | None]:
    """The seqs of the events of these kinds just before and just after `seq`, if any."""
    near = select(Event.seq).where(Event.game_id == game.id, Event.kind.in_(tuple(kinds)))
    # Walked along the key from `seq`, stopping at the first one found (max() would not stop).
    before = near.where(Event.seq < seq).order_by(Event.seq.desc()).limit(1)
    after = near.where(Event.seq > seq).order_by(Event.seq).limit(1)
    return session.scalar(before), session.scalar(after)


def page_of(seq: int, size: int, head: int) -> tuple[int, int]:
    """The first and last seq of the page of `size` events (0 to size - 1, ...) holding seq."""
    first = seq - seq % size
    return first, min(head, first + size - 1)
