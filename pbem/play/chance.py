"""Chance: answer every roll and shuffle from the committed seed; reveal it at the end."""

from __future__ import annotations

from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

import engine

from ..clock import utcnow
from ..context import Context
from ..log import dice, snapshots, store, tally
from ..log.games import Loaded, ending_of, is_revealed, seed_of
from ..mail import compose
from ..models import Event, Game


def advance(session: Session, ctx: Context, loaded: Loaded) -> None:
    """Answer every chance step from the committed seed; at the end, reveal and tell hooks."""
    game = loaded.game
    scheme = loaded.setup.dice_scheme
    while True:
        pending = loaded.pending
        if not isinstance(pending, engine.Roll | engine.Shuffle):
            break
        named = loaded.rules.chance_address(loaded.state)
        address = dice.address_for(scheme, game.chances, named)
        if isinstance(pending, engine.Roll):
            values = dice.roll(
                seed_of(session, game), game.stream, address, pending.count, pending.sides
            )
            payload: dict[str, Any] = {
                "count": pending.count,
                "sides": pending.sides,
                "values": values,
            }
            event: engine.Event = engine.Rolled(tuple(values))
        else:
            order = dice.shuffle(seed_of(session, game), game.stream, address, pending.n)
            payload = {"n": pending.n, "order": order}
            event = engine.Shuffled(tuple(order))
        if scheme >= 2:
            payload["address"] = address
        kind = "roll" if isinstance(event, engine.Rolled) else "shuffle"
        secret = loaded.is_secret(loaded.state, event)
        store.append(session, game, kind, payload, secret=secret)
        loaded.state = engine.step(loaded.rules, loaded.state, event)
        game.chances += 1
        snapshots.maybe_snapshot(session, game, loaded.rules, loaded.state)
    if isinstance(loaded.pending, engine.Finished) and game.status == "active":
        end(session, ctx, loaded, "finished")
    game.updated_at = utcnow()
    snapshots.CACHE.put(game, loaded.setup, loaded.state)


def reveal_when_ready(session: Session, game: Game) -> None:
    """Publish the seed once no game rolling from it is still going on."""
    sharing = [game]
    if game.stream != game.public_id:
        sharing = list(session.scalars(select(Game).where(Game.stream == game.stream)))
        if any(other.status == "active" for other in sharing):
            return  # the seed would give away the dice still to come in those games
    for finished in sharing:
        already = exists().where(Event.game_id == finished.id, Event.kind == "reveal")
        if finished.status != "active" and not session.scalar(select(already)):
            store.append(session, finished, "reveal", {"seed": seed_of(session, finished)})
            tally.count_game(session, finished.id)


def reveal_due(session: Session) -> int:
    """Catch up: reveal the seed of every shared stream whose games have all ended."""
    revealed = exists().where(Event.game_id == Game.id, Event.kind == "reveal")
    unrevealed = select(Game).where(
        Game.stream != Game.public_id, Game.status != "active", ~Game.imported, ~revealed
    )
    streams = {game.stream: game for game in session.scalars(unrevealed)}
    count = 0
    for game in streams.values():
        before = game.head_seq
        reveal_when_ready(session, game)
        count += game.head_seq != before
    return count


def end(session: Session, ctx: Context, loaded: Loaded, status: str) -> None:
    """Mark the game over, reveal its seed when no game shares it, mail the result, and run
    the end hooks.

    The result mails are queued before the hooks, so that whatever a hook mails next (the
    next round of an event) leaves the outbox after them, in the order things happened.
    """
    loaded.game.status = status
    loaded.game.await_since = None
    reveal_when_ready(session, loaded.game)
    loaded.ending = ending_of(session, loaded)
    revealed = is_revealed(session, loaded.game)
    for seat in range(len(loaded.game.seats)):
        compose.queue_result(session, ctx, loaded, seat, revealed=revealed)
    for hook in ctx.on_game_end:
        hook(session, ctx, loaded)
