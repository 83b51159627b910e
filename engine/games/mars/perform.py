"""Performing a move on a position: finding its piece, walking its steps, the must-use rule."""

from __future__ import annotations

from ...errors import IllegalAction, InvalidAction
from . import moves
from .geometry import BOARD, DOG, FACING_LETTERS, NEIGHBOUR, SIZE_WORDS, UP, square_name
from .notation import MoveText, designator
from .position import Masks, Pos
from .resolution import Resolution
from .state import MarsState, to_pos
from .words import Words, square_label


def resolution_of(state: MarsState) -> Resolution:
    """The push resolution a state has paused, ready to run on."""
    return Resolution(to_pos(state), list(state.queue), state.stage, list(state.seen), state.winner)


def infer_die(state: MarsState, move: MoveText) -> int:
    """The die a move without one uses, when only one fits; InvalidAction asks otherwise."""
    steps = len(move.steps)
    if state.params.exact_steps:
        fitting = {d for d in state.dice if d == steps}
    else:
        fitting = {d for d in state.dice if d >= steps}
    if len(fitting) == 1:
        return fitting.pop()
    dice = " and ".join(str(d) for d in state.dice) or "no dice"
    raise InvalidAction(
        f"say which die {' '.join(move.steps)} uses: you have {dice} to play "
        f"(write it first, like '{state.dice[0] if state.dice else 5}: ...')"
    )


def find_piece(words: Words, pos: Pos, seat: int, move: MoveText) -> int:
    """The piece (or DOG) a move names; IllegalAction if the seat has none or several."""
    if move.piece == "+":
        piece = pos.reserve_piece(seat)
        if piece < 0:
            raise IllegalAction(f"you have no {words.piece_word} in reserve to enter")
        return piece
    if move.piece == "dog":
        if pos.dog_owner != seat or pos.dog_square < 0:
            raise IllegalAction("you do not control the Mad Dog")
        return DOG
    where = square_name(move.square)
    mine = [
        i
        for i in pos.at(move.square)
        if pos.owner[i] == seat
        and (move.size is None or pos.size[i] == move.size)
        and (move.facing is None or pos.facing[i] == move.facing)
    ]
    if not mine:
        what = f"{SIZE_WORDS[move.size]} " if move.size else ""
        raise IllegalAction(f"you have no {what}{words.piece_word} on {where}")
    kinds = {(pos.size[i], pos.facing[i]) for i in mine}
    if len(kinds) > 1:
        raise IllegalAction(
            f"several of your pieces are on {where}; name one like "
            f"{designator(move.square, pos.size[mine[0]], pos.facing[mine[0]])}"
        )
    return mine[0]


def _blocked_reason(
    words: Words, pos: Pos, piece: int, square: int, masks: Masks, end: bool
) -> str:
    params = pos.params
    label = square_label(words, params, square)
    bit = 1 << square
    colour = pos.seats if piece == DOG else pos.owner[piece]
    if masks[0][colour] & bit:
        return f"{label} is totally blocked"
    if piece != DOG:
        size = pos.size[piece]
        if params.gate_mask(size) & bit:
            return f"a {SIZE_WORDS[size]} may not enter or end on {label}"
        if pos.own_specials(colour, piece) & bit:
            return f"{label} already holds one of your pieces"
    if end and masks[1][colour] & bit:
        return f"{label} is partially blocked: you may pass but not end there"
    return f"{label} cannot be entered"


