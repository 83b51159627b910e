"""One half-turn of Frisby: the rolls, a checked turn of two moves, and the legal turns."""

from __future__ import annotations

from dataclasses import replace

from ...core import Outcome
from ...errors import IllegalAction
from .board import (
    NAMES,
    Board,
    Move,
    die_of,
    do_move,
    format_moves,
    has_won,
    move_error,
    turns_of,
)
from .notation import parse_turn, read_moves
from .state import FrisbyState

# The half-turn limit is in no rulebook: an outcome it decides says so.
LIMIT_DRAW = "ended by the {0}-half-turn limit: a draw after {0} half-turns"


def resigned(state: FrisbyState, seat: int) -> FrisbyState:
    """End the game: the other seat wins."""
    winner = 1 - seat
    reason = f"{NAMES[seat]} resigned; {NAMES[winner]} wins"
    return replace(state, result=Outcome.from_winner(winner, 2, reason))


def rolled(state: FrisbyState, values: tuple[int, ...]) -> FrisbyState:
    """Pick the first player, or take the dice (a seat that cannot use them passes)."""
    if state.to_move is None:
        return replace(state, to_move=values[0] - 1)
    if state.dice is not None:
        raise IllegalAction("the dice are already rolled")
    dice = (values[0], values[1])
    seat = state.to_move
    if next(turns_of(state.board, seat, dice, state.change_columns), None) is None:
        return _end_turn(state, state.board, seat, "pass")
    return replace(state, dice=dice)


def played(state: FrisbyState, seat: int, action: str) -> FrisbyState:
    """Play a seat's turn after checking it against the dice."""
    if state.to_move != seat or state.dice is None:
        raise IllegalAction(f"it is not {NAMES[seat]}'s turn to move")
    moves = read_moves(parse_turn(action))
    board = _check_turn(state, seat, moves, state.dice)
    return _end_turn(state, board, seat, action)


def _end_turn(state: FrisbyState, board: Board, seat: int, action: str) -> FrisbyState:
    turns = state.turns + 1
    result = None
    for candidate in (seat, 1 - seat):
        if has_won(board, candidate):
            reason = f"{NAMES[candidate]} has both nests home"
            result = Outcome.from_winner(candidate, 2, reason)
            break
    if result is None and state.max_turns and turns >= state.max_turns:
        result = Outcome.from_draw(2, LIMIT_DRAW.format(state.max_turns))
    return replace(
        state,
        board=board,
        to_move=1 - seat,
        dice=None,
        turns=turns,
        result=result,
        last=(seat, action),
    )


def _check_turn(
    state: FrisbyState, seat: int, moves: tuple[Move, ...], dice: tuple[int, int]
) -> Board:
    """The board after a submitted turn, or IllegalAction saying what is wrong."""
    roll = f"{dice[0]}-{dice[1]}"
    if not moves:
        example = _example(state, seat, dice)
        raise IllegalAction(f"you cannot pass: you rolled {roll} and can play {example}")
    if len(moves) > 2:
        raise IllegalAction("a turn is two moves, one for each die")
    used = sorted(die_of(m) for m in moves)
    if len(moves) == 2 and used != sorted(dice):
        raise IllegalAction(
            f"you rolled {roll}, but {format_moves(moves)} moves "
            f"{used[0]} and {used[1]} squares ({_hint(state, seat)})"
        )
    if len(moves) == 1 and used[0] not in dice:
        raise IllegalAction(f"you rolled {roll}; {format_moves(moves)} uses neither die")
    board = state.board
    for i, move in enumerate(moves):
        error = move_error(board, seat, move, state.change_columns)
        if error is not None:
            raise IllegalAction(f"{error} ({_hint(state, seat)})")
        board = do_move(board, move)
        if has_won(board, seat) and i + 1 < len(moves):
            raise IllegalAction(
                f"{format_moves(moves[: i + 1])} already wins the game; submit it alone"
            )
    if len(moves) == 1 and not has_won(board, seat):
        raise IllegalAction(
            f"a turn is two moves, one for each die ({roll}); a single move is "
            f"only complete when it wins ({_hint(state, seat)})"
        )
    if board == state.board:
        raise IllegalAction(
            f"{format_moves(moves)} leaves the board as it was; the second move may not "
            f"undo the first ({_hint(state, seat)})"
        )
    return board


def _example(state: FrisbyState, seat: int, dice: tuple[int, int]) -> str:
    found = next(turns_of(state.board, seat, dice, state.change_columns), None)
    return format_moves(found[0]) if found else "nothing"


def _hint(state: FrisbyState, seat: int) -> str:
    options = legal(state, seat)
    if not options:
        return "no legal turn exists"
    shown = ", ".join(options[:5])
    more = f" and {len(options) - 5} more" if len(options) > 5 else ""
    return f"legal turns include {shown}{more}"


def legal(state: FrisbyState, seat: int) -> tuple[str, ...]:
    """List every legal turn of the seat, the first in notation order of each outcome."""
    if state.result is not None or state.to_move != seat or state.dice is None:
        return ()
    first_by_outcome: dict[Board, str] = {}
    for moves, board in turns_of(state.board, seat, state.dice, state.change_columns):
        text = format_moves(moves)
        best = first_by_outcome.get(board)
        if best is None or text < best:
            first_by_outcome[board] = text
    return tuple(sorted(first_by_outcome.values()))
