"""Tournament pages: the list, a new event, home, registration, standings, crosstable, games."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from sqlalchemy import select
from sqlalchemy.orm import Session

import engine

from .. import clock
from ..bounds import MAX_SEATS, number, whole
from ..errors import Forbidden, NotFound, PbemError, Rejected
from ..log.games import dice_held, load_many
from ..models import Player, Tournament
from ..play.players import unnamed
from ..play.start import player_for
from ..ratings.current import entry_record
from ..services import services
from ..tournaments import boards, directing, exports, mails, reports, service
from ..tournaments.core import formats
from ..tournaments.core.config import (
    DEADLINE_HOURS,
    DEFAULT_DEADLINE_HOURS,
    RATED_GAMES,
    RATINGS,
    TABLE_TIEBREAKS,
    TWO_PLAYER_TIEBREAKS,
)
from ..tournaments.core.contract import Setting
from ..tournaments.core.model import Table, Undone
from ..tournaments.core.tiebreaks import TITLES
from ..tournaments.log import Held, load
from . import bounced
from .helpers import current_player
from .history import page_number, pager

bp = Blueprint("tournaments", __name__, url_prefix="/tournaments")
GAMES_PAGE = 50  # games on a page of an event's games
STANDINGS_PAGE = 50  # lines on a page of the standings



@bp.get("/")
def index() -> str:
    """Every tournament, running ones first."""
    with services().db.read() as session:
        rows = list(session.scalars(select(Tournament).order_by(Tournament.updated_at.desc())))
        order = {"running": 0, "registering": 1, "closed": 2}
        rows.sort(key=lambda r: order.get(r.status, 3))
        return render_template("tournaments/index.html", rows=rows,
                               player=current_player(session))


def setting_from(form: Any, setting: Setting) -> int | float | None:
    """One format setting from the form, within its limits: a whole number, or a number."""
    text = form.get(setting.name, "").strip()
    if not text:
        return None
    words = setting.name.replace("_", " ")
    if setting.whole:
        return whole(text, words, setting.least, int(setting.most))
    return number(text, words, setting.least, setting.most)


def tiebreaks_from(form: Any) -> list[str] | None:
    """The tie-breaks chosen, in order (None: the usual order); each may be chosen once."""
    chosen = [name for name in form.getlist("tiebreak") if name]
    if len(set(chosen)) != len(chosen):
        twice = next(n for n in chosen if chosen.count(n) > 1)
        raise Rejected(f"{TITLES.get(twice, twice)} is chosen twice as a tie-break")
    return chosen or None


def fields_from(form: Any) -> dict[str, Any]:
    """The new-tournament form as the service's fields, each number within its limits.

    Settings of formats other than the chosen one are hidden on the form and left out here.
    """
    text = form.get("deadline_hours", "").strip()
    low, high = DEADLINE_HOURS
    hours = whole(text, "hours per decision", int(low), int(high)) if text else None
    system = form.get("system", "")
    return {
        "name": form.get("name", ""),
        "system": form.get("system", ""),
        "kind": form.get("kind", ""),
        "preset": form.get("preset") or None,
        "table_sizes": [whole(n, "a table size", 2, MAX_SEATS)
                        for n in form.getlist("table_sizes")] or None,
        **{name: setting_from(form, users[0][1]) for name, users in formats.declared().items()
           if system not in {f.system for f in formats.formats()}
           or any(f.system == system for f, _ in users)},
        "tiebreaks": tiebreaks_from(form),
        "deadline_hours": DEFAULT_DEADLINE_HOURS if hours is None else hours,
        "timeout_policy": form.get("timeout_policy", "forfeit"),
        "rated": form.get("rated") == "on",
        "duplicate": (form.get("duplicate") == "on" and not any(
            f.system == system and not f.allows_duplicate for f in formats.formats())) or None,
        **entry_fields(form),
        **timetable_fields(form, system),
    }


def timetable_fields(form: Any, system: str) -> dict[str, Any]:
    """A Swiss's round timetable from the form: left out for a format without one."""
    if not any(f.system == system and f.takes_timetable for f in formats.formats()):
        return {}
    return {"round_starts": form.get("round_starts", "").strip() or None,
            "unfinished_games": form.get("unfinished_games") or None}


