"""Deadlines: remind a player once, then apply the timeout policy (docs/architecture.md §8)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine

from .. import clock
from ..context import Context
from ..errors import PbemError
from ..log import store
from ..log.games import Loaded, load
from ..mail import compose
from ..models import Game
from .chance import advance
from .notify import notify

REMINDER_BEFORE = timedelta(hours=24)


@dataclass
class Tick:
    """What one pass of `pbem tick` did."""

    reminded: list[str] = field(default_factory=list)
    timed_out: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def reminder_time(game: Game, deadline: datetime | None) -> datetime | None:
    """When to remind: a day before the deadline, or halfway for short deadlines."""
    if deadline is None:
        return None
    lead = min(REMINDER_BEFORE, timedelta(hours=game.deadline_hours) / 2)
    return deadline - lead


def due_games(session: Session) -> list[str]:
    """Active games with a decision open."""
    query = select(Game.public_id).where(Game.status == "active", Game.await_since.is_not(None))
    return list(session.scalars(query))


def check_game(session: Session, ctx: Context, public_id: str, now: datetime) -> str | None:
    """Remind or time out one game; say which, or None."""
    loaded = load(session, public_id, for_update=True)
    game = loaded.game
    deadline = clock.deadline_of(game, [loaded.player(s) for s in loaded.awaited()])
    remind_at = reminder_time(game, deadline)
    if deadline is None or remind_at is None or not loaded.awaited():
        return None
    if now >= deadline:
        time_out(session, ctx, loaded)
        return "timed-out"
    if now >= remind_at and not game.reminded:
        for seat in loaded.awaited():
            compose.queue_turn(session, ctx, loaded, seat, reminder=deadline)
        game.reminded = True
        return "reminded"
    return None


def time_out(session: Session, ctx: Context, loaded: Loaded) -> None:
    """Apply the game's policy for every seat that let its deadline pass."""
    before = loaded.awaited()
    policy = loaded.game.timeout_policy
    for seat in before:
        if loaded.game.status != "active" or seat not in loaded.awaited():
            continue
        if policy == "bot":
            action: str | None = loaded.rules.bot_action(loaded.state, seat)
            event: engine.Event = engine.Played(seat, action or "")
        else:
            action = None
            event = engine.Resigned(seat)
        secret = loaded.is_secret(loaded.state, event)
        loaded.state = engine.step(loaded.rules, loaded.state, event)
        payload = {"policy": policy, "action": action}
        store.append(session, loaded.game, "timeout", payload, seat=seat, secret=secret)
        if action is None:
            loaded.gone[seat] = "timed out"
        advance(session, ctx, loaded)
        if policy != "bot" and loaded.game.status == "active":  # else the result mail tells
            tell_forfeit(session, ctx, loaded, seat)
    notify(session, ctx, loaded, before=(), acting=None)


def tell_forfeit(session: Session, ctx: Context, loaded: Loaded, seat: int) -> None:
    """Mail a seat that timed out and forfeits, at that moment, in a game that goes on."""
    name = loaded.rules.seat_name(loaded.state, seat)
    notice = (f"Your time ran out as {name}: you timed out and forfeit this game, "
              "which goes on without you.")
    compose.queue_notice(session, ctx, loaded, seat, notice, what="timeout")


def tick(
    run: Callable[[Callable[[Session], Any]], Any], ctx: Context, games: list[str], now: datetime
) -> Tick:
    """Check each game in its own transaction (run = Services.write)."""
    report = Tick()
    for public_id in games:

        def check(s: Session, public_id: str = public_id) -> str | None:
            return check_game(s, ctx, public_id, now)

        try:
            done = run(check)
        except (PbemError, engine.RulesError) as e:
            report.errors.append(f"{public_id}: {e}")
            continue
        if done == "reminded":
            report.reminded.append(public_id)
        elif done == "timed-out":
            report.timed_out.append(public_id)
    return report
