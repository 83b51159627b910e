"""What a tournament game's mails and page say of its event: the event's name, link and round."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..context import Context, EventLabel
from ..models import Game, Tournament, TournamentEvent


def label_of(session: Session, ctx: Context, game: Game) -> EventLabel | None:
    """The event a game belongs to and its round (None for a game outside any event).

    The round is read from the `pair` event that started the game: one query on the event's
    own log, without folding it, since every turn mail asks.
    """
    if game.tournament_id is None:
        return None
    row = session.get(Tournament, game.tournament_id)
    if row is None:
        return None
    payloads = session.scalars(
        select(TournamentEvent.payload).where(
            TournamentEvent.tournament_id == row.id, TournamentEvent.kind == "pair",
            TournamentEvent.payload.contains(json.dumps(game.public_id)),
        )
    )
    round_ = next((data.get("round") for data in map(json.loads, payloads)
                   if any(t.get("game") == game.public_id for t in data.get("tables", ()))),
                  None)
    return EventLabel(row.name, f"{ctx.base_url}/tournaments/{row.public_id}", round_)


def while_pairing(ctx: Context, round_: int | None) -> Context:
    """The context for starting a pairing's games: their `pair` event is logged just after
    them, so their first mails take the round being paired."""
    def label(session: Session, ctx: Context, game: Any) -> EventLabel | None:
        found = label_of(session, ctx, game)
        return replace(found, round=round_) if found and found.round is None else found

    return replace(ctx, game_label=label)
