"""A tournament's director page: start, preview and pair, and act on players and games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, render_template, request, url_for
from sqlalchemy.orm import Session

from .. import clock
from ..bounds import number, whole
from ..errors import Rejected
from ..play.director import MAX_EXTENSION_HOURS, Director
from ..services import services
from ..tournaments import directing, reports, service
from ..tournaments.log import Held, load
from .helpers import current_player, submitted

bp = Blueprint("tournament_director", __name__, url_prefix="/tournaments")
BYE_POINTS = (-1000.0, 1000.0)  # game points run into the hundreds; a win scores 1


def as_director(session: Session, public_id: str, *, for_update: bool = False
                ) -> tuple[Held, Director]:
    """The tournament and the signed-in player, who must direct it."""
    held = load(session, public_id, for_update=for_update)
    return held, directing.check_director(held, current_player(session))


def act(session: Session, public_id: str, form: Any) -> str:
    """Carry out the action the form names; say what was done."""
    svc, now = services(), clock.utcnow()
    held, who = as_director(session, public_id, for_update=True)
    reason = form.get("reason", "")
    player = form.get("player", "")
    game = form.get("game", "")
    actions: dict[str, Callable[[], Any]] = {
        "start": lambda: service.start(session, svc.ctx, held, now),
        "pair": lambda: directing.pair_now(session, svc.ctx, held, now),
        "withdraw": lambda: directing.withdraw(session, svc.ctx, held, player,
                                               reason or "withdrawn by the director", who),
        "disqualify": lambda: directing.disqualify(session, svc.ctx, held, who, player, reason),
        "replace": lambda: directing.replace(session, svc.ctx, held, who, player,
                                             form.get("email", ""), form.get("name") or None,
                                             reason),
        "forbid": lambda: directing.forbid(session, held, who, player, form.get("other", ""),
                                           reason),
        "bye": lambda: directing.bye(session, held, who, player,
                                     number(form.get("points"), "points", *BYE_POINTS), reason),
        "undo": lambda: directing.undo(session, svc.ctx, held, who, game, reason),
        "annul": lambda: directing.annul(session, held, who, game, reason),
        "close_entries": lambda: directing.close_entries(session, held, who, reason),
        "extend": lambda: directing.extend(session, svc.ctx, held, who,
                                           whole(form.get("hours"), "hours", 1,
                                                 MAX_EXTENSION_HOURS), reason, game=game),
    }
    what = form.get("action", "")
    if what not in actions:
        raise Rejected(f"unknown action {what!r}")
    actions[what]()
    return f"Done: {what}."


@bp.route("/<public_id>/director", methods=["GET", "POST"])
def page(public_id: str) -> Any:
    """The director's forms (GET), or one action (POST) and back to the page."""
    done, error = submitted(lambda s: act(s, public_id, request.form),
                            url_for("tournament_director.page", public_id=public_id))
    if done is not None:
        return done
    with services().db.read() as session:
        held, _ = as_director(session, public_id)
        now = clock.utcnow()
        plan = directing.preview(session, held, now)
        return render_template(
            "tournaments/director.html", held=held, t=held.state, error=error,
            preview=reports.plan_lines(held, plan) if plan else None,
            why=None if plan else directing.why_nothing_is_due(held, now),
            names={e.player: e.name for e in held.state.entrants},
        ), (422 if error else 200)
