"""Luck pages: each seat's dice against expectation, and the published test of fair dice."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template
from sqlalchemy.orm import Session

from ..errors import NotFound, NotYet
from ..log import store, tally
from ..log.games import Loaded, dice_held, games_of, load, loaded_from
from ..log.snapshots import HeadCache
from ..luck.core import luck
from ..models import Player
from ..services import services
from .helpers import check_open

bp = Blueprint("luck", __name__)
api_bp = Blueprint("luck_api", __name__, url_prefix="/api")
PLAYER_GAMES = 50  # the most recent finished games a player page reads the dice of


# A finished game's luck never changes: worked out once per process and head.
LUCK: HeadCache[luck.Luck] = HeadCache(size=1024)


def game_luck(session: Session, loaded: Loaded) -> luck.Luck | None:
    """A finished game's luck per seat (None while it is played, or for a game without dice)."""
    if loaded.game.status == "active" or not luck.has_luck(loaded.setup.kind):
        return None
    figures = LUCK.get(loaded.game)
    if figures is None:
        events = [store.engine_event(e) for e in store.entries(session, loaded.game)]
        setup = loaded.setup
        figures = luck.game_luck(setup.kind, setup.seats, setup.options, [e for e in events if e])
        if figures is not None:
            LUCK.keep(loaded.game, figures)
    return figures


def player_luck(session: Session, player: Player) -> list[dict[str, Any]]:
    """A player's luck in their recent finished dice games, oldest first, with running totals."""
    rows: list[dict[str, Any]] = []
    # Not a game whose dice another table still rolls: its luck would tell of their rolls.
    finished = [
        g for g in games_of(session, player)
        if g.status != "active" and not dice_held(session, g)
    ]
    for game in reversed(finished[:PLAYER_GAMES]):
        loaded = loaded_from(session, game)
        figures = game_luck(session, loaded)
        if figures is None:
            continue
        seat = next(s.seat for s in game.seats if s.player_id == player.id)
        rows.append(
            {
                "game": game.public_id,
                "kind": game.kind,
                "at": game.updated_at,
                "rolls": figures.rolls[seat],
                "received": figures.received[seat],
                "expected": figures.expected[seat],
                "luck": figures.luck[seat],
            }
        )
    totals: dict[str, float] = {}
    for row in rows:
        totals[row["kind"]] = totals.get(row["kind"], 0.0) + row["luck"]
        row["total"] = totals[row["kind"]]
    return rows


@bp.get("/audit/dice")
def dice_fairness() -> str:
    """Counts of every revealed die per size and shuffle, with chi-square tests."""
    with services().db.read() as session:
        tests = luck.fairness_of(*tally.by_size(tally.read(session)))
    return render_template("audit_dice.html", tests=tests)


@api_bp.get("/games/<public_id>/luck")
def game_luck_json(public_id: str) -> Any:
    """A finished game's luck per seat: rolls, their worth and what was expected."""
    with services().db.read() as session:
        loaded = load(session, public_id)
        check_open(session, loaded.game)
        kind = loaded.setup.kind
        if not luck.has_luck(kind):
            raise NotFound(f"game {public_id} is {kind}, which has no dice to measure luck by")
        figures = game_luck(session, loaded)
        if figures is None:
            raise NotYet(f"game {public_id} is still being played: its luck is shown once it ends")
        seats = [
            {
                "seat": seat,
                "player": loaded.player(seat).name,
                "rolls": figures.rolls[seat],
                "received": figures.received[seat],
                "expected": figures.expected[seat],
                "luck": figures.luck[seat],
            }
            for seat in range(len(figures.rolls))
        ]
        return jsonify(game=public_id, kind=kind, seats=seats)


@api_bp.get("/audit/dice")
def dice_fairness_json() -> Any:
    """Counts of every revealed die per size and shuffle, with chi-square tests."""
    with services().db.read() as session:
        tests = luck.fairness_of(*tally.by_size(tally.read(session)))
    return jsonify(tests=[
        {
            "what": "shuffle" if t.shuffle else "die",
            "sides": t.sides,
            "counts": list(t.counts),
            "total": t.total,
            "chi_square": t.chi_square,
            "degrees_of_freedom": t.sides - 1,
            "p_value": t.p_value,
        }
        for t in tests
    ])
