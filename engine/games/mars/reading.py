"""Reading what a player typed against the position, and where an action goes on the board."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...errors import InvalidAction, RulesError
from .geometry import BOARD, FACING_LETTERS, NEIGHBOUR, UP, square_name
from .moves import piece_label
from .notation import Clause, MoveText, PushText, designator, format_move, format_pushes, parse
from .perform import infer_die, perform
from .resolution import Resolution
from .state import MarsState, to_pos
from .words import Words


def walk(square: int, path: str) -> int:
    """The square a push path ends on, one square per letter (N, E, S, W)."""
    for letter in path:
        nxt = NEIGHBOUR[square][FACING_LETTERS.index(letter)]
        if nxt >= 0:
            square = nxt
    return square


def canonical(words: Words, state: MarsState, seat: int, text: str) -> str:
    """What a player typed, in canonical notation: the die, a short designator, the pushes."""
    parsed = parse(text, state.seats)
    if isinstance(parsed, PushText):
        pushes = tuple(c for c in parsed.pushes if c.path)
        if not pushes:
            raise InvalidAction(f"cannot read {text.strip()!r}: a push needs a path like 'x gS:N'")
        return format_pushes(pushes)
    if parsed.die is None:
        parsed = replace(parsed, die=infer_die(state, parsed))
    assert parsed.die is not None
    name = parsed.piece
    steps = parsed.steps
    start: tuple[int, int] | None = None
    if name == "+":
        start, steps = (state.params.home, FACING_LETTERS.index(steps[0])), steps[1:]
    elif name == "dog":
        if state.dog is not None:
            start = (state.dog[1], state.dog[2])
    else:
        name = designator(parsed.square, parsed.size, parsed.facing)
        kinds = {
            (p.size, p.facing)
            for p in state.pieces
            if p.status == BOARD and p.owner == seat and p.square == parsed.square
        }
        matching = {
            (z, f)
            for z, f in kinds
            if (parsed.size is None or z == parsed.size)
            and (parsed.facing is None or f == parsed.facing)
        }
        if len(matching) == 1:
            ((size, facing),) = matching
            name = piece_label(parsed.square, kinds, size, facing)
            start = (parsed.square, facing)
    pushes = tuple(c for c in parsed.pushes if c.path)
    if not pushes and start is not None:
        square, facing = start
        for token in steps:
            if token == "F":
                if facing != UP and NEIGHBOUR[square][facing] >= 0:
                    square = NEIGHBOUR[square][facing]
            elif token == "U":
                facing = UP
            else:
                facing = FACING_LETTERS.index(token)
        enemy = seat if name != "dog" else -1
        busy = (state.dog is not None and state.dog[1] == square and name != "dog") or any(
            p.status == BOARD and p.square == square and p.owner != enemy for p in state.pieces
        )
        if busy:
            pushes = _forced_pushes(words, state, seat, replace(parsed, pushes=()))
    return format_move(parsed.die, name, parsed.steps, pushes)


def _forced_pushes(words: Words, state: MarsState, seat: int, move: MoveText) -> tuple[Clause, ...]:
    """The clauses a move implies when its pushes have one legal outcome (else none)."""
    if state.roll is None or state.chooser is not None or seat != state.to_move:
        return ()
    try:
        pos = to_pos(state)
        piece, square = perform(words, state, pos, seat, move)
    except RulesError:
        return ()
    res = Resolution(pos, [(piece, square)], 0, [], state.winner)
    res.moving = True
    res.probe = piece
    res.run()
    if res.probe is None and len(res.probed) == 1:
        return res.probed[0].clauses
    return ()


def annotate(words: Words, state: MarsState, seat: int, action: str) -> dict[str, Any]:
    """Where a move's piece starts and lands, or where a pushed piece goes."""
    try:
        parsed = parse(action, state.seats)
    except InvalidAction:
        return {}
    if isinstance(parsed, PushText):
        if not state.queue:
            return {}
        origin = state.queue[0][1]
        return {
            "from": square_name(origin),
            "to": [square_name(walk(origin, c.path)) for c in parsed.pushes],
        }
    if parsed.die is None:
        return {}
    if parsed.piece == "+":
        start = state.params.home
    elif parsed.piece == "dog":
        if state.dog is None:
            return {}
        start = state.dog[1]
    elif parsed.square is not None:
        start = parsed.square
    else:
        return {}
    try:
        _, landing = perform(words, state, to_pos(state), seat, parsed)
    except RulesError:
        return {}
    return {"from": square_name(start), "to": [square_name(landing)]}