def entry_fields(form: Any) -> dict[str, Any]:
    """Who may enter and when, from the new-tournament form; each number within its limits."""
    def given(name: str) -> str | None:
        return form.get(name, "").strip() or None

    def bounded(name: str, words: str, low: int, high: int) -> int | None:
        text = given(name)
        return None if text is None else whole(text, words, low, high)

    def rating(name: str, words: str) -> float | None:
        text = given(name)
        return None if text is None else number(text, words, *RATINGS)

    return {
        "description": given("description"),
        "max_players": bounded("max_players", "the player limit", 2, 512),
        "registration_closes": given("registration_closes"),
        "starts_at": given("starts_at"),
        "private": form.get("private") == "on" or None,
        "rating_min": rating("rating_min", "the least rating"),
        "rating_max": rating("rating_max", "the most rating"),
        "min_rated_games": bounded("min_rated_games", "the rated games asked for", 0,
                                   RATED_GAMES),
    }


@bp.route("/new", methods=["GET", "POST"])
def new() -> Any:
    """A director sets up an event; it opens for registration."""
    svc = services()
    with svc.db.read() as session:
        player = current_player(session)
    if player is None:
        return redirect(url_for("auth.signin", next=request.path))
    error = None
    if request.method == "POST":
        try:
            def work(session: Session) -> str:
                director = current_player(session)
                assert director is not None
                return service.create(session, director, fields_from(request.form)).public_id

            public_id = svc.write(work)
            flash("The tournament is open for registration: share its page.")
            return redirect(url_for("tournaments.home", public_id=public_id), code=303)
        except PbemError as e:
            error = str(e)
    kinds = [(k, engine.rules_for(k)) for k in engine.GAMES]
    return render_template("tournaments/new.html", kinds=kinds, form=request.form,
                           formats=formats.formats(), settings=reports.setting_fields(),
                           tiebreaks=list(TITLES.items()),
                           usual="for two players " + ", ".join(
                               TITLES[n] for n in TWO_PLAYER_TIEBREAKS)
                           + "; for tables " + ", ".join(TITLES[n] for n in TABLE_TIEBREAKS),
                           error=error), (422 if error else 200)


def held_or_404(session: Session, public_id: str) -> Held:
    """A tournament by id."""
    return load(session, public_id)


@bp.get("/<public_id>")
def home(public_id: str) -> str:
    """Format, rules, deadlines, the next pairing, the forecast end, entrants, links."""
    with services().db.read() as session:
        held = held_or_404(session, public_id)
        player = current_player(session)
        now = clock.utcnow()
        entered = player is not None and str(player.id) in held.state.seeding
        return render_template(
            "tournaments/home.html", held=held, t=held.state, player=player, entered=entered,
            describe=reports.describe(held), next_pairing=reports.next_pairing(held, now),
            timetable=reports.timetable(held),
            forecast=formats.forecast_end(held.state, now),
            director=session.get(Player, held.row.director_id),
            directs=directing.may_direct(held, player),
            bounced=bounced.event_notices(
                session, held.state.seeding, player, directs=directing.may_direct(held, player)
            ),
            rows=held.standings[:10],
            entries_closed=service.entries_closed(held.state, now),
            entry_rules=reports.entry_rules(held, now),
            away=[reports.name_of(held.state, p) for p in mails.last_away(held)],
        )


