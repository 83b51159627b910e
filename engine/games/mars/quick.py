"""Short cuts for the commonest events: a roll someone can use, a move that resolves at once.

Each function here answers only when it can prove the full path (game.py) would give the
same state, and returns None otherwise; it never raises, so every refusal and its message
still comes from the full path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .geometry import BOARD, FACING_LETTERS, NEIGHBOUR, RESERVE, SIZE_WORDS, UP, Piece
from .notation import MoveText
from .position import block_masks, push_distance
from .state import MarsState, evolve

if TYPE_CHECKING:
    from .game import MarsRules

STEP_FACING = {"N": 1, "E": 2, "S": 3, "W": 4}


def rests(state: MarsState, seat: int) -> bool:
    """Whether a piece of the seat may stay where it is, so that any die can be spent turning.

    This is the first, die-independent test of moves.usable, read off the state directly.
    """
    pieces = state.pieces
    dog = state.dog
    dog_square = dog[1] if dog is not None else -1
    enemy = {p.square for p in pieces if p.status == BOARD and p.owner != seat}
    gate = state.params.gate_mask
    for p in pieces:
        if (
            p.status == BOARD
            and p.owner == seat
            and p.square not in enemy
            and p.square != dog_square
            and not gate(p.size) & (1 << p.square)
        ):
            return True
    if dog is not None and dog[0] == seat:
        return not any(p.status == BOARD and p.square == dog_square for p in pieces)
    return False


def _find(pieces: tuple[Piece, ...], seat: int, move: MoveText) -> int:
    """The piece _find_piece finds, or -1 where it would refuse."""
    if move.piece == "+":
        for i, p in enumerate(pieces):
            if p.status == RESERVE and p.owner == seat:
                return i
        return -1
    mine = [
        i
        for i, p in enumerate(pieces)
        if p.square == move.square
        and p.status == BOARD
        and p.owner == seat
        and (move.size is None or p.size == move.size)
        and (move.facing is None or p.facing == move.facing)
    ]
    if not mine or len({(pieces[i].size, pieces[i].facing) for i in mine}) > 1:
        return -1
    return mine[0]


def _forbidden(
    state: MarsState, status: list[int], square: list[int], facing: list[int], piece: int
) -> tuple[int, int, int]:
    """Pos.forbidden for a Mother: where it may not pass, nor end; and its colour's specials."""
    params = state.params
    pieces = state.pieces
    owner = pieces[piece].owner
    board = [
        (q, p.owner, f)
        for p, s, q, f in zip(pieces, status, square, facing, strict=True)
        if s == BOARD
    ]
    total, partial = block_masks(params, state.seats, board)
    specials = params.specials
    own = 0
    for i, (p, s, q) in enumerate(zip(pieces, status, square, strict=True)):
        if s == BOARD and p.owner == owner and i != piece and q in specials:
            own |= 1 << q
    gate = params.gate_mask(pieces[piece].size)
    passing = total[owner] | gate | (own if params.one_per_colour_always else 0)
    return passing, total[owner] | partial[owner] | gate | own, own


