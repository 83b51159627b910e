"""Luck pages: each seat's dice against expectation, and the published test of fair dice."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template
from sqlalchemy.orm import Session

from ..log import store
from ..log.games import Loaded, games_of, loaded_from
from ..models import Player
from ..ratings import luck
from ..ratings.revealed import REVEALED
from ..services import services

bp = Blueprint("luck", __name__)
PLAYER_GAMES = 50  # the most recent finished games a player page reads the dice of


def game_luck(session: Session, loaded: Loaded) -> luck.Luck | None:
    """A finished game's luck per seat (None while it is played, or for a game without dice)."""
    if loaded.game.status == "active" or loaded.setup.kind not in luck.KINDS:
        return None
    events = [store.engine_event(e) for e in store.entries(session, loaded.game)]
    setup = loaded.setup
    return luck.game_luck(setup.kind, setup.seats, setup.options, [e for e in events if e])


def player_luck(session: Session, player: Player) -> list[dict[str, Any]]:
    """A player's luck in their recent finished dice games, oldest first, with running totals."""
    rows: list[dict[str, Any]] = []
    finished = [g for g in games_of(session, player) if g.status != "active"]
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
        tests = REVEALED.tests(session)
    return render_template("audit_dice.html", tests=tests)
