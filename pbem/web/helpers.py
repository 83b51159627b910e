"""What every view needs: the signed-in player, the form's CSRF token, refusing NUL text."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any

from flask import flash, g, redirect, request, session
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..errors import Forbidden, PbemError, Rejected, SharedDice
from ..log.games import dice_held
from ..models import Game, Player
from ..services import services


def submitted(work: Callable[[Session], str], target: str) -> tuple[Any, str | None]:
    """On a form POST, do the work in a transaction and flash what it says.

    Return the redirect to `target` when it was done, or the reason it was refused (the
    page then shows its forms again with the reason); (None, None) for a GET.
    """
    if request.method != "POST":
        return None, None
    try:
        flash(services().write(work))
    except Rejected as e:
        return None, str(e)
    return redirect(target, code=303), None


def current_player(session_: Session) -> Player | None:
    """The signed-in player, if any: a session from before they last signed out is none."""
    player_id = session.get("player_id")
    player = session_.get(Player, player_id) if player_id else None
    if player is None or session.get("generation") != player.session_generation:
        return None
    return player


def bearer_player(session_: Session) -> Player | None:
    """The player named by an 'Authorization: Bearer' API token; None when none is sent."""
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return None
    digest = hashlib.sha256(header.removeprefix("Bearer ").strip().encode()).hexdigest()
    player = session_.scalars(select(Player).where(Player.api_token_hash == digest)).first()
    if player is None:
        raise Forbidden("that API token is not valid")
    return player


SHARED_DICE = (
    "game {game} shares its dice with other tables; its log and position open when every "
    "table has finished"
)


def is_seated(session_: Session, game: Game) -> bool:
    """Whether a player of the game asks: signed in, by API token, or with its move link."""
    # A move link of any age: reading a game the player sits in needs no fresh turn.
    seated = {s.player_id for s in game.seats}
    if request.path.startswith("/api/") and request.headers.get("Authorization"):
        player = bearer_player(session_)
    else:
        player = current_player(session_)
    if player is not None and player.id in seated:
        return True
    token = request.args.get("token")
    if token:
        try:
            grant = services().signer.read_move_token(token, any_age=True)
        except PbemError:
            return False
        if grant.game == game.public_id and grant.seat < len(game.seats):
            keep_token(token)
            return True
    return False


def keep_token(token: str) -> None:
    """Carry a player's move link on this page's links to the game's other pages."""
    g.seat_token = token


def seat_token() -> str | None:
    """The move link this page's links to the game carry, if its dice are held."""
    token = g.get("seat_token")
    return str(token) if token else None


def check_open(session_: Session, game: Game) -> None:
    """Refuse anyone but the game's players while its dice are another table's to come."""
    if dice_held(session_, game) and not is_seated(session_, game):
        raise SharedDice(SHARED_DICE.format(game=game.public_id))


def csrf_token() -> str:
    """The form token of this browser session, created on first use."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return str(session["csrf"])


def check_csrf() -> None:
    """Refuse a form POST whose CSRF token does not match the session's."""
    if request.method != "POST" or request.path.startswith("/api/"):
        return  # the JSON API authenticates with a bearer token, not a browser cookie
    if request.endpoint in ("auth.unsubscribe_one_click",):
        return
    sent = request.form.get("csrf", "")
    if not sent or not secrets.compare_digest(sent, session.get("csrf", "")):
        raise Forbidden(
            "this form has expired or came from another site; reload the page and try again"
        )


def refuse_nul() -> None:
    """Refuse text with NUL characters: PostgreSQL can neither store nor compare it (a 500)."""
    texts = [request.path]
    texts += [v for _, values in request.args.lists() for v in values]
    texts += [v for _, values in request.form.lists() for v in values]
    if request.is_json:
        texts.append(request.get_data(as_text=True).replace("\\u0000", "\x00"))
    if any("\x00" in text for text in texts):
        raise PbemError("the request contains a NUL character, which no form or link sends")
