"""The move link: GET shows the seat's page and never acts; POST acts (docs/architecture.md §6)."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from sqlalchemy.orm import Session

from .. import present
from ..errors import ExpiredLink, Rejected, StaleTurn
from ..links import MoveGrant
from ..log.games import Loaded, dice_held, load
from ..mail.compose import FRESH_LINK_EVERY
from ..play.act import check_grant, grant_state, others_acted_since, resign, submit
from ..play.notify import mail_fresh_link
from ..services import services
from .helpers import keep_token

bp = Blueprint("play", __name__)

STAGED_FROM = 24  # more choices than this are offered a question at a time

NOTICES = {
    "current": None,
    "stale-awaited": "The turn this link was sent for has been played. It is your turn again:"
    " this page has a fresh form.",
    "continuing": "Your turn goes on: this page shows your next decision.",
    "stale": "The turn this link was sent for has already been played.",
    "waiting": "It is not your turn yet; you will get a mail when it is.",
    "over": "This game is over.",
}


def page(session: Session, grant: MoveGrant, *, status: int = 200, **extra: Any) -> Any:
    """Render the seat's page for the game as it stands now."""
    svc = services()
    loaded = load(session, grant.game)
    check_grant(session, loaded, grant)
    if dice_held(session, loaded.game):
        keep_token(svc.signer.move_token(grant))
    state = grant_state(session, loaded, grant)
    can_act = state in ("current", "stale-awaited")
    # A link from the start of a turn still in play opens the next decision of that turn.
    if state == "stale-awaited" and not others_acted_since(
        session, loaded.game, grant.seat, grant.seq
    ):
        state = "continuing"
    fresh = svc.signer.move_token(loaded.grant(grant.seat)) if can_act else None
    pos = present.of_game(loaded, grant.seat)
    stages = staged(loaded, grant.seat, fresh, pos["legal"]) if fresh else None
    shown = tuple(pos["legal"]) if stages is None else stages["actions"]
    # Point-and-click groups are for this page only, not for every mail built on a move.
    pos["groups"] = present.groups(loaded.rules, loaded.state, grant.seat, shown)
    # Every button says in words what it does.
    choices = present.described(loaded.rules, loaded.state, grant.seat, shown)
    said = {c["action"]: c["text"] for c in choices}
    wanted = request.args.get("choice")
    confirm = None
    if can_act and wanted:
        confirm = next((c for c in pos["choices"] if c["action"] == wanted), None)
        if confirm is None and wanted in pos["legal"]:
            (confirm,) = present.described(loaded.rules, loaded.state, grant.seat, [wanted])
        if confirm is None:
            extra.setdefault("error", f"{wanted!r} is not one of your choices any more.")
    html = render_template(
        "play.html",
        game=loaded.game,
        players=[s.player for s in loaded.game.seats],
        seat=grant.seat,
        seat_name=loaded.rules.seat_name(loaded.state, grant.seat),
        pos=pos,
        shown=shown,
        stages=stages,
        confirm=confirm,
        said=said,
        # An error already says why the form could not act; only a fresh form adds news.
        notice=NOTICES[state]
        if state in ("stale-awaited", "continuing") or "error" not in extra
        else None,
        form_token=fresh,
        nonce=secrets.token_urlsafe(16),
        **extra,
    )
    return html, status


def expired(token: str, *, sent: bool = False, game: str = "") -> Any:
    """The page of an expired link: a button that mails the seat a fresh one."""
    html = render_template(
        "expired_link.html",
        token=token,
        sent=sent,
        game=game,
        days=services().signer.max_age // 86400,
        minutes=int(FRESH_LINK_EVERY.total_seconds() // 60),
    )
    return html, 200 if sent else ExpiredLink.status


def staged(loaded: Loaded, seat: int, token: str, legal: list[str]) -> dict[str, Any] | None:
    """The seat's choices a question at a time, as links, when there are too many to list."""
    if len(legal) <= STAGED_FROM:
        return None
    picked = {k: v for k, v in request.args.items() if k != "choice"}
    menu = loaded.rules.menu(loaded.state, seat, picked)
    if menu is None:
        return None
    params: dict[str, Any] = {"token": token}
    steps = []
    for key, value, label in menu.picked:
        steps.append({"key": key, "label": label, "href": url_for("play.show", **params)})
        params[key] = value
    answers = []
    if menu.question is not None:
        for value, label, square in menu.question.answers:
            href = url_for("play.show", **(params | {menu.question.key: value}))
            answers.append({"label": label, "href": href, "square": square})
    return {
        "steps": steps,
        "question": menu.question.text if menu.question else None,
        "key": menu.question.key if menu.question else None,
        "answers": answers,
        "actions": menu.actions,
    }


@bp.get("/play/<token>")
def show(token: str) -> Any:
    """The position, the dice, the legal actions and a form; opening it changes nothing."""
    try:
        grant = services().signer.read_move_token(token)
    except ExpiredLink:
        return expired(token)
    with services().db.read() as session:
        return page(session, grant)


@bp.post("/play/<token>")
def act(token: str) -> Any:
    """Submit an action typed in the box or chosen with a button."""
    svc = services()
    try:
        grant = svc.signer.read_move_token(token)
    except ExpiredLink:
        return expired(token)
    text = (request.form.get("choice") or request.form.get("action") or "").strip()
    nonce = request.form.get("nonce") or None
    if not text:
        with svc.db.read() as session:
            return page(
                session, grant, status=422, error="Type a move or press one of the buttons."
            )
    try:
        result = svc.write(lambda session: submit(session, svc.ctx, grant, text, nonce=nonce))
    except Rejected as e:
        with svc.db.read() as session:
            return page(session, grant, status=e.status, error=str(e), typed=text)
    except StaleTurn as e:
        with svc.db.read() as session:
            return page(session, grant, status=e.status, error=str(e))
    flash(result.description)
    fresh = svc.signer.move_token(MoveGrant(grant.game, grant.seat, result.head))
    return redirect(url_for("play.show", token=fresh), code=303)


@bp.post("/play/<token>/resign")
def resign_game(token: str) -> Any:
    """Resign the seat's game (the page asks for confirmation first)."""
    svc = services()
    grant = svc.signer.read_move_token(token)
    if request.form.get("confirm") != "yes":
        with svc.db.read() as session:
            return page(session, grant, status=422, error="Tick the box to confirm resigning.")
    result = svc.write(lambda session: resign(session, svc.ctx, grant))
    flash(result.description)
    fresh = svc.signer.move_token(MoveGrant(grant.game, grant.seat, result.head))
    return redirect(url_for("play.show", token=fresh), code=303)


@bp.post("/play/<token>/fresh")
def fresh_link(token: str) -> Any:
    """Mail the link's seat a fresh link (to the seat's own address only; rate-limited)."""
    svc = services()
    grant = svc.signer.read_move_token(token, any_age=True)
    svc.write(lambda session: mail_fresh_link(session, svc.ctx, grant))
    return expired(token, sent=True, game=grant.game)
