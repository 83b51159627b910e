"""The house bot of Frisby: win if it can, else bring its nests furthest home."""

from __future__ import annotations

from .board import RANKS, SOUTH, Board, format_moves, goals, has_won, index, turns_of
from .state import FrisbyState


def progress(board: Board, seat: int) -> int:
    """How good a position is for the seat: nests built in order, then distance travelled.

    A goal square counts only for the part of its stack that is a correct nest from the
    bottom (own 1, then own 2, then own 3); a piece parked there out of order blocks the
    nest, so it counts less than one still on its way.
    """
    total = 0
    goal_indexes = {index(square) for square in goals(seat)}
    for i, stack in enumerate(board):
        rank = i % RANKS + 1
        distance = rank - 1 if seat == SOUTH else RANKS - rank
        if i in goal_indexes:
            built = 0
            while built < len(stack) and stack[built] == (seat, built + 1):
                built += 1
            total += 20 * built
            total -= 6 * sum(1 for owner, _ in stack[built:] if owner == seat)
            continue
        for depth, (owner, _) in enumerate(stack):
            if owner == seat:
                # A piece under another cannot move: worth a little less than a free one.
                total += distance - (1 if depth < len(stack) - 1 else 0)
    return total


def bot_turn(state: FrisbyState, seat: int) -> str | None:
    """Choose the winning turn, else the one of most progress; None if there is no turn."""
    if state.dice is None:
        return None
    scored = [
        (-(10_000 if has_won(board, seat) else progress(board, seat)), format_moves(moves))
        for moves, board in turns_of(state.board, seat, state.dice, state.change_columns)
    ]
    if not scored:
        return None
    return min(scored)[1]
