"""Public pages: the lobby, new games, the spectator view and players' pages."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from sqlalchemy.orm import Session

import engine

from .. import present
from ..bounds import MAX_SEATS, is_row_id, whole
from ..errors import NotFound, PbemError, Rejected
from ..log.games import Loaded, count_games, directed, games_of, load, recent_games
from ..models import Player
from ..play.start import MAX_DEADLINE_HOURS, start_game, start_mirror
from ..services import services
from ..tournaments.labels import label_of
from . import bounced, listing
from .director import may_direct
from .helpers import check_open, current_player
from .luck import game_luck, player_luck
from .ratings import player_ratings
from .rules import game_rulings

bp = Blueprint("games", __name__)


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
            "mirror": rules.mirror and 2 in rules.seats,
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
        public_id, invited = svc.write(
            lambda session: create_from_form(session, kind, request.form)
        )
    except PbemError as e:
        # The form comes back as it was sent, with the reason: nothing typed is lost.
        return new_game_form(player, kind, request.form, error=str(e)), e.status
    flash(invited)
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


def create_from_form(session: Session, kind: str, form: Any) -> tuple[str, str]:
    """Start the game the new-game form describes; return its public id and who was mailed."""
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
    deadline = whole(form.get("deadline_hours", "72"), "the deadline in hours", 1,
                     MAX_DEADLINE_HOURS)
    seated = [(email, name) for email, name in players if email]
    settings: dict[str, Any] = {
        "options": options,
        "preset": form.get(f"preset_{kind}") or None,
        "created_by": current_player(session),
        "deadline_hours": deadline,
        "timeout_policy": form.get("timeout_policy", "bot"),
    }
    if form.get(f"mirror_{kind}") != "on":
        loaded = start_game(session, services().ctx, kind, seated, **settings)
        return loaded.game.public_id, invitations_sent(loaded)
    if not rules.mirror:
        offered = [r.title for r in map(engine.rules_for, engine.GAMES) if r.mirror]
        raise Rejected(f"a mirror match is offered for {', '.join(offered)}, not {rules.title}")
    first, second = start_mirror(session, services().ctx, kind, seated, **settings)
    said = (
        f"A mirror match: this game and game {second.game.public_id}, the seats swapped,"
        " roll the same dice for the same seat and turn. "
    )
    return first.game.public_id, said + invitations_sent(first)


def invitations_sent(loaded: Loaded) -> str:
    """Say, by display name and seat, who was mailed an invitation and who was not."""
    seats = [(s.player, loaded.rules.seat_name(loaded.state, s.seat)) for s in loaded.game.seats]
    mailed = [f"{p.name} ({seat})" for p, seat in seats if p.mail_pref != "none"]
    unmailed = [f"{p.name} ({seat})" for p, seat in seats if p.mail_pref == "none"]
    said = "The game is created. "
    said += f"Invitations were mailed to {', '.join(mailed)}." if mailed else "Nobody was mailed."
    if unmailed:
        said += f" No mail for {', '.join(unmailed)}: they turned game mail off."
    return said


@bp.get("/games/<public_id>")
def show(public_id: str) -> str:
    """The spectator's view of a game (a signed-in player sees their own seat's view)."""
    with services().db.read() as session:
        loaded = load(session, public_id)
        check_open(session, loaded.game)
        player = current_player(session)
        seat = next(
            (s.seat for s in loaded.game.seats if player and s.player_id == player.id), None
        )
        play_token = None
        if seat is not None and seat in loaded.awaited():
            play_token = services().signer.move_token(loaded.grant(seat))
        seated = seat is not None
        directs_game = may_direct(session, loaded, player)  # co-directors too
        return render_template(
            "game.html",
            bounced=bounced.notices(
                [s.player for s in loaded.game.seats], player, may_see=seated or directs_game
            ),
            game=loaded.game,
            event=label_of(session, services().ctx, loaded.game),
            players=[s.player for s in loaded.game.seats],
            pos=present.of_game(loaded, seat),
            options=present.options_played(loaded.rules, loaded.setup.options),
            rulings=game_rulings(loaded.game.kind),
            commitment=loaded.setup.commitment,
            player=player,
            play_token=play_token,
            directs=directs_game,
            directed=[
                present.sentence(loaded.rules, loaded.state, entry, loaded.setup)
                for entry in directed(session, loaded.game)
            ],
            luck=game_luck(session, loaded),
            luck_explained=loaded.rules.luck.explain if loaded.rules.luck else None,
        )


@bp.get("/players/<int:player_id>")
def player_page(player_id: int) -> str:
    """A player's public page: their name and games (never their address)."""
    svc = services()
    if not is_row_id(player_id):
        raise NotFound(f"there is no player {player_id}")
    with svc.db.read() as session:
        player = session.get(Player, player_id)
        if player is None:
            raise NotFound(f"there is no player {player_id}")
        viewer = current_player(session)
        games = listing.rows(session, svc.signer, games_of(session, player), viewer)
        luck = player_luck(session, player)
        # How the games played measure a roll, in their luck models' words: games alike together.
        explained: dict[str, list[str]] = {}
        for kind in dict.fromkeys(row["kind"] for row in luck):
            rules = engine.rules_for(kind)
            if rules.luck is not None:
                explained.setdefault(rules.luck.explain, []).append(rules.title)
        return render_template("player.html", shown=player, games=games,
                               rated=player_ratings(session, player),
                               luck=luck, luck_explained=explained)
