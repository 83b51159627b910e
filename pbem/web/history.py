"""A game's past: the board after any event, the audit of its log, and the log as JSON lines."""

from __future__ import annotations

import re

from flask import Blueprint, Response, render_template
from sqlalchemy.orm import Session

from .. import present
from ..errors import NotFound
from ..log import audit, export, store
from ..log.games import Loaded, find, is_revealed, load, shares_dice
from ..play.act import ACTING_KINDS
from ..services import services
from .helpers import check_open

bp = Blueprint("history", __name__)


def full_log(session: Session, public_id: str) -> tuple[Loaded, list[store.LogEntry]]:
    """A game's loaded state and its whole log (refused to others while its dice are held)."""
    loaded = load(session, public_id)
    check_open(session, loaded.game)
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
    # ASCII digits only ("²" is a digit to str.isdigit), and few enough to convert.
    if not re.fullmatch(r"[0-9]{1,12}", text):
        raise NotFound(f"{text!r} is not an event number: history pages are numbered 0, 1, 2…")
    return int(text)


@bp.get("/games/<public_id>/audit")
def audit_page(public_id: str) -> str:
    """The public log checked as anyone can: chain, commitments, seed, chance events, rules."""
    # Not through load(): the page must show a damaged log that no longer replays.
    with services().db.read() as session:
        game = find(session, public_id)
        check_open(session, game)
        log = store.entries(session, game)
        awaits_stream = shares_dice(game) and not is_revealed(session, game)
    shown = present.public_entries(log)
    setup = shown[0].payload if shown else {}
    header = export.header_for(
        game.public_id,
        game.kind,
        setup.get("rules_version", 0),
        game.stream,
        setup.get("log_format", 1),
    )
    report = audit.verify(header, shown, (game.head_seq, game.head_hash))
    return render_template(
        "audit.html", game=game, report=report, awaits_stream=awaits_stream
    )


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
