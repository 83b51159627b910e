"""Sign-in by mailed link, mail preferences, personal API tokens and unsubscribing."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, session, url_for

from .. import current_player, listing, services
from ..errors import Forbidden, NotFound, Rejected
from ..mail import queue_signin
from ..models import Player
from ..play import games_of, player_for

bp = Blueprint("auth", __name__)
MAIL_PREFS = {"turn": "every turn", "digest": "a daily digest", "none": "no mail"}


def safe_next(target: str | None) -> str:
    """A local path to go to after signing in; never another site."""
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("games.lobby")


@bp.route("/signin", methods=["GET", "POST"])
def signin() -> Any:
    """Ask for an address and mail it a sign-in link."""
    svc = services()
    next_path = safe_next(request.values.get("next"))
    if request.method == "GET":
        return render_template(
            "signin.html", next=next_path, debug_mail=svc.settings.smtp_url is None
        )
    email = request.form.get("email", "")
    svc.write(lambda s: queue_signin(s, svc.ctx, player_for(s, email), next_path))
    return render_template(
        "signin_sent.html", email=email.strip().lower(), debug_mail=svc.settings.smtp_url is None
    )


@bp.route("/signin/<token>", methods=["GET", "POST"])
def signin_link(token: str) -> Any:
    """GET shows a button (mail scanners open links); POST signs in."""
    svc = services()
    player_id = svc.signer.read_signin_token(token)
    with svc.db.read() as s:
        player = s.get(Player, player_id)
        if player is None:
            raise NotFound("this sign-in link is for a player who no longer exists")
    if request.method != "POST":  # HEAD too: link scanners must never sign anyone in
        return render_template(
            "signin_confirm.html",
            player=player,
            token=token,
            next=safe_next(request.args.get("next")),
        )
    session.clear()
    session["player_id"] = player.id
    flash(f"Signed in as {player.email}.")
    return redirect(safe_next(request.form.get("next")), code=303)


@bp.post("/signout")
def signout() -> Any:
    """Forget the signed-in player."""
    session.clear()
    return redirect(url_for("games.lobby"), code=303)


@bp.route("/me", methods=["GET", "POST"])
def me() -> Any:
    """The signed-in player's games, mail preference and API token."""
    svc = services()
    new_token = None
    if request.method == "POST":
        new_token = svc.write(lambda s: update_me(s, request.form))
        if new_token is None:
            flash("Saved.")
            return redirect(url_for("auth.me"), code=303)
    with svc.db.read() as s:
        player = current_player(s)
        if player is None:
            return redirect(url_for("auth.signin", next=request.path))
        return render_template(
            "me.html",
            player=player,
            games=listing.rows(s, svc.signer, games_of(s, player), player),
            prefs=MAIL_PREFS,
            new_token=new_token,
            one_day=timedelta(days=1),
        )


def update_me(s: Any, form: Any) -> str | None:
    """Apply the settings form; return a new API token when one was asked for."""
    player = current_player(s)
    if player is None:
        raise Forbidden("sign in first")
    if form.get("what") == "away":
        set_away(player, form.get("away_from", ""), form.get("away_until", ""))
        return None
    if form.get("what") == "token":
        token = "pbem_" + secrets.token_urlsafe(32)
        player.api_token_hash = hashlib.sha256(token.encode()).hexdigest()
        return token
    pref = form.get("mail_pref", "")
    if pref not in MAIL_PREFS:
        raise Rejected(f"mail preference {pref!r} is not one of {', '.join(MAIL_PREFS)}")
    player.mail_pref = pref
    name = form.get("name", "").strip()
    if name:
        player.name = name[:100]
    return None


MAX_AWAY = timedelta(days=30)


def set_away(player: Player, first: str, last: str) -> None:
    """Set (or, with both dates empty, clear) a vacation from one day to another, inclusive."""
    if not first.strip() and not last.strip():
        player.away_from = player.away_until = None
        return
    try:
        start = datetime.fromisoformat(first.strip()).replace(tzinfo=UTC)
        end = datetime.fromisoformat(last.strip()).replace(tzinfo=UTC) + timedelta(days=1)
    except ValueError as e:
        raise Rejected(f"give the dates as YYYY-MM-DD, not {first!r} and {last!r}") from e
    if end <= start:
        raise Rejected("the last day away must not be before the first")
    if end - start > MAX_AWAY:
        raise Rejected(f"a vacation may last at most {MAX_AWAY.days} days")
    if end <= datetime.now(UTC):
        raise Rejected("that vacation is over already")
    player.away_from, player.away_until = start, end


@bp.get("/unsubscribe/<token>")
def unsubscribe(token: str) -> Any:
    """Offer to stop all game mail (a GET never changes anything)."""
    svc = services()
    player_id = svc.signer.read_unsubscribe_token(token)
    with svc.db.read() as s:
        player = s.get(Player, player_id)
        if player is None:
            raise NotFound("no such player")
        return render_template("unsubscribe.html", player=player, token=token, done=False)


@bp.post("/unsubscribe/<token>")
def unsubscribe_one_click(token: str) -> Any:
    """Stop all game mail: the button, or a mail client's RFC 8058 one-click POST."""
    svc = services()
    player_id = svc.signer.read_unsubscribe_token(token)

    def stop(s: Any) -> Player:
        player = s.get(Player, player_id)
        if player is None:
            raise NotFound("no such player")
        player.mail_pref = "none"
        return player

    player = svc.write(stop)
    return render_template("unsubscribe.html", player=player, token=token, done=True)