@bp.post("/<public_id>/register")
def register(public_id: str) -> Any:
    """Enter the signed-in player now, or mail a registration link to an address."""
    svc = services()

    def work(session: Session) -> str:
        held = load(session, public_id, for_update=True)
        player = current_player(session)
        email = request.form.get("email", "").strip()
        # The director's entries and links are invitations: they enter a private event too.
        by = player.name if player is not None and directing.may_direct(held, player) else None
        if player is not None and (not email or email.lower() == player.email):
            service.register(session, held, player,
                             *entry_record(session, player.id, held.row.kind), by=by,
                             ctx=svc.ctx)
            return f"You are entered in {held.row.name}."
        if by is None and held.state.config.private:
            raise Rejected(f"entry to {held.row.name} is by the director's invitation only")
        mails.queue_registration(session, svc.ctx, held, player_for(session, email).email,
                                 inviter=player)
        return f"A registration link went to {email}: open it to confirm."

    flash(svc.write(work))
    return redirect(url_for("tournaments.home", public_id=public_id), code=303)


@bp.route("/register/<token>", methods=["GET", "POST"])
def register_link(token: str) -> Any:
    """The mailed link: GET shows a button (mail scanners open links); POST enters.

    Whoever has no name yet is asked for the one other players will see."""
    svc = services()
    public_id, email, by = svc.signer.read_register_token(token)
    error = None
    if request.method == "POST":
        def work(session: Session) -> None:
            held = load(session, public_id, for_update=True)
            player = player_for(session, email, request.form.get("name"))
            if unnamed(player):
                raise Rejected("give your name, as the other players will see it")
            service.register(session, held, player,
                             *entry_record(session, player.id, held.row.kind), by=by,
                             ctx=svc.ctx)

        try:
            svc.write(work)
        except Rejected as e:
            error = str(e)
        else:
            flash(f"{email} is entered. Game invitations come by mail once the event starts.")
            return redirect(url_for("tournaments.home", public_id=public_id), code=303)
    with svc.db.read() as session:
        held = load(session, public_id)
        known = session.scalars(select(Player).where(Player.email == email)).first()
        return render_template("tournaments/register.html", held=held, email=email,
                               token=token, error=error, form=request.form,
                               ask_name=known is None or unnamed(known)), (422 if error else 200)


@bp.post("/<public_id>/withdraw")
def withdraw(public_id: str) -> Any:
    """A signed-in entrant leaves (their unfinished games are resigned once it started)."""
    svc = services()
    if request.form.get("confirm") != "yes":
        raise Rejected("tick the box to confirm that you withdraw")

    def work(session: Session) -> None:
        held = load(session, public_id, for_update=True)
        player = current_player(session)
        if player is None or str(player.id) not in held.state.seeding:
            raise Forbidden("sign in as an entrant to withdraw")
        directing.withdraw(session, svc.ctx, held, str(player.id), "withdrew themselves")

    svc.write(work)
    flash("You have withdrawn.")
    return redirect(url_for("tournaments.home", public_id=public_id), code=303)


