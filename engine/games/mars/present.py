"""What pages, mails and bots read of a Martian Race or Mad Dog game: its picture and sentences."""

from __future__ import annotations

from typing import Any, Protocol

from ...core import Await, Pending
from ...errors import IllegalAction, InvalidAction
from .geometry import (
    BOARD,
    COLOURS,
    DESTROYED,
    FACING_LETTERS,
    FINISHED,
    INITIALS,
    RESERVE,
    SIZE_LETTERS,
    SIZE_WORDS,
    UP,
    square_name,
)
from .notation import MoveText, PushText, parse
from .perform import find_piece
from .position import Pos
from .state import MarsState, to_pos
from .words import Words, move_words, push_words, seat_name


class Names(Words, Protocol):
    """What a view needs to know about the game beyond its state."""

    kind: str
    title: str
    goal_roles: tuple[str, str, str, str]


def describe(words: Words, state: MarsState, seat: int, action: str) -> str:
    """Say in a sentence what a seat's action does in this state (nothing here is secret)."""
    try:
        parsed = parse(action, state.seats)
    except InvalidAction:
        return f"{seat_name(seat)} plays {action}"
    return sentence(words, state, to_pos(state), seat, action, parsed)


def sentence(
    words: Words,
    state: MarsState,
    pos: Pos,
    seat: int,
    action: str,
    parsed: MoveText | PushText,
) -> str:
    """The sentence of a seat's parsed action, read on pos (the position before it)."""
    who = seat_name(seat)
    if isinstance(parsed, PushText):
        return f"{who} pushes " + ", ".join(push_words(c) for c in parsed.pushes)
    params = state.params
    if parsed.piece == "dog":
        square, facing, thing = pos.dog_square, pos.dog_facing, "Mad Dog"
    elif parsed.piece == "+":
        square, facing, thing = params.home, FACING_LETTERS.index(parsed.steps[0]), None
    else:
        try:
            piece = find_piece(words, pos, seat, parsed)
        except IllegalAction:
            return f"{who} plays {action}"
        square, facing = pos.square[piece], pos.facing[piece]
        thing = SIZE_WORDS[pos.size[piece]]
    return move_words(words, params, parsed, who, thing, square, facing)


def board_view(
    rules: Names, state: MarsState, seat: int | None, pending: Pending, scores: tuple[int, ...]
) -> dict[str, Any]:
    """The view of a state for one seat or a spectator (nothing here is hidden)."""
    params = state.params
    board = []
    for piece in state.pieces:
        if piece.status != BOARD:
            continue
        board.append(
            {
                "square": square_name(piece.square),
                "seat": piece.owner,
                "colour": COLOURS[piece.owner],
                "size": piece.size,
                "size_name": SIZE_WORDS[piece.size],
                "facing": "up" if piece.facing == UP else FACING_LETTERS[piece.facing],
                "standing": piece.facing == UP,
                "label": f"{INITIALS[piece.owner]}{SIZE_LETTERS[piece.size]}"
                + ("^" if piece.facing == UP else FACING_LETTERS[piece.facing].lower()),
            }
        )
    board.sort(key=lambda p: (p["square"], p["seat"], p["size"]))
    players = []
    for s in range(state.seats):
        mine = [p for p in state.pieces if p.owner == s]
        players.append(
            {
                "seat": s,
                "colour": COLOURS[s],
                "reserve": sum(p.status == RESERVE for p in mine),
                "on_board": sum(p.status == BOARD for p in mine),
                "finished": sum(p.status == FINISHED for p in mine),
                "destroyed": sum(p.status == DESTROYED for p in mine),
                "resigned": s in state.resigned,
            }
        )
    specials = [
        {
            "role": role,
            "name": name,
            "square": square_name(square),
            "size": None if role == "home" or not params.goal_gates else k,
        }
        for k, (role, name, square) in enumerate(
            zip(rules.goal_roles, rules.goal_names, params.specials, strict=True)
        )
    ]
    roll = list(state.roll) if state.roll else None
    used: list[bool] = []
    if state.roll:
        left = list(state.dice)
        for die in state.roll:
            if die in left:
                left.remove(die)
                used.append(False)
            else:
                used.append(True)
    dog = None
    if state.dog is not None:
        owner, square, facing = state.dog
        dog = {
            "square": square_name(square),
            "seat": owner,
            "colour": COLOURS[owner],
            "facing": "up" if facing == UP else FACING_LETTERS[facing],
            "standing": facing == UP,
        }
    return {
        "game": rules.kind,
        "title": rules.title,
        "players": [COLOURS[s] for s in range(state.seats)],
        "viewer": seat,
        "piece_word": rules.piece_word,
        "specials": specials,
        "board": board,
        "seats": players,
        "pieces_per_player": params.martians,
        "dice": roll,
        "dice_used": used,
        "dice_left": list(state.dice),
        "to_move": state.to_move,
        "awaiting": list(pending.seats) if isinstance(pending, Await) else [],
        "awaiting_kind": pending.kind if isinstance(pending, Await) else None,
        "push_square": square_name(state.queue[0][1]) if state.chooser is not None else None,
        "turns": state.turns,
        "max_turns": params.max_turns,
        "mad_dog_phase": params.dog_phase,
        "dog": dog,
        "victims": state.victims,
        "winner": state.winner,
        "scores": list(scores),
        "finished": state.result is not None,
        "outcome": state.result.to_json() if state.result else None,
        "last": (
            {"seat": state.last[0], "action": state.last[1], "text": "; ".join(state.last[2])}
            if state.last
            else None
        ),
    }


# --- snapshots ------------------------------------------------------------------------------
