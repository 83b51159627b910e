"""Short cuts for the commonest events: a roll someone can use, a move that resolves at once.

Each function here answers only when it can prove the full path (turns.py) would give the
same state, and returns None otherwise; it never raises, so every refusal and its message
still comes from the full path.
"""

from __future__ import annotations

from typing import Any

from .geometry import BOARD, NEIGHBOUR, RESERVE, SIZE_WORDS, UP, piece_value
from .notation import MoveText
from .position import Pos, push_distance
from .state import MarsState, snapshot
from .words import Words, move_sentence, seat_name

STEP_FACING = {"U": UP, "N": 1, "E": 2, "S": 3, "W": 4}


def rests(state: MarsState, seat: int) -> bool:
    """Whether a piece of the seat may stay where it is, so that any die can be spent turning.

    This is the first, die-independent test of moves.usable, read off the snapshot.
    """
    pos = snapshot(state)
    status, square, owner = pos.status, pos.square, pos.owner
    dog_square = pos.dog_square
    enemy = {q for q, s, o in zip(square, status, owner, strict=True) if s == BOARD and o != seat}
    gates = state.params.gates
    size = pos.size
    for i, q in enumerate(square):
        if (
            owner[i] == seat
            and status[i] == BOARD
            and q not in enemy
            and q != dog_square
            and not gates[size[i]] & (1 << q)
        ):
            return True
    if pos.dog_owner == seat and dog_square >= 0:
        return not any(q == dog_square and s == BOARD for q, s in zip(square, status, strict=True))
    return False


def stacked(pos: Pos) -> bool:
    """Whether two pieces of one colour share a square: only then can anything block."""
    status, square, owner = pos.status, pos.square, pos.owner
    keys = [q * 8 + o for s, q, o in zip(status, square, owner, strict=True) if s == BOARD]
    return len(set(keys)) != len(keys)


def _find(pos: Pos, seat: int, move: MoveText) -> int:
    """The piece _find_piece finds, or -1 where it would refuse."""
    status, owner = pos.status, pos.owner
    if move.piece == "+":
        for i, s in enumerate(status):
            if s == RESERVE and owner[i] == seat:
                return i
        return -1
    size, facing, square = pos.size, pos.facing, pos.square
    if square.count(move.square) == 1:
        # The usual case, one piece on the square: found without a Python loop.
        i = square.index(move.square)
        if (
            status[i] == BOARD
            and owner[i] == seat
            and (move.size is None or size[i] == move.size)
            and (move.facing is None or facing[i] == move.facing)
        ):
            return i
        return -1
    mine = [
        i
        for i, q in enumerate(square)
        if q == move.square
        and status[i] == BOARD
        and owner[i] == seat
        and (move.size is None or size[i] == move.size)
        and (move.facing is None or facing[i] == move.facing)
    ]
    if not mine or len({(size[i], facing[i]) for i in mine}) > 1:
        return -1
    return mine[0]


def _colour_masks(pos: Pos, colour: int) -> tuple[int, int]:
    """Pos.masks for one colour: the squares other colours block totally, and at least partly.

    A square is blocked for a colour by the strongest other colour on it, so only the other
    colours' strengths are summed.
    """
    status, square, owner = pos.status, pos.square, pos.owner
    low, high = pos.params.block_partial_min, pos.params.block_total_min
    if low >= 3:
        # One piece is worth at most 2: only two of another colour on one square can block.
        keys = [
            q * 8 + o
            for s, q, o in zip(status, square, owner, strict=True)
            if s == BOARD and o != colour
        ]
        if len(set(keys)) == len(keys):
            return 0, 0
    strength: dict[int, int] = {}
    get = strength.get
    for s, q, o, f in zip(status, square, owner, pos.facing, strict=True):
        if s == BOARD and o != colour:
            key = q * 8 + o
            strength[key] = get(key, 0) + (2 if f == UP else 1)
    total = partial = 0
    for key, value in strength.items():
        if value >= low:
            partial |= 1 << (key >> 3)
            if value >= high:
                total |= 1 << (key >> 3)
    return total, partial


