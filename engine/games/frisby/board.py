"""The Frisby board: two columns of stacks of nesting pieces, and the single moves on it."""

from __future__ import annotations

from collections.abc import Iterator

FILES = "ab"
RANKS = 8
SOUTH, NORTH = 0, 1
NAMES = ("South", "North")
SIZE_WORDS = {1: "1-pointer", 2: "2-pointer", 3: "3-pointer"}

Piece = tuple[int, int]  # (seat, size)
Stack = tuple[Piece, ...]  # bottom to top, sizes strictly increasing
Board = tuple[Stack, ...]  # index = file * RANKS + rank - 1
Square = tuple[int, int]  # (file index, rank 1..8)
Move = tuple[Square, Square]

NEST: Stack = ((0, 1), (0, 2), (0, 3))


def index(square: Square) -> int:
    """The board index of an on-board square."""
    return square[0] * RANKS + square[1] - 1


def on_board(square: Square) -> bool:
    """Whether the square is one of a1..b8."""
    return 0 <= square[0] < len(FILES) and 1 <= square[1] <= RANKS


def name(square: Square) -> str:
    """Algebraic name of a square ("a1"); off-board squares get a name too."""
    file = FILES[square[0]] if 0 <= square[0] < len(FILES) else chr(ord("a") + square[0])
    return f"{file}{square[1]}"


def start_board() -> Board:
    """Both nests on their start squares: South on a1/b1, North on a8/b8."""
    board: list[Stack] = [()] * (len(FILES) * RANKS)
    for file in range(len(FILES)):
        board[index((file, 1))] = tuple((SOUTH, size) for _, size in NEST)
        board[index((file, RANKS))] = tuple((NORTH, size) for _, size in NEST)
    return tuple(board)


def goals(seat: int) -> tuple[Square, Square]:
    """The squares a seat must fill: the opponent's start squares."""
    rank = RANKS if seat == SOUTH else 1
    return ((0, rank), (1, rank))


def has_won(board: Board, seat: int) -> bool:
    """All six of the seat's pieces stand on its goal squares."""
    on_goal = sum(1 for sq in goals(seat) for piece in board[index(sq)] if piece[0] == seat)
    return on_goal == 2 * len(NEST)


def move_error(board: Board, seat: int, move: Move, change_columns: bool) -> str | None:
    """Why a single move is illegal for this seat, or None if it is legal."""
    frm, to = move
    text = f"{name(frm)}-{name(to)}"
    if not on_board(frm):
        return f"{text}: {name(frm)} is off the board (files a-b, ranks 1-8)"
    if not on_board(to):
        return f"{text}: {name(to)} is off the board (files a-b, ranks 1-8)"
    stack = board[index(frm)]
    if not stack:
        return f"{text}: there is no piece on {name(frm)}"
    owner, size = stack[-1]
    if owner != seat:
        mine = [p for p in stack if p[0] == seat]
        if mine:
            return (
                f"{text}: your {SIZE_WORDS[mine[-1][1]]} on {name(frm)} is trapped under "
                f"{NAMES[owner]}'s {SIZE_WORDS[size]}"
            )
        return f"{text}: the piece on top of {name(frm)} is {NAMES[owner]}'s"
    if frm[1] == to[1]:
        return f"{text}: a move must go forwards or backwards by the die's value"
    if frm[0] != to[0] and not change_columns:
        return f"{text}: pieces stay in their column (the change-columns variant is off)"
    target = board[index(to)]
    if target and target[-1][1] >= size:
        return (
            f"{text}: {name(to)} has {NAMES[target[-1][0]]}'s {SIZE_WORDS[target[-1][1]]} "
            f"on top; a {SIZE_WORDS[size]} may only nest on a smaller piece"
        )
    return None


def do_move(board: Board, move: Move) -> Board:
    """The board after moving the top piece of one square to another (unchecked)."""
    frm, to = index(move[0]), index(move[1])
    cells = list(board)
    piece = cells[frm][-1]
    cells[frm] = cells[frm][:-1]
    cells[to] = cells[to] + (piece,)
    return tuple(cells)


def moves_for(board: Board, seat: int, die: int, change_columns: bool) -> Iterator[Move]:
    """Every legal single move of the seat with one die value."""
    files = range(len(FILES))
    for frm_index, stack in enumerate(board):
        if not stack or stack[-1][0] != seat:
            continue
        size = stack[-1][1]
        frm = divmod(frm_index, RANKS)
        frm = (frm[0], frm[1] + 1)
        for rank in (frm[1] + die, frm[1] - die):
            if not 1 <= rank <= RANKS:
                continue
            for file in files if change_columns else (frm[0],):
                target = board[file * RANKS + rank - 1]
                if not target or target[-1][1] < size:
                    yield (frm, (file, rank))


def die_of(move: Move) -> int:
    """The die value a move uses: the distance in ranks."""
    return abs(move[1][1] - move[0][1])


def format_moves(moves: tuple[Move, ...]) -> str:
    """Canonical notation of a turn: "a1-a4 b1-b6"."""
    return " ".join(f"{name(f)}-{name(t)}" for f, t in moves)


def turns_of(
    board: Board, seat: int, dice: tuple[int, int], change_columns: bool
) -> Iterator[tuple[tuple[Move, ...], Board]]:
    """Every legal turn with its resulting board, both die orders, in generation order."""
    orders = {dice, (dice[1], dice[0])}
    for first, second in sorted(orders):
        for m1 in moves_for(board, seat, first, change_columns):
            after_one = do_move(board, m1)
            if has_won(after_one, seat):
                yield (m1,), after_one
                continue
            for m2 in moves_for(after_one, seat, second, change_columns):
                after_two = do_move(after_one, m2)
                if after_two != board:
                    yield (m1, m2), after_two
