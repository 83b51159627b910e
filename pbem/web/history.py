"""A game's past: the board after any event, the audit of its log, and the log as JSON lines."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from sqlalchemy.orm import Session

from .. import present
from ..errors import NotFound
from ..log import audit, chain, export, store, windows
from ..log.games import Loaded, find, is_revealed, load, shares_dice
from ..log.snapshots import HeadCache
from ..models import Game
from ..play.act import ACTING_KINDS
from ..services import services
from .helpers import check_open

bp = Blueprint("history", __name__)


def full_log(session: Session, public_id: str) -> tuple[Loaded, list[store.LogEntry]]:
    """A game's loaded state and its whole log (refused to others while its dice are held)."""
    loaded = load(session, public_id)
    check_open(session, loaded.game)
    return loaded, store.entries(session, loaded.game)


HISTORY_PAGE = 50  # events listed on each page of a history: 0 to 49, 50 to 99, ...


@bp.get("/games/<public_id>/history")
@bp.get("/games/<public_id>/history/<seq>")
def history(public_id: str, seq: str | None = None) -> Any:
    """The board after any event, that event's page of the list, steps back and forth."""
    jump = request.args.get("event")
    if seq is None and jump is not None:  # the "go to event" form
        at = seq_number(jump.strip())
        token = request.args.get("token")
        return redirect(url_for("history.history", public_id=public_id, seq=at, token=token))
    with services().db.read() as session:
        loaded = load(session, public_id)
        check_open(session, loaded.game)
        head = loaded.game.head_seq
        at = head if seq is None else seq_number(seq)
        if not 0 <= at <= head:
            raise NotFound(f"game {public_id} has events 0 to {head}, not {seq}")
        first, last = windows.page_of(at, HISTORY_PAGE, head)
        start, log = windows.window(session, loaded.game, loaded.setup, first, last)
        prev_act, next_act = windows.nearest(session, loaded.game, at, ACTING_KINDS)
    lines, states = present.history(loaded.rules, loaded.setup, log, loaded.state, start)
    return render_template(
        "history.html",
        game=loaded.game,
        lines=lines,
        at=at,
        head=head,
        prev_act=prev_act,
        next_act=next_act,
        pages=pager(at // HISTORY_PAGE, head // HISTORY_PAGE, HISTORY_PAGE, head),
        pos=present.position(loaded.rules, states[at - first], None, gone=loaded.gone),
    )


def pager(page: int, last: int, size: int, head: int) -> list[dict[str, Any] | None]:
    """Links to the first, last and nearby pages (None where pages are left out)."""
    near = {0, last, *range(max(0, page - 2), min(last, page + 2) + 1)}
    # A gap of one page is that page's link: "…" would be no shorter.
    shown = sorted(near | {n for n in (1, last - 1) if n - 1 in near and n + 1 in near})
    links: list[dict[str, Any] | None] = []
    for before, n in zip([-1, *shown], shown, strict=False):
        if n > before + 1:
            links.append(None)
        first = n * size
        links.append({"number": n + 1, "first": first, "last": min(head, first + size - 1),
                      "current": n == page})
    return links


def seq_number(text: str) -> int:
    """An event number from a URL; NotFound with a plain message when it is not one."""
    # ASCII digits only ("²" is a digit to str.isdigit), and few enough to convert.
    if not re.fullmatch(r"[0-9]{1,12}", text):
        raise NotFound(f"{text!r} is not an event number: history pages are numbered 0, 1, 2…")
    return int(text)


AUDIT_PAGE = 100  # checks listed on each page of an audit
# A sound log's report, kept by its head. It is shown again only while the rows still hash,
# event by event, to that head: a row changed behind the server's back is found at once.
AUDITS: HeadCache[audit.Report] = HeadCache(size=64)


@bp.get("/games/<public_id>/audit")
def audit_page(public_id: str) -> str:
    """The public log checked as anyone can: chain, commitments, seed, chance events, rules."""
    # Not through load(): the page must show a damaged log that no longer replays.
    with services().db.read() as session:
        game = find(session, public_id)
        check_open(session, game)
        report = audited(game, store.entries(session, game))
        awaits_stream = shares_dice(game) and not is_revealed(session, game)
    last = max(0, len(report.checks) - 1) // AUDIT_PAGE
    page = page_number(request.args.get("page", "1"), last + 1)
    problem = report.first_problem
    return render_template(
        "audit.html",
        game=game,
        report=report,
        awaits_stream=awaits_stream,
        checks=report.checks[page * AUDIT_PAGE : (page + 1) * AUDIT_PAGE],
        pages=pager(page, last, AUDIT_PAGE, len(report.checks) - 1),
        problem=problem,
        problem_page=report.checks.index(problem) // AUDIT_PAGE + 1 if problem else None,
    )


def audited(game: Game, log: list[store.LogEntry]) -> audit.Report:
    """The audit of a game's log: its chain checked each time, its rules and dice once a head."""
    kept = AUDITS.get(game)
    if kept is not None and intact(game, log):
        return kept
    report = checked(game, log)
    if report.ok:
        AUDITS.keep(game, report)
    return report


def intact(game: Game, log: list[store.LogEntry]) -> bool:
    """Whether the stored rows hash, one after another, to the game's head."""
    ends = bool(log) and (log[-1].seq, log[-1].hash) == (game.head_seq, game.head_hash)
    return ends and chain.check_chain(log) is None


def checked(game: Game, log: list[store.LogEntry]) -> audit.Report:
    """The audit of a game's log, as the public sees it, against the game's head."""
    shown = present.public_entries(log)
    setup = shown[0].payload if shown else {}
    header = export.header_for(
        game.public_id,
        game.kind,
        setup.get("rules_version", 0),
        game.stream,
        setup.get("log_format", 1),
    )
    return audit.verify(header, shown, (game.head_seq, game.head_hash))


def page_number(text: str, pages: int, of: str = "of this audit") -> int:
    """A page's index from its number in a URL (1 to pages); NotFound with a plain message."""
    if not re.fullmatch(r"[0-9]{1,6}", text) or not 1 <= int(text) <= pages:
        raise NotFound(f"{text[:20]!r} is not a page {of}: its pages are 1 to {pages}")
    return int(text) - 1


@bp.get("/games/<public_id>/log.jsonl")
def log_export(public_id: str) -> Response:
    """The log as JSON lines, for independent checkers."""
    with services().db.read() as session:
        loaded, log = full_log(session, public_id)
    header = export.header_of(loaded.game, loaded.setup)
    shown = present.public_log(loaded.rules, loaded.setup, log, loaded.state)
    body = "\n".join(export.export_lines(header, shown)) + "\n"
    return Response(
        body,
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f'inline; filename="{public_id}.jsonl"'},
    )
