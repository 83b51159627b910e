"""Build tournament logs in tests: one call per event, times one hour apart."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from pbem.tournaments.core.fold import fold
from pbem.tournaments.core.model import Event, Tournament

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Log:
    """A tournament log under construction."""

    def __init__(self, system: str = "swiss", table_sizes: Sequence[int] = (2,), **create: Any):
        self.events: list[Event] = []
        self.now = T0
        self.games = 0
        payload: dict[str, Any] = {
            "name": "Spring open", "system": system, "kind": "martian-dice",
            "table_sizes": list(table_sizes), "director": "dee",
        }
        if system == "swiss":
            payload["rounds"] = 3
        if system == "rolling-swiss":
            payload.update(games_per_player=4, max_concurrent=1)
        if system == "knockout" and tuple(table_sizes) != (2,):
            payload["advance"] = 1
        payload.update(create)
        self.add("create", payload)

    def add(self, kind: str, payload: dict[str, Any], hours: float = 1) -> Event:
        """Append an event `hours` after the previous one."""
        if self.events:
            self.now += timedelta(hours=hours)
        event = Event(len(self.events), kind, payload, self.now)
        self.events.append(event)
        return event

    def register(self, *players: str, ratings: dict[str, float] | None = None) -> Log:
        """Register players whose names are their ids, capitalised."""
        for player in players:
            rating = (ratings or {}).get(player)
            self.add("register", {"player": player, "name": player.capitalize(), "rating": rating})
        return self

    def start(self, entrants: Iterable[str] | None = None) -> Log:
        """Start with these entrants (default: everyone registered and still in)."""
        if entrants is None:
            entrants = [p for p in self.tournament().active()]
        self.add("start", {"entrants": list(entrants)})
        return self

    def pair(self, round_: int | None, tables: Sequence[Sequence[str]],
             byes: Sequence[tuple[str, float]] = (), hours: float = 1) -> list[str]:
        """Pair tables of players; return the new game ids (g1, g2, ...)."""
        games = []
        for _ in tables:
            self.games += 1
            games.append(f"g{self.games}")
        self.add("pair", {
            "round": round_,
            "tables": [{"game": g, "seats": list(s)} for g, s in zip(games, tables, strict=True)],
            "byes": [{"player": p, "points": pts} for p, pts in byes],
            "inputs": "0" * 64, "algorithm": "test/1",
        }, hours)
        return games

    def result(self, game: str, ranks: Sequence[int], scores: Sequence[float] | None = None,
               flags: Sequence[str] = (), hours: float = 1, **extra: Any) -> Log:
        """Record a game's result."""
        self.now += timedelta(hours=hours)
        self.add("result", {
            "game": game, "ranks": list(ranks),
            "scores": None if scores is None else list(scores), "flags": list(flags),
            "finished_at": self.now.isoformat(), "head": "ab" * 32, **extra,
        }, 0)
        return self

    def director(self, action: str, **fields: Any) -> Log:
        """Record a director's action."""
        self.add("director", {"by": "dee", "reason": "as the rules say", "action": action,
                              **fields})
        return self

    def tournament(self) -> Tournament:
        """Fold the log so far."""
        return fold(self.events)
