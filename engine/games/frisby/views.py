"""What Frisby players see: the board as JSON, a sentence per turn, and where moves go."""

from __future__ import annotations

from typing import Any

from ...core import Await
from ...errors import InvalidAction
from .board import FILES, NAMES, NORTH, RANKS, SOUTH, do_move, goals, has_won, index, name, on_board
from .notation import read_moves
from .state import FrisbyState, pending


def seat_name(seat: int) -> str:
    """Name a seat: "South" or "North"."""
    return NAMES[seat] if seat in (SOUTH, NORTH) else f"seat {seat}"


def describe(state: FrisbyState, seat: int, action: str) -> str:
    """Say in a sentence what a seat's turn does in this state (nothing in Frisby is secret)."""
    who = seat_name(seat)
    if action == "pass":
        return f"{who} passes"
    try:
        moves = read_moves(action)
    except InvalidAction:
        return f"{who} plays {action}"
    board = state.board
    parts = []
    for move in moves:
        if not (on_board(move[0]) and on_board(move[1])) or not board[index(move[0])]:
            return f"{who} plays {action}"
        size = board[index(move[0])][-1][1]
        target = board[index(move[1])]
        onto = f" onto {NAMES[target[-1][0]]}'s {target[-1][1]}" if target else ""
        parts.append(f"the {size} from {name(move[0])} to {name(move[1])}{onto}")
        board = do_move(board, move)
    won = " and wins" if has_won(board, seat) else ""
    return f"{who} moves " + " and ".join(parts) + won


def annotate(action: str) -> dict[str, Any]:
    """The first piece's square, and where the turn's moves land."""
    try:
        moves = read_moves(action)
    except InvalidAction:
        return {}
    if not moves:
        return {}
    return {"from": name(moves[0][0]), "to": [name(to) for _, to in moves]}


def view(state: FrisbyState, seat: int | None, kind: str) -> dict[str, Any]:
    """Draw the board, the dice and the last turn; nothing in Frisby is hidden."""
    board = {
        name((file, rank)): [{"seat": s, "size": z} for s, z in state.board[index((file, rank))]]
        for file in range(len(FILES))
        for rank in range(1, RANKS + 1)
    }
    due = pending(state)
    return {
        "game": kind,
        "players": list(NAMES),
        "viewer": seat,
        "files": list(FILES),
        "ranks": RANKS,
        "board": board,
        "goals": {NAMES[s]: [name(sq) for sq in goals(s)] for s in (SOUTH, NORTH)},
        "to_move": state.to_move,
        "dice": list(state.dice) if state.dice else None,
        "turns": state.turns,
        "max_turns": state.max_turns,
        "change_columns": state.change_columns,
        "last": {"seat": state.last[0], "action": state.last[1]} if state.last else None,
        "awaiting": list(due.seats) if isinstance(due, Await) else [],
        "finished": state.result is not None,
        "outcome": state.result.to_json() if state.result else None,
    }
