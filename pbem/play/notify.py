"""Who to tell: mail the seats that must now decide, or everyone the result; start clocks;
mail a seat a fresh link when it asks."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from ..clock import utcnow
from ..context import Context
from ..errors import Rejected
from ..links import MoveGrant
from ..log.games import Loaded, is_revealed, load
from ..mail import compose


def notify(
    session: Session,
    ctx: Context,
    loaded: Loaded,
    *,
    before: Sequence[int],
    acting: int | None,
    continuing: int | None = None,
) -> list[str]:
    """Mail the seats that must now decide (not one continuing its own turn), or the result."""
    game = loaded.game
    if game.status != "active":
        game.await_since = None
        revealed = is_revealed(session, game)
        for seat in range(len(game.seats)):
            compose.queue_result(session, ctx, loaded, seat, revealed=revealed)
        return [loaded.player(s).email for s in range(len(game.seats))]
    awaited = loaded.awaited()
    # A new decision starts a new deadline; a decision still open keeps its clock.
    if any(seat == acting or seat not in before for seat in awaited):
        game.await_since = utcnow()
        game.reminded = False
        game.extra_hours = 0
    told = []
    for seat in awaited:
        # A decision within the player's own turn needs no mail, nor does one still open.
        if seat == continuing or (seat in before and seat != acting):
            continue
        if compose.queue_turn(session, ctx, loaded, seat):
            told.append(loaded.player(seat).email)
    return told


def mail_fresh_link(session: Session, ctx: Context, grant: MoveGrant) -> str:
    """Mail the seat of an (expired) grant a new link, rate-limited; return the seat's name."""
    loaded = load(session, grant.game, for_update=True)
    if not 0 <= grant.seat < len(loaded.game.seats):
        raise Rejected(f"this game has no seat {grant.seat}")
    compose.queue_fresh_link(session, ctx, loaded, grant.seat)
    return loaded.rules.seat_name(loaded.state, grant.seat)
