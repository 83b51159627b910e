"""Sign-in by mailed link and signing out, mail preferences, API tokens and unsubscribing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from sqlalchemy.orm import Session

from ..clock import utcnow
from ..errors import Forbidden, NotFound
from ..log.games import games_of
from ..mail import failing
from ..mail.compose import queue_signin
from ..models import Player
from ..play import players
from ..play.start import player_for
from ..services import services
from . import listing
from .helpers import current_player

bp = Blueprint("auth", __name__)
SIGNED_OUT = ("Signed out: {email} is now signed out on every browser, this one included, and "
              "sign-in links mailed before now no longer work.")
SIGNED_OUT_EVERYWHERE = ("Signed out everywhere: every browser signed in as {email} is signed "
                         "out, sign-in links mailed before now no longer work, and your API "
                         "token is removed (make a new one under My games when you need it).")


def safe_next(target: str | None) -> str:
    """A local path to go to after signing in; never another site."""
    return target if target and is_local_path(target) else url_for("games.lobby")


def is_local_path(target: str) -> bool:
    r"""Whether a target is a plain path on this site, as a browser would read it too.

    Browsers drop tabs and line breaks from a URL and read a backslash as a slash, so
    `/\t/evil.example` and `/\evil.example` lead to another site: only printable ASCII
    without backslashes is taken, with no scheme, no host, and one leading slash.
    """
    if len(target) > 2000 or not all("!" <= c <= "~" and c != "\\" for c in target):
        return False
    parts = urlsplit(target)
    return (
        not parts.scheme
        and not parts.netloc
        and target.startswith("/")
        and not target.startswith("//")
    )


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
    """GET shows a button (mail scanners open links); POST signs in, once per link."""
    svc = services()
    grant = svc.signer.read_signin_token(token)
    if request.method != "POST":  # HEAD too: link scanners must never sign anyone in
        with svc.db.read() as s:
            player = players.signin_player(s, grant)
            return render_template(
                "signin_confirm.html",
                player=player,
                token=token,
                next=safe_next(request.args.get("next")),
                ask_name=players.unnamed(player),
            )

    def use(s: Session) -> Player:
        player = players.use_signin(s, grant)
        if players.unnamed(player):  # asked once: a name given is kept, none asks again
            players.give_name(player, request.form.get("name"))
        return player

    player = svc.write(use)
    if player.mail_failing_at is not None:
        # The sign-in link reached the address: it works again, and its held mail goes out.
        released = svc.write(lambda s: mail_works(s, player.id))
        flash(f"Mail to {player.email} works again: {released} held mails are on their way.")
    session.clear()
    session["player_id"] = player.id
    session["generation"] = player.session_generation
    flash(f"Signed in as {player.email}.")
    return redirect(safe_next(request.form.get("next")), code=303)


@bp.post("/signout")
def signout() -> Any:
    """End every session of the signed-in player (and, everywhere, their API token too)."""
    everywhere = request.form.get("everywhere") == "1"

    def end(s: Session) -> Player | None:
        player = current_player(s)
        if player is not None:
            players.end_sessions(player, api_token=everywhere)
        return player

    player = services().write(end)
    session.clear()
    if player is not None:
        flash(SIGNED_OUT_EVERYWHERE.format(email=player.email) if everywhere
              else SIGNED_OUT.format(email=player.email))
    return redirect(url_for("games.lobby"), code=303)


@bp.route("/me", methods=["GET", "POST"])
def me() -> Any:
    """The signed-in player's games, mail preference and API token."""
    svc = services()
    new_token = None
    if request.method == "POST":
        new_token = svc.write(lambda s: update_settings(s, request.form))
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
            prefs=players.MAIL_PREFS,
            reply_answers=players.REPLY_ANSWERS,
            new_token=new_token,
            one_day=timedelta(days=1),
        )


def update_settings(s: Any, form: Any) -> str | None:
    """Apply the settings form; return a new API token when one was asked for."""
    player = current_player(s)
    if player is None:
        raise Forbidden("sign in first")
    if form.get("what") == "away":
        players.set_away(player, form.get("away_from", ""), form.get("away_until", ""))
        return None
    if form.get("what") == "token":
        return players.new_api_token(player)
    if form.get("what") == "mail-works":
        mail_works(s, player.id)
        return None
    players.set_preferences(
        player, form.get("mail_pref", ""), form.get("name", ""), form.get("reply_answers")
    )
    return None


def mail_works(s: Session, player_id: int) -> int:
    """The player's address works again: send its held mail; return how many were held."""
    player = s.get(Player, player_id)
    return failing.clear(s, player, utcnow()) if player is not None else 0


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

    def stop(s: Session) -> Player:
        player = s.get(Player, player_id)
        if player is None:
            raise NotFound("no such player")
        player.mail_pref = "none"
        return player

    player = svc.write(stop)
    return render_template("unsubscribe.html", player=player, token=token, done=True)
