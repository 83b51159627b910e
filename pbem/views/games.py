"""Public pages: the lobby, new games, the spectator view, history, audit and the log export."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from sqlalchemy.orm import Session

import engine

from .. import audit, current_player, listing, present, services, store
from ..errors import NotFound, PbemError, Rejected
from ..models import Player
from ..play import ACTING_KINDS, count_games, games_of, grant_for, load, recent_games, start_game

bp = Blueprint("games", __name__)
MAX_SEATS = 8


@bp.get("/")
def lobby() -> str:
    """The lobby: recent games, and the signed-in player's own."""
    svc = services()
    with svc.db.read() as session:
        player = current_player(session)
        mine = games_of(session, player) if player else []
        return render_template(
            "lobby.html",
            player=player,
            mine=listing.rows(session, svc.signer, mine, player),
            recent=listing.rows(session, svc.signer, recent_games(session), player),
            total=count_games(session),
            games=[engine.rules_for(k) for k in engine.GAMES],
        )


def game_catalogue() -> list[dict[str, Any]]:
    """Each game kind with its seats, presets and options, for the new-game form."""
    return [
        {
            "kind": kind,
            "title": rules.title,
            "seats": list(rules.seats),
            "presets": list(rules.presets),
            "options": rules.options,
        }
        for kind in engine.GAMES
        for rules in [engine.rules_for(kind)]
    ]


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> Any:
    """Choose a game, preset, options and players; creating it mails everyone."""
    svc = services()
    with svc.db.read() as session:
        player = current_player(session)
    if player is None:
        return redirect(url_for("auth.signin", next=request.path))
    kind = request.args.get("kind") or request.form.get("kind") or engine.GAMES[0]
    if request.method == "GET":
        return new_game_form(player, kind, {})
    try:
        public_id = svc.write(lambda session: create_from_form(session, kind, request.form))
    except PbemError as e:
        # The form comes back as it was sent, with the reason: nothing typed is lost.
        return new_game_form(player, kind, request.form, error=str(e)), e.status
    return redirect(url_for("games.show", public_id=public_id))


def new_game_form(player: Player, kind: str, form: Any, error: str | None = None) -> str:
    """The new-game form, filled in with what was sent (if anything)."""
    return render_template(
        "new_game.html",
        catalogue=game_catalogue(),
        kind=kind,
        form=form,
        error=error,
        player=player,
        max_seats=MAX_SEATS,
    )


def create_from_form(session: Session, kind: str, form: Any) -> str:
    """Start the game the new-game form describes; return its public id."""
    try:
        rules = engine.rules_for(kind)
    except engine.UnknownGame as e:
        raise Rejected(str(e)) from e
    players = [
        (form.get(f"email{i}", "").strip(), form.get(f"name{i}", "").strip() or None)
        for i in range(MAX_SEATS)
    ]

    def field(option: str) -> str:
        return f"opt_{kind}_{option}"

    options = {
        o.name: form.get(field(o.name)) if o.kind is not bool else form.get(field(o.name)) == "on"
        for o in rules.options
        if o.kind is bool or form.get(field(o.name), "") != ""
    }
    try:
        deadline = int(form.get("deadline_hours", "72"))
    except ValueError as e:
        raise Rejected("the deadline must be a whole number of hours") from e
    loaded = start_game(
        session,
        services().ctx,
        kind,
        [(email, name) for email, name in players if email],
        options=options,
        preset=form.get(f"preset_{kind}") or None,
        created_by=current_player(session),
        deadline_hours=deadline,
        timeout_policy=form.get("timeout_policy", "bot"),
    )
    return loaded.game.public_id


@bp.get("/games/<public_id>")
def show(public_id: str) -> str:
    """The spectator's view of a game (a signed-in player sees their own seat's view)."""
    with services().db.read() as session:
        loaded = load(session, public_id)
        player = current_player(session)
        seat = next(
            (s.seat for s in loaded.game.seats if player and s.player_id == player.id), None
        )
        play_token = None
        if seat is not None and seat in loaded.awaited():
            play_token = services().signer.move_token(grant_for(loaded, seat))
        return render_template(
            "game.html",
            game=loaded.game,
            players=[s.player for s in loaded.game.seats],
            pos=present.position(loaded.rules, loaded.state, seat),
            commitment=loaded.setup.commitment,
            player=player,
            play_token=play_token,
        )


def full_log(session: Session, public_id: str) -> tuple[Any, list[store.LogEntry]]:
    """A game's loaded state and its whole log."""
    loaded = load(session, public_id)
    return loaded, store.entries(session, loaded.game)


HISTORY_WINDOW = 25  # events listed on each side of the one shown


@bp.get("/games/<public_id>/history")
@bp.get("/games/<public_id>/history/<seq>")
def history(public_id: str, seq: str | None = None) -> str:
    """The board after any event, the events around it in words, and steps back and forth."""
    with services().db.read() as session:
        loaded, log = full_log(session, public_id)
    head = log[-1].seq
    at = head if seq is None else seq_number(seq)
    if not 0 <= at <= head:
        raise NotFound(f"game {public_id} has events 0 to {head}, not {seq}")
    lines, states = present.history(loaded.rules, loaded.setup, log, loaded.state)
    acts = [line["seq"] for line in lines if line["kind"] in ACTING_KINDS]
    return render_template(
        "history.html",
        game=loaded.game,
        lines=lines[max(0, at - HISTORY_WINDOW) : at + HISTORY_WINDOW + 1],
        at=at,
        head=head,
        prev_act=max((s for s in acts if s < at), default=None),
        next_act=min((s for s in acts if s > at), default=None),
        pos=present.position(loaded.rules, states[at], None),
    )


def seq_number(text: str) -> int:
    """An event number from a URL; NotFound with a plain message when it is not one."""
    if not text.isdigit():
        raise NotFound(f"{text!r} is not an event number: history pages are numbered 0, 1, 2…")
    return int(text)


@bp.get("/games/<public_id>/audit")
def audit_page(public_id: str) -> str:
    """The chain, the commitment, the revealed seed and every chance event, checked."""
    with services().db.read() as session:
        loaded, log = full_log(session, public_id)
    game = loaded.game
    header = audit.header_for(game.public_id, game.kind, loaded.setup.rules_version, game.stream)
    report = audit.verify(header, log, (game.head_seq, game.head_hash))
    return render_template("audit.html", game=game, report=report, log=log)


@bp.get("/games/<public_id>/log.jsonl")
def log_export(public_id: str) -> Response:
    """The log as JSON lines, for independent checkers."""
    with services().db.read() as session:
        loaded, log = full_log(session, public_id)
    game = loaded.game
    header = audit.header_for(game.public_id, game.kind, loaded.setup.rules_version, game.stream)
    shown = present.public_log(loaded.rules, loaded.setup, log, loaded.state)
    body = "\n".join(audit.export_lines(header, shown)) + "\n"
    return Response(
        body,
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f'inline; filename="{public_id}.jsonl"'},
    )


@bp.get("/players/<int:player_id>")
def player_page(player_id: int) -> str:
    """A player's public page: their name and games (never their address)."""
    svc = services()
    with svc.db.read() as session:
        player = session.get(Player, player_id)
        if player is None:
            raise NotFound(f"there is no player {player_id}")
        viewer = current_player(session)
        games = listing.rows(session, svc.signer, games_of(session, player), viewer)
        return render_template("player.html", shown=player, games=games)
