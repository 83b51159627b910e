"""A tournament's mails: the registration link, and summaries of standings and games."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..context import Context
from ..mail import compose, outbox
from ..models import Outbox, Player
from . import reports
from .core import formats
from .log import Held


def queue_registration(
    session: Session, ctx: Context, held: Held, email: str, inviter: Player | None = None
) -> None:
    """Mail a signed link that enters the address in the tournament (rate-limited).

    With `inviter` (someone signed in, or the director from the command line) the mail says
    who invites them; without, the address asked for itself. The director's link is an
    invitation, signed with their name: it enters a private event too.
    """
    compose.check_rate(session, email, "register", "registration links")
    director = inviter is not None and inviter.id == held.row.director_id
    by = inviter.name if inviter is not None and director else None
    token = ctx.signer.register_token(held.public_id, email, by)
    link = f"{ctx.base_url}/tournaments/register/{token}"
    config = held.state.config
    text, html = compose.render(
        "tournament_register", held=held, link=link,
        home=f"{ctx.base_url}/tournaments/{held.public_id}",
        inviter=inviter, director=director,
        game=reports.game_title(config.kind), system=formats.format_for(config.system).title,
    )
    outbox.queue(
        session,
        ctx,
        purpose="register",
        to=email,
        subject=f"[{held.row.name}] your registration link",
        text=text,
        html=html,
        key=f"register.{held.public_id}.{int(datetime.now(UTC).timestamp() * 1e6)}",
    )


def queue_summary(session: Session, ctx: Context, held: Held, title: str, key: str) -> int:
    """Mail every active entrant the standings and their games, once per key."""
    domain = outbox.domain_of(ctx.mail_from)
    ids: dict[int, str | None] = {int(e.player): e.player for e in held.state.entrants}
    ids.setdefault(held.row.director_id, None)  # the director reads every summary too
    players = [p for p in session.scalars(select(Player).where(Player.id.in_(list(ids))))
               if p.mail_pref != "none"]
    message_id = {p.id: f"<t.{held.public_id}.{key}.{p.id}@{domain}>" for p in players}
    done = set(session.scalars(
        select(Outbox.message_id).where(Outbox.message_id.in_(list(message_id.values())))
    ))
    players = [p for p in players if message_id[p.id] not in done]
    if not players:
        return 0
    table = held.standings
    home = f"{ctx.base_url}/tournaments/{held.public_id}"
    sent = 0
    for player in sorted(players, key=lambda p: p.id):
        entrant = ids[player.id]
        tables = held.state.games_of.get(entrant, ()) if entrant is not None else ()
        games = [
            {"game": t.game, "round": t.round, "over": t.result is not None,
             "url": f"{ctx.base_url}/games/{t.game}",
             "opponents": [reports.name_of(held.state, p) for p in t.seats if p != entrant]}
            for t in tables
        ]
        context: dict[str, Any] = {
            "held": held, "title": title, "player": player, "standings": table[:20],
            "games": games, "home": home,
            "me": next((s for s in table if s.player == entrant), None),
            "director": player.id == held.row.director_id,
            "away": [reports.name_of(held.state, p) for p in last_away(held)],
        }
        text, html = compose.render("tournament_summary", **context)
        outbox.queue(session, ctx, purpose="summary", to=player.email,
                     subject=f"[{held.row.name}] {title}", text=text, html=html,
                     key=f"t.{held.public_id}.{key}.{player.id}")
        sent += 1
    return sent


def last_away(held: Held) -> tuple[str, ...]:
    """Who the latest pairing left out because they were on vacation."""
    pairings = held.state.pairings
    return pairings[-1].away if pairings else ()
