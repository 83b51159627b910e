"""The tournaments' JSON API: list, one event, standings, results, games; create, enter, direct."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify
from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock
from ..errors import Forbidden, NotYet, Rejected
from ..models import Player, Tournament
from ..play.director import Director
from ..play.start import normalize_email
from ..ratings.current import entry_record
from ..services import services
from ..tournaments import boards, directing, reports, service
from ..tournaments.core import formats
from ..tournaments.core.export import results, standings_rows
from ..tournaments.log import Held, load
from . import tournament_director
from .api import api_player, body


def as_director(session: Session, public_id: str) -> tuple[Held, Director]:
    """The event, and the player the token names, who must direct it."""
    held = load(session, public_id, for_update=True)
    return held, directing.check_director(held, api_player(session))

bp = Blueprint("tournament_api", __name__, url_prefix="/api/tournaments")


def summary(held: Held) -> dict[str, Any]:
    """What a list or a home page says of an event."""
    t, now = held.state, clock.utcnow()
    end = formats.forecast_end(t, now)
    return {
        "id": held.public_id, "name": held.row.name, "kind": held.row.kind,
        "system": held.row.system, "status": held.row.status,
        "format": reports.describe(held), "entrants": len(t.entrants),
        "games": len(t.tables), "next_pairing": reports.next_pairing(held, now),
        "forecast_end": end.isoformat() if end else None,
        "description": t.config.description, "entries": reports.entry_rules(held, now),
        "entries_open": service.entries_closed(t, now) is None,
    }


@bp.get("")
def index() -> Any:
    """Every tournament."""
    with services().db.read() as session:
        ids = list(session.scalars(select(Tournament.public_id)
                                   .order_by(Tournament.created_at.desc())))
        return jsonify([summary(load(session, i)) for i in ids])


@bp.post("")
def create() -> Any:
    """Create an event: the same fields as the new-tournament form, as JSON."""
    svc, data = services(), body()

    def work(session: Session) -> dict[str, Any]:
        return summary(service.create(session, api_player(session), data))

    return jsonify(svc.write(work)), 201


@bp.get("/<public_id>")
def show(public_id: str) -> Any:
    """One event with its standings."""
    with services().db.read() as session:
        held = load(session, public_id)
        return jsonify({**summary(held), "standings": standings_rows(held.standings)})


@bp.get("/<public_id>/results")
def results_json(public_id: str) -> Any:
    """The results export: enough to recompute the standings and check the pairings."""
    with services().db.read() as session:
        held = load(session, public_id)
        return jsonify(results(held.state, held.public_id, held.standings))


@bp.post("/<public_id>/register")
def register(public_id: str) -> Any:
    """Enter the player the API token (or browser session) names."""
    svc = services()

    def work(session: Session) -> dict[str, Any]:
        held = load(session, public_id, for_update=True)
        player = api_player(session)
        held = service.register(session, held, player,
                                *entry_record(session, player.id, held.row.kind), ctx=svc.ctx)
        return {"registered": str(player.id), "entrants": len(held.state.entrants)}

    return jsonify(svc.write(work)), 201


@bp.get("/<public_id>/games")
def games(public_id: str) -> Any:
    """Every game of the event with its round, seats and result."""
    with services().db.read() as session:
        held = load(session, public_id)
        return jsonify(results(held.state, held.public_id, held.standings)["games"])


@bp.get("/<public_id>/boards/<int:number>")
def board(public_id: str, number: int) -> Any:
    """A duplicate round's board, once every table of the round has finished."""
    with services().db.read() as session:
        held = load(session, public_id)
        laid = boards.round_board(session, held, number)
        if laid.board is None:
            raise NotYet(
                f"round {number} of {held.row.name}: its {laid.count} tables are not all "
                "finished; the board is shown when every table has finished"
            )
        return jsonify({"tournament": held.public_id, "round": number,
                        **boards.board_json(laid.board)})


@bp.get("/<public_id>/messages")
def messages(public_id: str) -> Any:
    """The director's messages to the entrants, oldest first."""
    with services().db.read() as session:
        held = load(session, public_id)
        return jsonify([{"at": m.at.isoformat(), "by": m.by, "subject": m.subject,
                         "text": m.text} for m in held.state.messages])


@bp.post("/<public_id>/messages")
def send_message(public_id: str) -> Any:
    """A director mails every entrant: {subject, text}."""
    svc, data = services(), body()

    def work(session: Session) -> dict[str, Any]:
        held, who = as_director(session, public_id)
        held = directing.message(session, svc.ctx, held, who, str(data.get("subject") or ""),
                                 str(data.get("text") or ""))
        return {"messages": len(held.state.messages)}

    return jsonify(svc.write(work)), 201


@bp.post("/<public_id>/directors")
def add_director(public_id: str) -> Any:
    """The lead director adds a co-director, or hands over: {email, name, reason, hand_over}."""
    svc, data = services(), body()

    def work(session: Session) -> dict[str, Any]:
        held, who = as_director(session, public_id)
        if not directing.leads(held, api_player(session)):
            raise Forbidden(f"only the lead director of {held.row.name} adds directors")
        held = directing.add_director(session, svc.ctx, held, who, str(data.get("email") or ""),
                                      data.get("name") or None, str(data.get("reason") or ""),
                                      hand_over=data.get("hand_over") is True)
        return {"directors": list(held.state.directors)}

    return jsonify(svc.write(work)), 201


class Fields:
    """A JSON body read the way the director page reads its form: each field as text (true is
    the ticked box "yes"), and a list where the form repeats a field (`rank`)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def get(self, key: str, default: str = "") -> str:
        value = self.data.get(key)
        if value is None:
            return default
        if isinstance(value, (list, dict)):
            raise Rejected(f"{key} must be a single value")
        return "yes" if value is True else str(value)

    def getlist(self, key: str) -> list[str]:
        value = self.data.get(key, [])
        return [str(v) for v in (value if isinstance(value, list) else [value])]


def by_address(session: Session, held: Held, data: dict[str, Any]) -> dict[str, Any]:
    """The body with `player` and `other` given by address turned into the entrants' ids."""
    out = dict(data)
    for key in ("player", "other"):
        value = data.get(key)
        if isinstance(value, str) and "@" in value:
            found = session.scalars(select(Player).where(
                Player.email == normalize_email(value))).first()
            if found is None or all(e.player != str(found.id) for e in held.state.entrants):
                raise Rejected(f"{value} has not entered {held.row.name}")
            out[key] = str(found.id)
    return out


@bp.post("/<public_id>/actions")
def director_action(public_id: str) -> Any:
    """One director action, exactly as on the director page: {action, reason, and the
    action's fields} (players by id or address; `confirm: true` where the page asks for the
    ticked box)."""
    svc, data = services(), body()

    def work(session: Session) -> dict[str, Any]:
        fields = Fields(by_address(session, load(session, public_id), data))
        said = tournament_director.act(session, public_id, fields, player_of=api_player)
        held = load(session, public_id)
        return {"done": said, "status": held.row.status, "events": held.row.head_seq + 1}

    return jsonify(svc.write(work)), 200
