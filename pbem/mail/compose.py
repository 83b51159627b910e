"""Compose mails from templates and queue them in the outbox, in the caller's transaction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import formataddr, parseaddr
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, select_autoescape
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.figures import counted, figure

from .. import clock, games, present
from ..config import TEMPLATES
from ..context import Context
from ..errors import TooMany
from ..log.games import Loaded
from ..models import Outbox, Player
from ..text import one_line
from .outbox import domain_of, message_id_for, queue

SIGNIN_LIMIT = (3, timedelta(minutes=15))  # at most 3 sign-in mails per address per window
FRESH_LINK_EVERY = timedelta(minutes=10)  # at most one fresh move link per seat in this time

templates = Environment(
    loader=games.loader(TEMPLATES),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    auto_reload=False,  # templates change with a deploy, which restarts the process
)
templates.filters["ordinal"] = present.ordinal
templates.filters["figure"] = figure
templates.filters["counted"] = counted
# Names in mail stay on one line, even a name stored before names were cleaned.
templates.filters["line"] = one_line


def reply_address(mail_from: str, ref: str) -> str:
    """The From address with a reply reference as plus-suffix: pbem+REF@host."""
    name, address = parseaddr(mail_from)
    local, _, domain = address.partition("@")
    return formataddr((name, f"{local}+{ref}@{domain or 'localhost'}"))


def render(name: str, **context: Any) -> tuple[str, str]:
    """The text and HTML bodies of a mail template pair mail/<name>.txt|html."""
    text = templates.get_template(f"mail/{name}.txt").render(**context)
    html = templates.get_template(f"mail/{name}.html").render(**context)
    return text, html


def render_text(name: str, **context: Any) -> str:
    """The body of a text-only mail template mail/<name>.txt."""
    return templates.get_template(f"mail/{name}.txt").render(**context)


def thread_subject(loaded: Loaded) -> str:
    """The one subject of every mail of a game, so that Gmail keeps them in one conversation."""
    return f"{loaded.rules.title} game {loaded.game.public_id}"


def invite_key(loaded: Loaded, seat: int) -> str:
    """The key of a seat's invitation: the first mail of the seat's conversation."""
    return f"{loaded.game.public_id}.invite.{seat}.{loaded.player(seat).id}"


def thread_root(ctx: Context, loaded: Loaded, seat: int) -> str:
    """The Message-ID every later mail of the seat's conversation refers to."""
    return message_id_for(ctx, invite_key(loaded, seat))


def game_headers(ctx: Context, loaded: Loaded, seat: int) -> dict[str, str]:
    """Threading, list and unsubscribe headers shared by every mail of a game."""
    domain = domain_of(ctx.mail_from)
    public_id = loaded.game.public_id
    player = loaded.player(seat)
    unsubscribe = f"{ctx.base_url}/unsubscribe/{ctx.signer.unsubscribe_token(player.id)}"
    root = thread_root(ctx, loaded, seat)
    return {
        "List-Id": f"{loaded.rules.title} game {public_id} <{public_id}.games.{domain}>",
        "List-Unsubscribe": f"<{unsubscribe}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "References": root,
        "In-Reply-To": root,
    }


def game_context(ctx: Context, loaded: Loaded, seat: int) -> dict[str, Any]:
    """What every game mail template receives."""
    game = loaded.game
    return {
        "game": game,
        "player": loaded.player(seat),
        "title": loaded.rules.title,
        "pos": present.of_game(loaded, seat),
        "game_url": f"{ctx.base_url}/games/{game.public_id}",
        "history_url": f"{ctx.base_url}/games/{game.public_id}/history",
        "audit_url": f"{ctx.base_url}/games/{game.public_id}/audit",
        "rules_url": f"{ctx.base_url}/rules/{game.kind}",
        "my_games": f"{ctx.base_url}/me",
        "head_seq": game.head_seq,
        "head_hash": game.head_hash,
        "commitment": loaded.setup.commitment,
        "players": [one_line(s.player.name) for s in game.seats],
        "opponents": [one_line(s.player.name) for s in game.seats if s.seat != seat],
        "legal_listed": present.LEGAL_LISTED,
        "site": games.site_for(game.kind),
    }


def queue_game_mail(
    session: Session,
    ctx: Context,
    loaded: Loaded,
    seat: int,
    *,
    purpose: str,
    context: dict[str, Any],
    key: str,
    headers: dict[str, str] | None = None,
) -> None:
    """Queue mail/<purpose>.txt|html to a seat's player, in the seat's game conversation."""
    player = loaded.player(seat)
    label = ctx.game_label(session, ctx, loaded.game) if ctx.game_label else None
    text, html = render(purpose.replace("-", "_"), **{"event": label, **context})
    queue(
        session,
        ctx,
        purpose=purpose,
        to=player.email,
        subject=thread_subject(loaded),
        text=text,
        html=html,
        key=key,
        game_id=loaded.game.id,
        headers={**game_headers(ctx, loaded, seat), **(headers or {})},
    )


def move_link(ctx: Context, loaded: Loaded, seat: int) -> tuple[str, str]:
    """A seat's move link at the current head, and the reference a reply to it carries."""
    grant = loaded.grant(seat)
    return f"{ctx.base_url}/play/{ctx.signer.move_token(grant)}", ctx.signer.reply_ref(grant)


def deadline_text(loaded: Loaded) -> str | None:
    """When the current decision expires, in words (UTC)."""
    awaited = [loaded.player(s) for s in loaded.awaited()]
    deadline = clock.deadline_of(loaded.game, awaited)
    return deadline.strftime("%A %d %B %Y, %H:%M UTC") if deadline else None