def perform(words: Words, state: MarsState, pos: Pos, seat: int, move: MoveText) -> tuple[int, int]:
    """Walk the move's steps on pos, checking each; return the piece and its landing square."""
    params = state.params
    die = move.die
    assert die is not None
    if die not in state.dice:
        left = " and ".join(str(d) for d in state.dice)
        raise IllegalAction(f"you have {left} to play, not a {die}")
    piece = find_piece(words, pos, seat, move)
    steps = move.steps
    count = len(steps)
    if params.exact_steps and count != die:
        raise IllegalAction(f"a move uses exactly the die: {count} steps given for a {die}")
    if count > die:
        raise IllegalAction(f"{count} steps given for a {die}; a move has at most {die}")
    masks = pos.masks()
    passing, ending = pos.forbidden(piece, masks)
    if move.piece == "+":
        home = params.home
        if pos.own_specials(seat, piece) & (1 << home):
            raise IllegalAction(
                f"{square_label(words, params, home)} already holds one of your pieces"
            )
        if passing & (1 << home):
            raise IllegalAction(_blocked_reason(words, pos, piece, home, masks, False))
        square, facing = home, FACING_LETTERS.index(steps[0])
        steps = steps[1:]
    elif piece == DOG:
        square, facing = pos.dog_square, pos.dog_facing
    else:
        square, facing = pos.square[piece], pos.facing[piece]
    for token in steps:
        if token == "F":
            if facing == UP:
                raise IllegalAction(
                    f"a standing piece on {square_name(square)} cannot step; lie down first"
                )
            nxt = NEIGHBOUR[square][facing]
            if nxt < 0:
                raise IllegalAction(f"F from {square_name(square)} leaves the board")
            if passing & (1 << nxt):
                raise IllegalAction(_blocked_reason(words, pos, piece, nxt, masks, False))
            square = nxt
        elif token == "U":
            if facing == UP:
                raise IllegalAction(f"the piece on {square_name(square)} is already standing")
            facing = UP
        else:
            turn = FACING_LETTERS.index(token)
            if turn == facing:
                raise IllegalAction(f"the piece on {square_name(square)} already points {token}")
            if facing != UP and params.quarter_turns and (turn - facing) % 2 == 0:
                raise IllegalAction("turning around takes two quarter-turn steps")
            facing = turn
    if ending & (1 << square):
        raise IllegalAction(_blocked_reason(words, pos, piece, square, masks, True))
    busy = pos.dog_square == square if piece != DOG else False
    colour = pos.seats if piece == DOG else seat
    busy = busy or any(pos.owner[i] != colour for i in pos.at(square) if i != piece)
    # Clauses for every occupant are checked path by path when the pushes are made, which
    # proves each occupant can move; only otherwise is the landing searched here.
    covered = (
        piece != DOG
        and pos.dog_square != square
        and len(move.pushes) == len(pos.enemies_at(square, seat))
    )
    if busy and not covered and not pos.landing_ok(piece, square, facing):
        raise IllegalAction(
            f"you may not end on {square_name(square)}: a piece there could not be pushed anywhere"
        )
    if piece == DOG:
        pos.dog_square, pos.dog_facing = square, facing
    else:
        pos.square[piece], pos.facing[piece], pos.status[piece] = square, facing, BOARD
    return piece, square


def landing(words: Words, state: MarsState, pos: Pos, seat: int, move: MoveText) -> int | None:
    """Where a move's steps lead, without checking them; None if its piece is unclear."""
    if move.piece == "+":
        square, facing, steps = (
            state.params.home,
            FACING_LETTERS.index(move.steps[0]),
            (move.steps[1:]),
        )
    elif move.piece == "dog":
        square, facing, steps = pos.dog_square, pos.dog_facing, move.steps
    else:
        try:
            piece = find_piece(words, pos, seat, move)
        except IllegalAction:
            return None
        square, facing, steps = pos.square[piece], pos.facing[piece], move.steps
    for token in steps:
        if token == "F":
            if facing != UP and square >= 0 and NEIGHBOUR[square][facing] >= 0:
                square = NEIGHBOUR[square][facing]
        else:
            facing = FACING_LETTERS.index(token)
    return square


def lands_busy(words: Words, state: MarsState, pos: Pos, seat: int, move: MoveText) -> bool:
    """Whether a move (not yet checked) would end where it has something to push."""
    square = landing(words, state, pos, seat, move)
    if square is None:
        return True
    if move.piece == "dog":
        return bool(pos.at(square))
    return pos.dog_square == square or bool(pos.enemies_at(square, seat))


def check_single(state: MarsState, seat: int, die: int) -> None:
    """Refuse a first move that strands the other die while both could be used."""
    allowed, full = moves.first_moves(state, seat)
    if full:
        raise IllegalAction(
            "you must use both dice when you can: that move loses the other die, but "
            f"for example {allowed[0].text!r} keeps it playable"
        )
    if allowed and die not in {c.die for c in allowed}:
        raise IllegalAction(f"only one die can be used: play it with the {allowed[0].die}")
