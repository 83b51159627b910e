"""A tournament's director page: the event at a glance, each action next to what it acts on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, render_template, request, url_for
from sqlalchemy.orm import Session

from .. import clock
from ..bounds import MAX_SEATS, number, whole
from ..errors import Forbidden, Rejected
from ..models import Player
from ..play.director import MAX_EXTENSION_HOURS, Director
from ..services import services
from ..tournaments import dashboard, directing, service
from ..tournaments.log import Held, load
from .helpers import current_player, submitted

bp = Blueprint("tournament_director", __name__, url_prefix="/tournaments")
# What cannot be taken back asks for a ticked box, on the page and here.
CONFIRMED = {
    "withdraw": "withdraw a player", "disqualify": "disqualify a player",
    "replace": "replace a player", "undo": "take back a pairing", "annul": "annul a game",
    "adjudicate": "adjudicate a game", "hand-over": "hand the event over",
    "start-round": "start the next round before this one is over",
}



PlayerOf = Callable[[Session], Player | None]


def as_director(session: Session, public_id: str, *, for_update: bool = False,
                player_of: PlayerOf = current_player) -> tuple[Held, Director]:
    """The tournament and the signed-in player, who must direct it."""
    held = load(session, public_id, for_update=for_update)
    return held, directing.check_director(held, player_of(session))


def act(session: Session, public_id: str, form: Any,
        player_of: PlayerOf = current_player) -> str:
    """Carry out the action the form names; say what was done. `form` is the page's form, or
    the API's JSON body read the same way; `player_of` says who is asking (signed-in player,
    or the API token's)."""
    svc, now = services(), clock.utcnow()
    held, who = as_director(session, public_id, for_update=True, player_of=player_of)
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
        "bye": lambda: directing.bye(
            session, svc.ctx, held, who, player,
            number(form.get("points"), "points", *directing.BYE_POINTS), reason),
        "undo": lambda: directing.undo(session, svc.ctx, held, who, game, reason),
        "annul": lambda: directing.annul(session, held, who, game, reason),
        "adjudicate": lambda: directing.adjudicate(
            session, svc.ctx, held, who, game,
            [whole(r, "a place", 1, MAX_SEATS) for r in form.getlist("rank")], None, reason),
        "invite": lambda: directing.invite(session, svc.ctx, held, who,
                                           form.get("addresses", "")),
        "message": lambda: directing.message(session, svc.ctx, held, who, form.get("subject", ""),
                                             form.get("text", "")),
        "add-director": lambda: lead_only(held, player_of(session)) and directing.add_director(
            session, svc.ctx, held, who, form.get("email", ""), form.get("name") or None,
            reason),
        "hand-over": lambda: lead_only(held, player_of(session)) and directing.add_director(
            session, svc.ctx, held, who, form.get("email", ""), form.get("name") or None,
            reason, hand_over=True),
        "close_entries": lambda: directing.close_entries(session, held, who, reason),
        "start-round": lambda: directing.start_round(session, svc.ctx, held, who,
                                                     form.get("unfinished", ""), reason),
        "extend": lambda: directing.extend(session, svc.ctx, held, who,
                                           whole(form.get("hours"), "hours", 1,
                                                 MAX_EXTENSION_HOURS), reason, game=game),
    }
    what = form.get("action", "")
    if what not in actions:
        raise Rejected(f"unknown action {what!r}: the actions are {', '.join(sorted(actions))}")
    if what in CONFIRMED and form.get("confirm") != "yes":
        raise Rejected(f"tick the box to confirm that you {CONFIRMED[what]}")
    done = actions[what]()
    if what == "invite":
        return f"Registration links mailed to {', '.join(done)}."
    if what == "message":
        return "Your message is mailed to every entrant and kept on the event's page."
    if what == "start-round":
        return f"Round {done.state.last_round()} is started."
    if what == "hand-over":
        return f"{held.row.name} is handed over: you no longer direct it."
    return f"Done: {what.replace('-', ' ')}."


def lead_only(held: Held, player: Player | None) -> bool:
    """Go on only for the lead director: a co-director may not add directors or hand over."""
    if not directing.leads(held, player):
        raise Forbidden(f"only the lead director of {held.row.name} adds directors or hands over")
    return True


@bp.route("/<public_id>/director", methods=["GET", "POST"])
def page(public_id: str) -> Any:
    """The director's dashboard (GET), or one action (POST) and back to the page."""
    back = "tournaments.home" if request.form.get("action") == "hand-over" else \
        "tournament_director.page"
    done, error = submitted(lambda s: act(s, public_id, request.form),
                            url_for(back, public_id=public_id))
    if done is not None:
        return done
    with services().db.read() as session:
        held, _ = as_director(session, public_id)
        return render_template(
            "tournaments/director.html", held=held, t=held.state, error=error,
            lead=directing.leads(held, current_player(session)),
            d=dashboard.build(session, held, clock.utcnow()),
        ), (422 if error else 200)
