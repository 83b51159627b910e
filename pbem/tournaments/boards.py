"""A duplicate event's board for one round, shown only once every table of it has finished."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ..errors import NotFound
from ..log import store
from ..log.games import load as load_game
from . import duplicate, reports
from .log import Held


@dataclass(frozen=True)
class RoundBoard:
    """A round's board (None while tables still play), and how many tables play it."""

    board: duplicate.Board | None
    playing: int
    count: int


def round_board(session: Session, held: Held, number: int) -> RoundBoard:
    """Lay out round `number` of a duplicate event (NotFound: not duplicate, or no such round)."""
    if not held.state.config.duplicate:
        raise NotFound(f"{held.row.name} is not a duplicate event")
    tables = [t for t in held.state.tables if t.round == number and not t.annulled]
    if not tables:
        raise NotFound(f"{held.row.name} has no round {number} yet")
    loaded = [load_game(session, t.game) for t in tables]
    playing = sum(game.game.status == "active" for game in loaded)
    if playing:  # before, one table's turns would tell another its dice to come
        return RoundBoard(None, playing, len(tables))
    board = duplicate.board([
        duplicate.Table(t.game, tuple(reports.name_of(held.state, p) for p in t.seats),
                        game.setup, store.entries(session, game.game))
        for t, game in zip(tables, loaded, strict=True)
    ])
    return RoundBoard(board, 0, len(tables))


def board_json(board: duplicate.Board) -> dict[str, Any]:
    """A board as JSON: the tables, the rows side by side, matchpoints and luck per player."""
    return {
        "kind": board.kind,
        "tables": [{"game": t.game, "players": list(t.names)} for t in board.tables],
        "rows": [
            {"label": row.label, "cells": [_cell(c) for c in row.cells]} for row in board.rows
        ],
        "matchpoints": [{"player": name, "matchpoints": mp} for name, mp in board.totals],
        "luck": dict(board.luck),
    }


def _cell(cell: dict[str, Any] | None) -> dict[str, Any] | None:
    if cell is None:
        return None
    return {k: list(v) if isinstance(v, tuple) else v for k, v in cell.items()}
