"""Bounces acted on: a hard one marks the address failing, holds its mail and tells the
directors; a soft one sends the mail again, a few times; a delay is only noted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from ..clock import utcnow
from ..context import Context
from ..errors import BadLink
from ..models import Bounce, Game, GameSeat, Outbox, Player, Tournament
from . import bounces, compose, outbox, sent
from .bounces import Failure

SOFT_LIMIT = 3  # soft bounces of one mail before its address counts as failing
FAILURE_LIMIT = 300  # the players.mail_failure column


@dataclass(frozen=True)
class Directed:
    """A game a failing player sits in, and who directs it."""

    game: Game
    director: Player


def receive(session: Session, ctx: Context, message: EmailMessage, tag: str | None) -> str:
    """Act on a bounce; say what was done, in words for the log."""
    report = bounces.read(message)
    row = bounced_mail(session, ctx, tag, report)
    if row is None:
        named = f"return path {tag}" if tag else f"Message-ID {report.original_id or '(none)'}"
        return f"a bounce for no mail of ours ({named}): nothing changed"
    if report.problem:
        return f"bounce of mail {row.id} to {row.to_addr}: {report.problem}; nothing changed"
    failure = next((f for f in report.failures if f.address == row.to_addr), report.failures[0])
    now = utcnow()
    session.add(Bounce(
        outbox_id=row.id, address=row.to_addr, kind=failure.kind, status=failure.status,
        diagnostic=failure.diagnostic, received_at=now,
    ))
    what = f"mail {row.id} ({row.purpose}) to {row.to_addr}"
    if failure.kind == "delayed":
        return f"{what} is delayed ({failure.diagnostic}); the receiving side still tries"
    if failure.kind == "soft":
        count = session.scalar(select(func.count()).select_from(Bounce).where(
            Bounce.outbox_id == row.id, Bounce.kind == "soft"
        )) or 0
        if count < SOFT_LIMIT:
            wait = outbox.backoff(count + 2)
            row.sent_at = None
            row.next_attempt_at = now + wait
            minutes = int(wait.total_seconds() // 60)
            return f"soft bounce of {what} ({reason(failure)}): sent again in {minutes} minutes"
        failure = Failure(
            failure.address, "hard", failure.status,
            f"{count} soft bounces of one mail, the last: {reason(failure)}",
        )
    player = session.scalars(select(Player).where(Player.email == row.to_addr)).first()
    if player is None:
        return f"hard bounce of {what} ({reason(failure)}); the address is no player's"
    if player.mail_failing_at is not None:
        return f"hard bounce of {what} ({reason(failure)}); the address was failing already"
    held, told = mark_failing(session, ctx, player, reason(failure), now)
    return (
        f"hard bounce of {what} ({reason(failure)}): the address is failing, {held} mails held"
        + (f", told {', '.join(told)}" if told else ", no director to tell")
    )


def reason(failure: Failure) -> str:
    """A bounce's reason in the remote server's words, with its status."""
    text = failure.diagnostic or "no reason given"
    return text if not failure.status or failure.status in text else f"{failure.status} {text}"


def bounced_mail(
    session: Session, ctx: Context, tag: str | None, report: bounces.Report
) -> Outbox | None:
    """The mail a bounce is about: named by its signed return path, else by the returned
    original's Message-ID (ours are signed) when it was sent to a recipient that failed."""
    if tag is not None and tag.startswith("b"):
        try:
            return session.get(Outbox, ctx.signer.read_number_ref("b", tag))
        except BadLink:
            return None
    if report.original_id:
        failed = {f.address for f in report.failures}
        for row in sent.by_message_ids(session, [report.original_id]):
            if row.to_addr in failed:
                return row
    return None


def mark_failing(
    session: Session, ctx: Context, player: Player, why: str, now: datetime
) -> tuple[int, list[str]]:
    """Mark an address failing, hold its waiting mail, mail the directors of its games.

    Returns how many mails were held and whom it told.
    """
    player.mail_failing_at = now
    player.mail_failure = bounces.clean(why)[:FAILURE_LIMIT]
    held = session.connection().execute(
        update(Outbox)
        .where(
            Outbox.to_addr == player.email,
            Outbox.sent_at.is_(None),
            Outbox.failed_at.is_(None),
            Outbox.held_at.is_(None),
            Outbox.purpose.not_in(outbox.NEVER_HELD),
        )
        .values(held_at=now)
    ).rowcount
    told = []
    by_director: dict[int, list[Game]] = {}
    directors: dict[int, Player] = {}
    for item in directed_games(session, player):
        by_director.setdefault(item.director.id, []).append(item.game)
        directors[item.director.id] = item.director
    for director_id, games in by_director.items():
        director = directors[director_id]
        text = compose.render_text(
            "bounce", director=director, player=player, games=games, why=player.mail_failure,
            base_url=ctx.base_url, when=now,
        )
        outbox.queue(
            session, ctx, purpose="bounce", to=director.email,
            subject=f"Mail to {player.name} bounces",
            text=text, html=None, key=f"bounce.{player.id}.{director_id}.{now:%Y%m%d%H%M%S}",
        )
        told.append(director.name)
    return int(held or 0), told


def directed_games(session: Session, player: Player) -> list[Directed]:
    """The active games a player sits in whose director is someone else."""
    query = (
        select(Game, Player)
        .join(GameSeat, GameSeat.game_id == Game.id)
        .outerjoin(Tournament, Tournament.id == Game.tournament_id)
        .join(Player, Player.id == func.coalesce(Tournament.director_id, Game.created_by))
        .where(GameSeat.player_id == player.id, Game.status == "active", Player.id != player.id)
        .order_by(Game.id)
    )
    return [Directed(game, director) for game, director in session.execute(query).unique()]


def clear(session: Session, player: Player, now: datetime) -> int:
    """The address works again: send the mail held for it. Returns how many were held."""
    player.mail_failing_at = None
    player.mail_failure = None
    released = session.connection().execute(
        update(Outbox)
        .where(Outbox.to_addr == player.email, Outbox.held_at.is_not(None))
        .values(held_at=None, next_attempt_at=now)
    ).rowcount
    return int(released or 0)


def recent(session: Session, address: str, within: timedelta = timedelta(days=30)) -> list[Bounce]:
    """The bounces of an address lately, newest first."""
    since = utcnow() - within
    query = (
        select(Bounce)
        .where(Bounce.address == address, Bounce.received_at >= since)
        .order_by(Bounce.id.desc())
    )
    return list(session.scalars(query))

