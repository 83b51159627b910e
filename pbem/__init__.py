"""pbem: a play-by-email turn server for the Martian dice games."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Flask, current_app, g, jsonify, render_template, request, session
from sqlalchemy.orm import Session
from werkzeug.exceptions import HTTPException

from .clock import away_note
from .config import Settings, load_settings
from .db import Database
from .errors import Forbidden, PbemError, StaleTurn
from .links import Signer
from .mail import TEMPLATES
from .models import Player
from .play import Context

T = TypeVar("T")


@dataclass
class Services:
    """What the views share: settings, the database, the signer and the service context."""

    settings: Settings
    db: Database
    signer: Signer
    ctx: Context

    def write(self, work: Callable[[Session], T], attempts: int = 3) -> T:
        """Run work in a write transaction, retrying when another writer won a race."""
        for attempt in range(attempts):
            try:
                with self.db.write() as session:
                    return work(session)
            except StaleTurn as e:
                # Only a lost insert race is worth retrying: it carries an IntegrityError.
                if e.__cause__ is None or attempt == attempts - 1:
                    raise
        raise AssertionError("unreachable")


def services() -> Services:
    """The services of the current app."""
    return current_app.extensions["pbem"]  # type: ignore[no-any-return]


def current_player(session_: Session) -> Player | None:
    """The signed-in player, if any."""
    player_id = session.get("player_id")
    return session_.get(Player, player_id) if player_id else None


def csrf_token() -> str:
    """The form token of this browser session, created on first use."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return str(session["csrf"])


def check_csrf() -> None:
    """Refuse a form POST whose CSRF token does not match the session's."""
    if request.method != "POST" or request.blueprint in ("api",):
        return
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


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app from the environment (and overrides for tests)."""
    overrides = dict(test_config or {})
    settings = overrides.pop("SETTINGS", None) or load_settings()
    app = Flask(
        __name__,
        instance_path=str(settings.instance_path),
        template_folder=str(TEMPLATES),
    )
    app.config.update(
        SECRET_KEY=settings.secret_key,
        SECRET_KEY_FALLBACKS=list(settings.secret_key_fallbacks),
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=1024 * 1024,
    )
    app.config.update(overrides)
    db = Database(settings.database_url)
    signer = Signer(settings.secret_key, settings.secret_key_fallbacks, settings.link_max_age)
    ctx = Context(settings.base_url, settings.mail_from, signer)
    app.extensions["pbem"] = Services(settings, db, signer, ctx)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["away_note"] = away_note
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    from .views import api, auth, devmail, games, play

    for blueprint in (games.bp, play.bp, auth.bp, api.bp, devmail.bp):
        app.register_blueprint(blueprint)
    app.before_request(refuse_nul)
    app.before_request(check_csrf)
    app.after_request(security_headers)
    app.register_error_handler(PbemError, handle_error)
    app.register_error_handler(HTTPException, handle_http_error)

    from .cli import register

    register(app)
    return app


def security_headers(response: Any) -> Any:
    """Keep tokens in URLs from leaking through the Referer header; forbid framing."""
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def wants_json() -> bool:
    """Whether the request came to the JSON API."""
    return request.path.startswith("/api/")


def handle_error(error: PbemError) -> Any:
    """Show a server error as a page or JSON, with its status."""
    if wants_json():
        return jsonify(error=error.code, message=str(error)), error.status
    page = render_template("error.html", error=error, extra=g.get("error_extra"))
    return page, error.status


def handle_http_error(error: HTTPException) -> Any:
    """Show Werkzeug's errors (404 route, 405 method) in the same shapes."""
    status = error.code or 500
    if wants_json():
        return jsonify(
            error=error.name.lower().replace(" ", "-"), message=error.description
        ), status
    wrapped = PbemError(error.description or error.name)
    wrapped.status = status
    wrapped.code = error.name
    return render_template("error.html", error=wrapped, extra=None), status
