"""Rows for the game lists: what each game waits for, how it ended, and the viewer's turns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

import engine

from .. import present
from ..links import MoveGrant, Signer
from ..log.games import dice_held, loaded_from
from ..models import Game, Player

HELD = "in play: shares its dice with other tables, shown when every one has ended"


@dataclass(frozen=True)
class Row:
    """One game in a list, as a player wants to see it."""

    game: Game
    title: str
    status: str
    play_token: str | None  # a fresh move link when the game waits for the viewer
    held: bool = False  # its dice are another table's to come: nothing of it is told

    @property
    def when(self) -> datetime:
        """The game's last activity; a held game's start, as its activity would tell."""
        return self.game.created_at if self.held else self.game.updated_at


def rows(
    session: Session, signer: Signer, games: Sequence[Game], viewer: Player | None
) -> list[Row]:
    """A row per game, newest activity first, with a move link wherever the viewer is awaited."""
    found = [row(session, signer, game, viewer) for game in games]
    return sorted(found, key=lambda r: r.when, reverse=True)


def row(session: Session, signer: Signer, game: Game, viewer: Player | None) -> Row:
    """The row of one game (its state comes from the cache, or from the log and snapshots).

    A game whose dice another table still rolls says only that, but to its own players.
    """
    seated = viewer is not None and any(s.player_id == viewer.id for s in game.seats)
    if not seated and dice_held(session, game):
        return Row(game, engine.rules_for(game.kind).title, HELD, None, held=True)
    loaded = loaded_from(session, game)
    rules, state, pending = loaded.rules, loaded.state, loaded.pending
    if loaded.ruling is not None:
        ruled = present.ruling_text(rules, state, loaded.ruling)
        return Row(game, rules.title, f"over: {ruled}", None)
    if isinstance(pending, engine.Finished):
        return Row(game, rules.title, f"over: {pending.outcome.reason}", None)
    if not isinstance(pending, engine.Await):  # the server rolls at once; this is a moment
        return Row(game, rules.title, engine.awaited_text(rules, state, pending), None)
    for seat in pending.seats:
        if viewer is not None and game.seats[seat].player_id == viewer.id:
            token = signer.move_token(MoveGrant(game.public_id, seat, game.head_seq))
            return Row(game, rules.title, "your turn", token)
    names = ", ".join(
        f"{rules.seat_name(state, seat)} ({game.seats[seat].player.name})" for seat in pending.seats
    )
    return Row(game, rules.title, f"waiting for {names}", None)
