"""Counts of every revealed die and shuffle, kept per database and topped up game by game.

A game's dice count once its seed is revealed, and never change after. A seed is revealed
in an event added to a game that has ended, so the ended games' number and the sum of
their logs' lengths change whenever a reveal is added. Each process keeps the counts it
has read with the games they came from, and on each use asks the games table only for
those two figures (and the greatest head hash, to tell databases apart): when they changed,
it reads the rolls and shuffles of the newly revealed games alone. A database whose
revealed games are fewer or other than those counted (one emptied by a test) is counted
again from nothing.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..db.kept import PerDatabase
from ..models import Event, Game
from .core.luck import Fairness, fairness_of

Key = tuple[int, int, str | None]
BATCH = 500  # game ids per query, well under every database's limit on bound parameters


def ended_key(session: Session) -> Key:
    """How many games have ended, the sum of their heads' seqs and their greatest head hash."""
    count, length, top = session.execute(
        select(func.count(), func.sum(Game.head_seq), func.max(Game.head_hash)).where(
            Game.status != "active"
        )
    ).one()
    return int(count), int(length or 0), top


class Tally:
    """One database's counts: faces per size of die, first items per size of shuffle."""

    def __init__(self) -> None:
        self.faces: dict[int, Counter[int]] = {}
        self.firsts: dict[int, Counter[int]] = {}
        self.games: set[int] = set()
        self.key: Key = (0, 0, None)
        self.lock = threading.Lock()

    def _forget(self) -> None:
        self.faces, self.firsts, self.games = {}, {}, set()

    def tests(self, session: Session) -> tuple[Fairness, ...]:
        """The fairness tests of every revealed die and shuffle now."""
        key = ended_key(session)
        with self.lock:
            if key != self.key:
                self._catch_up(session, key)
            return fairness_of(self.faces, self.firsts)

    def _catch_up(self, session: Session, key: Key) -> None:
        ended = set(session.scalars(select(Game.id).where(Game.status != "active")))
        if not self.games <= ended:
            self._forget()
        fresh = self._revealed(session, sorted(ended - self.games))
        if fresh:
            self._count(session, fresh)
        self.games.update(fresh)
        self.key = key

    def _revealed(self, session: Session, games: Sequence[int]) -> list[int]:
        """Those of the games whose seed is revealed (a game sharing a stream may wait)."""
        found: list[int] = []
        for start in range(0, len(games), BATCH):
            found += session.scalars(
                select(Event.game_id).where(
                    Event.kind == "reveal", Event.game_id.in_(games[start : start + BATCH])
                )
            )
        return found

    def _count(self, session: Session, games: Sequence[int]) -> None:
        for start in range(0, len(games), BATCH):
            query = select(Event.kind, Event.payload).where(
                Event.kind.in_(("roll", "shuffle")),
                Event.game_id.in_(games[start : start + BATCH]),
            )
            for kind, text in session.execute(query):
                payload = json.loads(text)
                if kind == "roll":
                    faces = self.faces.setdefault(int(payload["sides"]), Counter())
                    faces.update(int(v) for v in payload["values"])
                elif payload["order"]:
                    order = payload["order"]
                    self.firsts.setdefault(len(order), Counter())[int(order[0]) + 1] += 1


REVEALED: PerDatabase[Tally] = PerDatabase(Tally)
