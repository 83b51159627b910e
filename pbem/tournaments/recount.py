"""Recompute a tournament game's result from the game's own log, for the tournament's verify.

A `result` names its game and the hash of the game's head when it was recorded. The witness
finds that event in the game's log here, checks the game's own chain, dice and rules on the
way (as `pbem verify GAME` does), replays the log up to that head and compares what it gives
(places, scores, timeouts and who timed out, an adjudication, when the game ended) with what
the tournament logged. A game that is not on this server (an export verified elsewhere) is
counted and left alone; an imported game keeps its hashes, so it is checked like any other.
A game whose dice stream still has tables playing is checked too, but a difference is named
without its places or scores: those stay with its players until the stream's last game ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine

from ..log import audit, export, store
from ..log.games import Ruling, dice_held
from ..models import Game
from .core.model import Event
from .core.model import Tournament as State

RULINGS = ("adjudicate", "abort")
Found = tuple[Game, store.Setup, list[store.LogEntry]]  # a game's row, setup and checked log


@dataclass(frozen=True)
class Recounted:
    """What a game's log gives as its result, up to a head."""

    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None
    flags: tuple[str, ...]
    timed_out: tuple[int, ...]
    ended: datetime


def recount(setup: store.Setup, log: Sequence[store.LogEntry]) -> Recounted | str:
    """Return the result a game's log (a whole stored log, up to its head) gives, or why none."""
    ruled = [e for e in log if e.kind in RULINGS]
    ruling = Ruling.from_entry(ruled[-1]) if ruled else None
    if ruling is not None:
        outcome = ruling.outcome
        if outcome is None:
            return f"the game was aborted at its event {ruling.seq} and has no result"
    else:
        rules = setup.rules()
        try:
            outcome = rules.outcome(store.fold(rules, setup, log))
        except (engine.RulesError, ValueError, LookupError, TypeError) as e:
            return f"the game's log does not replay: {e}"
        if outcome is None:
            return f"the game had not ended at its event {log[-1].seq}"
    timeouts = [e for e in log if e.kind == "timeout"]
    flags = []
    if timeouts:
        flags.append("timeout")
        if any(e.payload.get("action") is None for e in timeouts):
            flags.append("forfeit")
        if any(e.payload.get("action") for e in timeouts):
            flags.append("bot")
    if ruling is not None:
        flags.append("adjudicated")
    last = next(e for e in reversed(log) if e.kind != "reveal")
    return Recounted(
        tuple(outcome.ranks),
        None if outcome.scores is None else tuple(float(s) for s in outcome.scores),
        tuple(flags),
        tuple(sorted({int(e.seat) for e in timeouts if e.seat is not None})),
        datetime.fromisoformat(last.at),
    )


def differences(logged: dict[str, Any], found: Recounted) -> list[str]:
    """Return how a logged result differs from the recount, field by field, in words."""
    said: list[str] = []
    if list(logged.get("ranks") or ()) != list(found.ranks):
        said.append(f"places {list(found.ranks)}, the result says {logged.get('ranks')}")
    scores = logged.get("scores")
    mine = None if found.scores is None else list(found.scores)
    if (None if scores is None else [float(s) for s in scores]) != mine:
        said.append(f"scores {mine}, the result says {scores}")
    if sorted(logged.get("flags") or ()) != sorted(found.flags):
        said.append(f"flags {list(found.flags)}, the result says {logged.get('flags')}")
    if "timed_out" in logged and list(logged["timed_out"] or ()) != list(found.timed_out):
        said.append(f"seats timed out {list(found.timed_out)}, the result says "
                    f"{logged['timed_out']}")
    try:
        finished = datetime.fromisoformat(str(logged.get("finished_at")))
    except ValueError:
        finished = None
    if finished is None or finished < found.ended:
        said.append(f"it ended at {found.ended.isoformat()}, the result says it finished at "
                    f"{logged.get('finished_at')}")
    return said


@dataclass
class Witness:
    """Checks a tournament's results against their games on this server, counting as it goes."""

    session: Session
    checked: int = 0
    elsewhere: list[str] = field(default_factory=list)
    logs: dict[str, Found | str] = field(default_factory=dict)

    def __call__(self, event: Event, t: State) -> str:
        """Return how a result (or a director's adjudication) differs from its game."""
        payload = event.payload
        if event.kind == "director" and payload.get("action") != "adjudicate":
            return ""
        game = str(payload.get("game"))
        if game not in t.by_game:
            return ""  # the fold names a result for a game the event does not have
        found = self.game_log(game)
        if found is None:
            self.elsewhere.append(game)
            return ""
        if isinstance(found, str):
            return found
        row, setup, log = found
        if event.kind == "director":
            return self.adjudication(row, log, payload)
        at = next((i for i, e in enumerate(log) if e.hash == payload.get("head")), None)
        if at is None:
            return (f"game {game}'s log has no event with hash {str(payload.get('head'))[:16]}: "
                    "the result does not come from it")
        self.checked += 1
        found_result = recount(setup, log[:at + 1])
        if isinstance(found_result, str):
            return f"game {game}: {found_result}, yet the tournament logged a result"
        said = differences(dict(payload), found_result)
        if not said:
            return ""
        if dice_held(self.session, row):
            return (f"game {game}'s result differs from its log (the details stay with its "
                    "players until every table of its dice stream has ended)")
        return f"game {game}'s log (up to its event {log[at].seq}) gives " + "; ".join(said)

    def adjudication(self, row: Game, log: list[store.LogEntry], payload: Any) -> str:
        """A director's adjudication must be the game's own, logged in the game."""
        ruled = [e for e in log if e.kind == "adjudicate"]
        if not ruled:
            return f"game {row.public_id}'s log holds no adjudication"
        mine = ruled[-1].payload
        if (list(mine.get("ranks") or ()), mine.get("scores")) != (
                list(payload.get("ranks") or ()), payload.get("scores")):
            return (f"game {row.public_id} was adjudicated {mine.get('ranks')} (its event "
                    f"{ruled[-1].seq}), the tournament says {payload.get('ranks')}")
        return ""

    def game_log(self, public_id: str) -> Found | str | None:
        """Return a game's row, setup and checked log; why it fails its own check; or None."""
        if public_id in self.logs:
            return self.logs[public_id]
        row = self.session.scalars(select(Game).where(Game.public_id == public_id)).first()
        if row is None:
            return None
        log = store.entries(self.session, row)
        try:
            setup = store.Setup.from_payload(log[0].payload) if log else None
        except ValueError:
            setup = None
        header = export.header_of(row, setup) if setup else {"game": public_id}
        report = audit.verify(header, log, (row.head_seq, row.head_hash))
        bad = report.first_problem
        found: Found | str
        if bad is not None or setup is None:
            where = f"its event {bad.seq} ({bad.kind}): {bad.detail}" if bad else "its setup"
            found = f"game {public_id}'s own log fails its check at {where}"
        else:
            found = (row, setup, log)
        self.logs[public_id] = found
        return found
