"""The daily digest: at most one mail a day listing every game that waits for a player."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from .. import present
from ..context import Context
from ..log.games import games_of, load
from ..models import Player
from . import compose, outbox

EVERY = timedelta(hours=24)


def due_players(session: Session, now: datetime) -> list[int]:
    """Digest players whose last digest is a day old or who never had one."""
    query = select(Player.id).where(
        Player.mail_pref == "digest",
        or_(Player.digest_sent_at.is_(None), Player.digest_sent_at <= now - EVERY),
    )
    return list(session.scalars(query))


def waiting_for(session: Session, ctx: Context, player: Player) -> list[dict[str, Any]]:
    """Each decision the player owes, with a fresh link, the board and the deadline."""
    owed = []
    for game in games_of(session, player):
        if game.status != "active":
            continue
        loaded = load(session, game.public_id)
        for seat in loaded.awaited():
            if loaded.game.seats[seat].player_id != player.id:
                continue
            token = ctx.signer.move_token(loaded.grant(seat))
            owed.append(
                {
                    "title": loaded.rules.title,
                    "game": game.public_id,
                    "seat": loaded.rules.seat_name(loaded.state, seat),
                    "link": f"{ctx.base_url}/play/{token}",
                    "rules_url": f"{ctx.base_url}/rules/{game.kind}",
                    "deadline": compose.deadline_text(loaded),
                    "pos": present.of_game(loaded, seat),
                }
            )
    return owed


def send(session: Session, ctx: Context, player_id: int, now: datetime) -> bool:
    """Queue a player's digest if anything waits for them; say whether one was queued."""
    player = session.get(Player, player_id)
    if player is None or player.mail_pref != "digest":
        return False
    owed = waiting_for(session, ctx, player)
    if not owed:
        # Nothing owed: the next decision gets a digest at once rather than a day later.
        return False
    text, html = compose.render("digest", player=player, owed=owed)
    count = len(owed)
    outbox.queue(
        session,
        ctx,
        purpose="digest",
        to=player.email,
        subject=f"Your daily digest: {count} game{'s' if count != 1 else ''} wait for you",
        text=text,
        html=html,
        key=f"digest.{player.id}.{now:%Y%m%d%H%M%S}",
    )
    player.digest_sent_at = now
    return True


def send_due(run: Callable[[Callable[[Session], Any]], Any], ctx: Context, now: datetime) -> int:
    """Send every due digest, each in its own transaction (run = Services.write)."""
    players: list[int] = run(lambda s: due_players(s, now))
    sent = 0
    for player_id in players:

        def one(s: Session, player_id: int = player_id) -> bool:
            return send(s, ctx, player_id, now)

        sent += bool(run(one))
    return sent
