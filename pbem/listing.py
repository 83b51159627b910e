"""Rows for the game lists: what each game waits for, how it ended, and the viewer's turns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

import engine

from . import store
from .links import MoveGrant, Signer
from .models import Game, Player


@dataclass(frozen=True)
class Row:
    """One game in a list, as a player wants to see it."""

    game: Game
    title: str
    status: str
    play_token: str | None  # a fresh move link when the game waits for the viewer


def rows(
    session: Session, signer: Signer, games: Sequence[Game], viewer: Player | None
) -> list[Row]:
    """A row per game, with a move link wherever the game waits for the viewer."""
    return [row(session, signer, game, viewer) for game in games]


def row(session: Session, signer: Signer, game: Game, viewer: Player | None) -> Row:
    """The row of one game (its state comes from the cache, or from the log and snapshots)."""
    setup, state = store.current(session, game)
    rules = engine.rules_for(setup.kind)
    pending = rules.pending(state)
    if isinstance(pending, engine.Finished):
        return Row(game, rules.title, f"over: {pending.outcome.reason}", None)
    status = engine.awaited_text(rules, state, pending)
    if isinstance(pending, engine.Await):
        names = ", ".join(
            f"{rules.seat_name(state, seat)} ({game.seats[seat].player.name})"
            for seat in pending.seats
        )
        status = f"waiting for {names}"
    token = None
    if isinstance(pending, engine.Await) and viewer is not None:
        mine = [s.seat for s in game.seats if s.player_id == viewer.id and s.seat in pending.seats]
        if mine:
            token = signer.move_token(MoveGrant(game.public_id, mine[0], game.head_seq))
            status = "your turn"
    return Row(game, rules.title, status, token)
