"""The director's page of a game: adjudicate, abort, extend the deadline, replace a player.

A casual game is directed by its creator; a tournament game by its event's director, whose
actions on it go through the event (so that its log says what happened too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, render_template, request, url_for
from sqlalchemy.orm import Session

from .. import present
from ..bounds import MAX_SEATS, numbers, whole, wholes
from ..errors import Forbidden, Rejected
from ..log.games import Loaded, load
from ..models import Player
from ..play import director as actions
from ..services import services
from ..tournaments import directing as events
from .helpers import current_player, submitted

bp = Blueprint("director", __name__)


def may_direct(session: Session, loaded: Loaded, player: Player | None) -> bool:
    """Whether a player directs a game: its event's director, or a casual game's creator."""
    held = events.event_of(session, loaded.game)
    if held is not None:
        return events.may_direct(held, player)
    return actions.may_direct(loaded.game, player)


def directing(session: Session, public_id: str) -> tuple[Loaded, Player]:
    """The game and the signed-in player, who must direct it."""
    loaded = load(session, public_id)
    player = current_player(session)
    if not may_direct(session, loaded, player):
        held = events.event_of(session, loaded.game)
        whose = f"the event {held.row.name}" if held else f"game {public_id}"
        raise Forbidden(f"only the director of {whose} may do this: sign in as them")
    assert player is not None
    return loaded, player


def act(session: Session, public_id: str, form: Any) -> str:
    """Carry out the action the form names; say what was done."""
    loaded, player = directing(session, public_id)
    ctx, who, reason = services().ctx, actions.Director.of(player), form.get("reason", "")
    seats = len(loaded.game.seats)
    what = form.get("action", "")
    work: dict[str, Callable[[], Any]] = {
        "adjudicate": lambda: actions.adjudicate(
            session, ctx, public_id, who, reason,
            wholes(form.get("ranks", ""), "each rank", 1, MAX_SEATS),
            numbers(form.get("scores", ""), "each score", *actions.SCORES) or None,
        ),
        "abort": lambda: actions.abort(session, ctx, public_id, who, reason),
        "extend": lambda: events.extend_game(
            session, ctx, public_id, who,
            whole(form.get("hours"), "hours", 1, actions.MAX_EXTENSION_HOURS), reason,
        ),
        "replace": lambda: events.replace_seat(
            session, ctx, public_id, who, whole(form.get("seat"), "seat", 0, seats - 1),
            form.get("email", ""), form.get("name") or None, reason,
        ),
    }
    if what not in work:
        raise Rejected(f"unknown director action {what!r}")
    try:
        work[what]()
    except (ValueError, IndexError) as e:
        raise Rejected(f"fill in every field of the {what} form") from e
    return {"adjudicate": "Adjudicated.", "abort": "Aborted.", "extend": "Deadline extended.",
            "replace": "Player replaced."}[what]


@bp.route("/games/<public_id>/director", methods=["GET", "POST"])
def page(public_id: str) -> Any:
    """The forms (GET), or one action (POST) followed by the game's page."""
    done, error = submitted(lambda s: act(s, public_id, request.form),
                            url_for("games.show", public_id=public_id))
    if done is not None:
        return done
    with services().db.read() as session:
        loaded, _ = directing(session, public_id)
        return render_template(
            "director.html",
            game=loaded.game,
            players=[s.player for s in loaded.game.seats],
            pos=present.of_game(loaded, None),
            form=request.form,
            error=error,
        ), (422 if error else 200)

