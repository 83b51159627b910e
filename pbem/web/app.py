"""The app factory: configuration, blueprints, error pages and JSON errors, security headers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from flask import Flask, current_app, g, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from engine.figures import counted, figure

from ..clock import away_note
from ..config import TEMPLATES, load_settings
from ..errors import Busy, PbemError
from ..games import loader as game_templates
from ..links import check_key
from ..present import ordinal
from ..ratings import records
from ..services import Services
from ..tournaments.labels import label_of
from ..tournaments.service import on_game_end
from . import (
    api,
    auth,
    devmail,
    director,
    games,
    history,
    luck,
    play,
    ratings,
    rules,
    tournament_api,
    tournament_director,
    tournaments,
)
from .helpers import check_csrf, csrf_token, refuse_nul, seat_token


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app from the environment (and overrides for tests)."""
    overrides = dict(test_config or {})
    settings = overrides.pop("SETTINGS", None) or load_settings()
    app = Flask(__name__, instance_path=str(settings.instance_path))
    app.jinja_loader = game_templates(TEMPLATES)  # the pages, then each game's own folder
    app.config.update(
        SECRET_KEY=settings.secret_key,
        SECRET_KEY_FALLBACKS=list(settings.secret_key_fallbacks),
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # Over https the browser must never send the session cookie in the clear.
        SESSION_COOKIE_SECURE=settings.base_url.startswith("https://"),
        MAX_CONTENT_LENGTH=1024 * 1024,
    )
    app.config.update(overrides)
    # Flask signs the session cookie with these: never with a key anyone could guess.
    check_key(app.config["SECRET_KEY"] or "", "SECRET_KEY")
    for number, key in enumerate(app.config["SECRET_KEY_FALLBACKS"] or (), 1):
        check_key(key, f"fallback key {number}")
    services = Services.from_settings(settings)
    # Games that belong to a tournament report their end to it, in the same transaction,
    # and their mails name the event and the round (tournaments.labels).
    services.ctx = replace(services.ctx, on_game_end=(on_game_end, records.on_game_end),
                           game_label=label_of)
    app.extensions["pbem"] = services
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["away_note"] = away_note
    app.jinja_env.globals["seat_token"] = seat_token
    app.jinja_env.filters["ordinal"] = ordinal
    app.jinja_env.filters["figure"] = figure
    app.jinja_env.filters["counted"] = counted
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    for blueprint in (
        games.bp,
        history.bp,
        luck.bp,
        luck.api_bp,
        play.bp,
        director.bp,
        tournaments.bp,
        tournament_director.bp,
        ratings.bp,
        rules.bp,
        tournament_api.bp,
        auth.bp,
        api.bp,
        devmail.bp,
    ):
        app.register_blueprint(blueprint)
    app.add_url_rule("/healthz", "healthz", healthz)
    app.before_request(refuse_nul)
    app.before_request(check_csrf)
    app.after_request(security_headers)
    app.register_error_handler(PbemError, handle_error)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(Exception, handle_unexpected)
    return app


def healthz() -> Any:
    """Liveness for a load balancer or a supervisor: the process answers, touching nothing."""
    return "ok\n", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}


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
    headers = {}
    if isinstance(error, Busy):
        headers["Retry-After"] = str(error.retry_after)
        # Who held the database is the operator's business: the log has it, the answer not.
        current_app.logger.warning("busy on %s %s: %s", request.method, request.path,
                                   error.holder)
    if wants_json():
        return jsonify(error=error.code, message=str(error)), error.status, headers
    page = render_template("error.html", error=error, extra=g.get("error_extra"))
    return page, error.status, headers


def handle_unexpected(error: Exception) -> Any:
    """Log an error nobody foresaw, with its traceback; answer without any of its details."""
    current_app.logger.error(
        "unexpected error on %s %s", request.method, request.path, exc_info=error
    )
    if wants_json():
        message = "an unexpected error occurred on the server; it was logged"
        return jsonify(error="internal", message=message), 500
    wrapped = PbemError("Something went wrong on the server. It was logged; please try again.")
    wrapped.status = 500
    wrapped.code = "internal error"
    return render_template("error.html", error=wrapped, extra=None), 500


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