def queue_turn(
    session: Session, ctx: Context, loaded: Loaded, seat: int, *, reminder: object = None
) -> bool:
    """Mail a seat that it must act, with a signed move link; False if it wants no mail."""
    player = loaded.player(seat)
    if player.mail_pref in ("none", "digest"):  # digest players get one mail a day
        return False
    link, ref = move_link(ctx, loaded, seat)
    context = {
        **game_context(ctx, loaded, seat),
        "link": link,
        "quote": quote,
        "deadline": deadline_text(loaded),
        "policy": loaded.game.timeout_policy,
        "reminder": reminder is not None,
    }
    queue_game_mail(
        session, ctx, loaded, seat,
        purpose="turn",
        context=context,
        key=f"{loaded.game.public_id}.{loaded.game.head_seq}.{seat}."
        + ("reminder" if reminder is not None else "turn"),
        headers={"Reply-To": reply_address(ctx.mail_from, ref)},
    )
    return True


def queue_invitation(session: Session, ctx: Context, loaded: Loaded, seat: int) -> None:
    """Tell a player they are in a new game, with the dice commitment."""
    player = loaded.player(seat)
    if player.mail_pref == "none":
        return
    queue_game_mail(
        session, ctx, loaded, seat,
        purpose="invite",
        context=game_context(ctx, loaded, seat),
        key=invite_key(loaded, seat),
        headers={"In-Reply-To": "", "References": ""},
    )


def queue_result(
    session: Session, ctx: Context, loaded: Loaded, seat: int, *, revealed: bool
) -> None:
    """Tell a player how the game ended, with the revealed seed and the audit link."""
    player = loaded.player(seat)
    if player.mail_pref == "none":
        return
    queue_game_mail(
        session, ctx, loaded, seat,
        purpose="result",
        context={**game_context(ctx, loaded, seat), "revealed": revealed},
        key=f"{loaded.game.public_id}.{loaded.game.head_seq}.{seat}.result",
    )


def queue_notice(
    session: Session, ctx: Context, loaded: Loaded, seat: int, notice: str, *, what: str
) -> None:
    """Tell a seat's player, in the game's conversation, what a director (or the clock) did.

    `what` names the action, so that two different actions at one head are two mails.
    """
    player = loaded.player(seat)
    if player.mail_pref == "none":
        return
    game_url = f"{ctx.base_url}/games/{loaded.game.public_id}"
    queue_game_mail(
        session, ctx, loaded, seat,
        purpose="notice",
        context={"person": player.name, "notice": notice, "game_url": game_url, "home": None},
        key=f"{loaded.game.public_id}.{loaded.game.head_seq}.{seat}.{what}.{player.id}",
    )


def queue_player_notice(
    session: Session, ctx: Context, player: Player, subject: str, notice: str, key: str,
    *, home: str | None = None, game_url: str | None = None,
) -> None:
    """Tell a player, outside any game's conversation, what a director did to them."""
    if player.mail_pref == "none":
        return
    context = {"person": player.name, "notice": notice, "game_url": game_url, "home": home}
    text, html = render("notice", **context)
    queue(session, ctx, purpose="notice", to=player.email, subject=subject, text=text,
          html=html, key=key)


def check_rate(session: Session, address: str, purpose: str, what: str) -> None:
    """Refuse more than SIGNIN_LIMIT mails of a purpose per window to one address."""
    count, window = SIGNIN_LIMIT
    since = datetime.now(UTC) - window
    recent = session.scalar(
        select(func.count())
        .select_from(Outbox)
        .where(Outbox.to_addr == address, Outbox.purpose == purpose, Outbox.created_at >= since)
    )
    if (recent or 0) >= count:
        raise TooMany(
            f"{count} {what} were already sent to {address} in the last "
            f"{int(window.total_seconds() // 60)} minutes; use one of those"
        )


def queue_signin(session: Session, ctx: Context, player: Player, next_path: str = "/") -> None:
    """Mail a sign-in link, at most SIGNIN_LIMIT times per window per address."""
    check_rate(session, player.email, "signin", "sign-in links")
    token = ctx.signer.signin_token(player.id, player.session_generation)
    link = f"{ctx.base_url}/signin/{token}"
    if next_path != "/":
        link += f"?next={quote(next_path)}"
    text, html = render("signin", player=player, link=link)
    queue(
        session,
        ctx,
        purpose="signin",
        to=player.email,
        subject="Your pbem sign-in link",
        text=text,
        html=html,
        key=f"signin.{player.id}.{int(datetime.now(UTC).timestamp() * 1e6)}",
    )


def queue_fresh_link(session: Session, ctx: Context, loaded: Loaded, seat: int) -> None:
    """Mail a seat a new move link for the game as it stands, once per FRESH_LINK_EVERY."""
    public_id = loaded.game.public_id
    since = clock.utcnow() - FRESH_LINK_EVERY
    recent = session.scalar(
        select(func.count())
        .select_from(Outbox)
        .where(
            Outbox.purpose == "fresh-link",
            Outbox.game_id == loaded.game.id,
            Outbox.message_id.like(f"<{public_id}.fresh.{seat}.%"),
            Outbox.created_at >= since,
        )
    )
    if recent:
        minutes = int(FRESH_LINK_EVERY.total_seconds() // 60)
        raise TooMany(
            f"a fresh link for this seat was mailed less than {minutes} minutes ago; "
            "look for it in your mail (and in the spam folder)"
        )
    link, ref = move_link(ctx, loaded, seat)
    context = {"link": link, "awaited": seat in loaded.awaited()}
    queue_game_mail(
        session, ctx, loaded, seat,
        purpose="fresh-link",
        context={**game_context(ctx, loaded, seat), **context},
        key=f"{public_id}.fresh.{seat}.{int(datetime.now(UTC).timestamp() * 1e6)}",
        headers={"Reply-To": reply_address(ctx.mail_from, ref)},
    )