def _forbidden(pos: Pos, piece: int, stacks: bool) -> tuple[int, int, int]:
    """Pos.forbidden for a Mother: where it may not pass, nor end; and its colour's specials.

    Without stacks (and with blocking from strength 3, as in every preset) no square is
    blocked, and the masks need not be built.
    """
    params = pos.params
    colour = pos.owner[piece]
    if stacks or params.block_partial_min < 3:
        blocked, partly = _colour_masks(pos, colour)
    else:
        blocked = partly = 0
    own = pos.own_specials(colour, piece)
    gate = params.gates[pos.size[piece]]
    passing = blocked | gate | (own if params.one_per_colour_always else 0)
    return passing, blocked | partly | gate | own, own


def simple_move(
    words: Words, state: MarsState, seat: int, move: MoveText, action: str
) -> dict[str, Any] | None:
    """The changes a Martian's move makes when its pushes (if any) the move text settles alone.

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
    before = snapshot(state)
    piece = _find(before, seat, move)
    if piece < 0:
        return None
    size = before.size[piece]
    stacks: bool | None = state.__dict__.get("_stacked")
    if stacks is None:
        stacks = stacked(before)
    passing, ending, own = _forbidden(before, piece, stacks)
    if move.piece == "+":
        here, facing = params.home, STEP_FACING[steps[0]]
        walk = steps[1:]
        if (own | passing) & (1 << here):
            return None
    else:
        here, facing = before.square[piece], before.facing[piece]
        walk = steps
    start = here
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
    if ending & (1 << here) or (facing == UP and here == params.specials[size]):
        return None
    pos = before.copy()
    status, square, owner, sizes, facings = pos.status, pos.square, pos.owner, pos.size, pos.facing
    enemies = pos.enemies_at(here, seat)
    if len(move.pushes) != len(enemies):
        return None
    status[piece], square[piece], facings[piece] = BOARD, here, facing
    moved = [piece]
    for clause in move.pushes:
        matches = [
            o
            for o in enemies
            if owner[o] == clause.colour
            and sizes[o] == clause.size
            and (clause.facing is None or facings[o] == clause.facing)
        ]
        if not matches or (clause.facing is None and len({facings[o] for o in matches}) > 1):
            return None
        pushed = matches[0]
        enemies.remove(pushed)
        path = clause.path
        if not path or len(path) != push_distance(
            params, size, facing == UP, sizes[pushed], facings[pushed] == UP
        ):
            return None
        passing, ending, _ = _forbidden(pos, pushed, True)
        end = here
        visited = {here}
        for k, letter in enumerate(path):
            end = NEIGHBOUR[end][STEP_FACING[letter]]
            if end < 0 or end in visited:
                return None
            visited.add(end)
            if (ending if k == len(path) - 1 else passing) & (1 << end):
                return None
        if facings[pushed] == UP and end == params.specials[sizes[pushed]]:
            return None
        square[pushed] = end
        moved.append(pushed)
    # Each pushed piece's arrival must find no enemy, or it would push (or ask) in turn.
    for i in moved[1:]:
        colour, q = owner[i], square[i]
        if square.count(q) == 1:
            continue  # alone on its square
        for j, s in enumerate(status):
            if square[j] == q and s == BOARD and owner[j] != colour:
                return None
    if len(dice) == 2 and facing == UP:
        # moves.surely_enabled: some lying piece of the seat, or the full must-use check.
        for s, o, f in zip(status, owner, facings, strict=True):
            if s == BOARD and o == seat and f != UP:
                break
        else:
            return None
    after = list(state.pieces)
    for i in moved:
        after[i] = piece_value(owner[i], sizes[i], BOARD, square[i], facings[i])
    thing = None if move.piece == "+" else SIZE_WORDS[size]
    sentence = move_sentence(words, params, move, seat_name(seat), thing, start, here, facing)
    rest = list(dice)
    rest.remove(die)
    return {
        "pieces": tuple(after),
        "dice": tuple(rest),
        "last": (seat, action, (sentence,)),  # a move begins a new chain
        "queue": (),
        "stage": 0,
        "chooser": None,
        "seen": (),
        "_snap": pos,
        "_stacked": stacked(pos) if stacks or len(moved) > 1 else _joins(pos, piece),
    }


def _joins(pos: Pos, piece: int) -> bool:
    """Whether a piece shares its square with another of its colour."""
    status, square, owner = pos.status, pos.square, pos.owner
    here, colour = square[piece], owner[piece]
    if square.count(here) == 1:
        return False
    for i, q in enumerate(square):
        if q == here and i != piece and owner[i] == colour and status[i] == BOARD:
            return True
    return False
