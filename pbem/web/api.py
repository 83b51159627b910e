"""The JSON API for bots and other clients: same rules and errors as the pages."""

from __future__ import annotations

import hmac
from typing import Any

from flask import Blueprint, jsonify, request
from sqlalchemy.orm import Session

from .. import present
from ..bounds import non_finite, shown, whole
from ..errors import Forbidden, NotFound, PbemError, Rejected
from ..inbox import route
from ..log import store
from ..log.games import Loaded, load
from ..models import Player
from ..play.act import Submitted, check_grant, grant_state, submit
from ..play.start import MAX_DEADLINE_HOURS, start_game
from ..services import services
from ..text import json_storable
from .helpers import bearer_player, check_open, current_player

bp = Blueprint("api", __name__, url_prefix="/api")


def api_player(session: Session) -> Player:
    """The player named by a Bearer token, or the signed-in browser session."""
    player = bearer_player(session)
    if player is not None:
        return player
    player = current_player(session)
    if player is None:
        raise Forbidden("send 'Authorization: Bearer <token>' (make a token at /me)")
    return player


def body() -> dict[str, Any]:
    """The request's JSON object; a 400 if the body is not one, or not text we can keep."""
    try:
        data = request.get_json(silent=True)
    except RecursionError as e:
        raise PbemError("the request body nests too deeply to be read") from e
    if not isinstance(data, dict):
        raise PbemError("the request body must be a JSON object (Content-Type: application/json)")
    if not json_storable(data):
        raise PbemError("the request body has text that is not valid Unicode (a lone surrogate)")
    where = non_finite(data)
    if where is not None:
        raise PbemError(f"{shown(where)} is NaN, Infinity or too large a number (such as 1e400):"
                        " give a finite number")
    return data


def whole_hours(value: object) -> int:
    """A deadline from JSON: a whole number of hours, as a number or as its digits."""
    return whole(value, "deadline_hours", 1, MAX_DEADLINE_HOURS)


def game_json(loaded: Loaded) -> dict[str, Any]:
    """The spectator view of a game plus what it waits for."""
    game = loaded.game
    return {
        "id": game.public_id,
        "kind": game.kind,
        "status": game.status,
        "head": {"seq": game.head_seq, "hash": game.head_hash},
        "players": [s.player.name for s in game.seats],
        "commitment": loaded.setup.commitment,
        "position": present.of_game(loaded, None),
    }


@bp.post("/games")
def create() -> Any:
    """Create a game: {"kind", "players": [email or {"email", "name"}], "preset", "options"}."""
    svc = services()
    with svc.db.read() as session:
        api_player(session)  # who asks comes first: a stranger learns nothing about the body
    data = body()
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        raise Rejected("'players' must be a list of email addresses")
    for p in raw_players:
        name = p.get("name") if isinstance(p, dict) else None
        if not isinstance(p, str | dict) or not isinstance(name, str | None):
            raise Rejected(f"player {p!r} must be an email, or {{'email': ..., 'name': text}}")
    players = [
        (p, None) if isinstance(p, str) else (str(p.get("email", "")), p.get("name"))
        for p in raw_players
    ]
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise Rejected("'options' must be an object")
    if not isinstance(data.get("preset"), str | None):
        raise Rejected("'preset' must be the name of a preset")

    def create_game(session: Session) -> dict[str, Any]:
        creator = api_player(session)
        loaded = start_game(
            session,
            svc.ctx,
            str(data.get("kind", "")),
            players,
            options=options,
            preset=data.get("preset"),
            created_by=creator,
            deadline_hours=whole_hours(data.get("deadline_hours", 72)),
            timeout_policy=str(data.get("timeout_policy", "bot")),
        )
        return {
            "id": loaded.game.public_id,
            "url": f"{svc.settings.base_url}/games/{loaded.game.public_id}",
        }

    return jsonify(svc.write(create_game)), 201


@bp.post("/inbound-mail")
def inbound_mail() -> Any:
    """Take in a mail posted raw (message/rfc822) by an MTA or a mail service's webhook."""
    svc = services()
    expected = svc.settings.inbound_token
    if not expected:
        raise NotFound("inbound mail over HTTP is off (set PBEM_INBOUND_TOKEN to turn it on)")
    sent = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not hmac.compare_digest(sent, expected):
        raise Forbidden("that inbound-mail token is not valid")
    raw = request.get_data()
    result = svc.write(lambda s: route.receive(s, svc.ctx, raw, "http"))
    return jsonify(kind=result.kind, status=result.status, message=result.message)


@bp.get("/games/<public_id>")
def show(public_id: str) -> Any:
    """The spectator view of a game."""
    with services().db.read() as session:
        loaded = load(session, public_id)
        check_open(session, loaded.game)
        return jsonify(game_json(loaded))


@bp.get("/games/<public_id>/log")
def log(public_id: str) -> Any:
    """Every event of a game, with hashes."""
    with services().db.read() as session:
        loaded = load(session, public_id)
        check_open(session, loaded.game)
        log = present.public_log(
            loaded.rules,
            loaded.setup,
            store.entries(session, loaded.game),
            loaded.state,
        )
        return jsonify([e.to_json() for e in log])


def with_words() -> bool:
    """Whether the seat view says each choice in words: `?words=0` leaves the sentences out."""
    words = request.args.get("words", "1")
    if words not in ("0", "1"):
        raise PbemError(f"'words' must be 0 (actions only) or 1 (with sentences), not {words!r}")
    return words == "1"


@bp.get("/play/<token>")
def seat(token: str) -> Any:
    """What a move token's seat sees now: its view, whether it may act, its choices (in words)."""
    svc = services()
    grant = svc.signer.read_move_token(token)
    words = with_words()
    with svc.db.read() as session:
        loaded = load(session, grant.game)
        check_grant(session, loaded, grant)
        status = grant_state(session, loaded, grant)
        can_act = status in ("current", "stale-awaited")
        rules, state = loaded.rules, loaded.state
        legal = rules.legal(state, grant.seat) if grant.seat in loaded.awaited() else ()
        choices = (
            present.described(rules, state, grant.seat, legal)
            if words
            else [{"action": a} for a in legal]
        )
        return jsonify(
            seat=grant.seat,
            seat_name=rules.seat_name(state, grant.seat),
            link=status,
            your_turn=can_act,
            # A token for the head, so that a bot acts with a current grant.
            token=svc.signer.move_token(loaded.grant(grant.seat)) if can_act else None,
            choices=choices,
            game=game_json(loaded),
            view=rules.view(state, grant.seat),
        )


@bp.post("/play/<token>")
def play(token: str) -> Any:
    """Act with a move token: {"action": "..."}."""
    svc = services()
    grant = svc.signer.read_move_token(token)
    data = body()
    action = data.get("action")
    if not isinstance(action, str) or not action.strip():
        raise PbemError('the body must be {"action": "<the move as text>"}')
    nonce = data.get("nonce") if isinstance(data.get("nonce"), str) else None

    def play_move(session: Session) -> tuple[Submitted, dict[str, Any]]:
        result = submit(session, svc.ctx, grant, action, nonce=nonce)
        # The game as the move left it, read in the same transaction.
        return result, game_json(result.loaded or load(session, grant.game))

    result, state = svc.write(play_move)
    fresh = svc.signer.move_token(type(grant)(grant.game, grant.seat, result.head))
    return jsonify(played=result.description, replayed=result.replayed, token=fresh, game=state)