def simple_move(
    rules: MarsRules, state: MarsState, seat: int, move: MoveText, action: str
) -> MarsState | None:
    """The state after a Martian's move whose pushes (if any) the move text settles alone.

    The caller has checked that the seat is to move with dice rolled and that the move names
    its die. Answered here: no Dog about; nothing grows or finishes; each push clause names
    one enemy of the landing square at the full distance along a path _full_length_end
    accepts, onto a square with no enemy of the pushed piece, so that no push chains on; and
    the must-use rule settled as moves.surely_enabled settles it.
    """
    die = move.die
    dice = state.dice
    params = state.params
    steps = move.steps
    if (
        die not in dice
        or move.piece == "dog"
        or state.dog is not None
        or len(steps) > die
        or (params.exact_steps and len(steps) != die)
        or seat in state.resigned
    ):
        return None
    pieces = state.pieces
    piece = _find(pieces, seat, move)
    if piece < 0:
        return None
    status = [p.status for p in pieces]
    square = [p.square for p in pieces]
    facings = [p.facing for p in pieces]
    size = pieces[piece].size
    passing, ending, own = _forbidden(state, status, square, facings, piece)
    if move.piece == "+":
        here, facing = params.home, FACING_LETTERS.index(steps[0])
        walk = steps[1:]
        if (own | passing) & (1 << here):
            return None
    else:
        here, facing = square[piece], pieces[piece].facing
        walk = steps
    start, start_facing = here, facing
    for token in walk:
        if token == "F":
            if facing == UP:
                return None
            here = NEIGHBOUR[here][facing]
            if here < 0 or passing & (1 << here):
                return None
        elif token == "U":
            if facing == UP:
                return None
            facing = UP
        else:
            turn = STEP_FACING[token]
            if turn == facing or (
                facing != UP and params.quarter_turns and (turn - facing) % 2 == 0
            ):
                return None
            facing = turn
    if ending & (1 << here) or (facing == UP and here == params.target(size)):
        return None
    enemies = [
        i
        for i, q in enumerate(square)
        if q == here and status[i] == BOARD and pieces[i].owner != seat
    ]
    if len(move.pushes) != len(enemies):
        return None
    status[piece], square[piece], facings[piece] = BOARD, here, facing
    moved = {piece: Piece(seat, size, BOARD, here, facing)}
    for clause in move.pushes:
        matches = [
            o
            for o in enemies
            if pieces[o].owner == clause.colour
            and pieces[o].size == clause.size
            and (clause.facing is None or pieces[o].facing == clause.facing)
        ]
        if not matches or (clause.facing is None and len({pieces[o].facing for o in matches}) > 1):
            return None
        pushed = matches[0]
        enemies.remove(pushed)
        occupant = pieces[pushed]
        path = clause.path
        if not path or len(path) != push_distance(
            params, size, facing == UP, occupant.size, occupant.facing == UP
        ):
            return None
        passing, ending, _ = _forbidden(state, status, square, facings, pushed)
        end = here
        visited = {here}
        for k, letter in enumerate(path):
            end = NEIGHBOUR[end][STEP_FACING[letter]]
            if end < 0 or end in visited:
                return None
            visited.add(end)
            if (ending if k == len(path) - 1 else passing) & (1 << end):
                return None
        if occupant.facing == UP and end == params.target(occupant.size):
            return None
        square[pushed] = end
        moved[pushed] = Piece(occupant.owner, occupant.size, BOARD, end, occupant.facing)
    # Each pushed piece's arrival must find no enemy, or it would push (or ask) in turn.
    for i in moved:
        colour = pieces[i].owner
        q = square[i]
        for j, s in enumerate(status):
            if s == BOARD and square[j] == q and pieces[j].owner != colour:
                return None
    after = tuple(moved.get(i, p) for i, p in enumerate(pieces))
    if len(dice) == 2 and not any(
        p.status == BOARD and p.owner == seat and p.facing != UP for p in after
    ):
        return None  # moves.surely_enabled cannot tell: the full must-use check decides
    who = rules.seat_name(state, seat)
    label = rules.square_label(params, start)
    if move.piece == "+":
        head = f"{who} enters a small {rules.piece_word} on {label}"
    else:
        head = f"{who} moves the {SIZE_WORDS[size]} from {label}"
    sentence = rules.move_words(params, move, head, start, start_facing)
    rest = list(dice)
    rest.remove(die)
    changes = {
        "pieces": after,
        "dice": tuple(rest),
        "last": (seat, action, sentence),
        "queue": (),
        "stage": 0,
        "chooser": None,
        "seen": (),
    }
    if rest:
        # The moved piece may rest where it landed, so moves.usable holds for the other die.
        return evolve(state, changes)
    return rules._end_turn(state, changes)