@bp.get("/<public_id>/standings")
def standings_page(public_id: str) -> str:
    """Standings with tie-break columns, each player's arithmetic and why ties fell."""
    with services().db.read() as session:
        held = held_or_404(session, public_id)
        rows = held.standings
        pages = max(1, -(-len(rows) // STANDINGS_PAGE))
        page = page_number(request.args.get("page", "1"), pages, "of these standings")
        return render_template(
            "tournaments/standings.html", held=held, titles=TITLES,
            rows=rows[page * STANDINGS_PAGE:(page + 1) * STANDINGS_PAGE], count=len(rows),
            first=page * STANDINGS_PAGE + 1, ordering=reports.ordering(held),
            pages=pager(page, pages - 1, STANDINGS_PAGE, len(rows) - 1))


@bp.get("/<public_id>/crosstable")
def crosstable(public_id: str) -> str:
    """The crosstable by rounds, a page of lines at a time; the grid for a small round robin."""
    with services().db.read() as session:
        held = held_or_404(session, public_id)
        count = len(held.state.entrants)
        pages = max(1, -(-count // reports.CROSSTABLE_ROWS))
        page = page_number(request.args.get("page", "1"), pages, "of this crosstable")
        table = reports.crosstable(held, page + 1)
        return render_template(
            "tournaments/crosstable.html", held=held, table=table,
            pages=pager(page, pages - 1, reports.CROSSTABLE_ROWS, count - 1))


@bp.get("/<public_id>/games")
def pairings(public_id: str) -> str:
    """Every game by round, newest first, a page at a time: who plays, whose turn, until when."""
    with services().db.read() as session:
        held = held_or_404(session, public_id)
        # Games and undone pairings (kept on the record), newest first, a page at a time.
        entries: list[Table | Undone] = sorted(
            [*held.state.tables, *held.state.undone],
            key=lambda e: -(e.table.seq if isinstance(e, Undone) else e.seq))
        count = len(entries)
        pages = max(1, -(-count // GAMES_PAGE))
        page = page_number(request.args.get("page", "1"), pages, "of this event's games")
        shown = entries[page * GAMES_PAGE:(page + 1) * GAMES_PAGE]
        found = load_many(session, [e.game for e in shown if isinstance(e, Table)])
        games: list[dict[str, Any]] = []
        for entry in shown:
            if isinstance(entry, Undone):
                games.append({"table": entry.table, "status": "undone", "undone": entry,
                              "names": [reports.name_of(held.state, p)
                                        for p in entry.table.seats]})
                continue
            table = entry
            loaded = found.get(table.game)
            if loaded is None:
                raise NotFound(f"there is no game {table.game!r}")
            names = [reports.name_of(held.state, p) for p in table.seats]
            if dice_held(session, loaded.game):  # neither its turns nor its end, for now
                games.append({"table": table, "status": "held", "names": names})
                continue
            awaited = loaded.awaited()
            deadline = clock.deadline_of(loaded.game, [loaded.player(s) for s in awaited])
            games.append({"table": table, "status": loaded.game.status, "names": names,
                          "waiting": [loaded.player(s).name for s in awaited],
                          "deadline": deadline})
        return render_template(
            "tournaments/games.html", held=held, games=games, count=count,
            first=page * GAMES_PAGE + 1, pages=pager(page, pages - 1, GAMES_PAGE, count - 1))


@bp.get("/<public_id>/boards/<int:number>")
def board_page(public_id: str, number: int) -> tuple[str, int] | str:
    """A duplicate round's board: every table's choices side by side, matchpointed."""
    with services().db.read() as session:
        held = held_or_404(session, public_id)
        laid = boards.round_board(session, held, number)
        return render_template("tournaments/board.html", held=held, number=number,
                               board=laid.board, playing=laid.playing, count=laid.count)


@bp.get("/<public_id>/players/<player>")
def player_card(public_id: str, player: str) -> str:
    """One entrant's games, byes and standing."""
    with services().db.read() as session:
        held = held_or_404(session, public_id)
        if player not in held.state.seeding:
            raise NotFound(f"{player!r} is not an entrant of {held.row.name}")
        return render_template("tournaments/player.html", held=held,
                               card=reports.player_card(held, player))


EXPORTS = {
    "standings.csv": ("csv", "text/csv"),
    "results.json": ("results", "application/json"),
    "deadlines.ics": ("ics", "text/calendar"),
    "log.jsonl": ("log", "application/x-ndjson"),
    "crosstable.csv": ("crosstable-csv", "text/csv"),
    "crosstable.json": ("crosstable-json", "application/json"),
}


@bp.get("/<public_id>/<any('standings.csv', 'results.json', 'deadlines.ics', 'log.jsonl', "
        "'crosstable.csv', 'crosstable.json'):name>")
def export(public_id: str, name: str) -> Response:
    """The exports: standings CSV, results JSON, deadlines ICS, the event log."""
    what, mimetype = EXPORTS[name]
    svc = services()
    with svc.db.read() as session:
        held = held_or_404(session, public_id)
        body = exports.export_text(session, svc.settings.base_url, held, what)
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'inline; filename="{public_id}-{name}"'})
