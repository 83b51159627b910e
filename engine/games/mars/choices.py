"""What a seat may do now: its legal actions, a hint of them, and the house bot's pick."""

from __future__ import annotations

from ...errors import IllegalAction
from . import moves
from .geometry import BOARD, DOG
from .notation import format_pushes
from .perform import resolution_of
from .state import MarsState, to_pos
from .words import seat_name


def legal(state: MarsState, seat: int) -> tuple[str, ...]:
    """Every legal action of the seat: its push choices, or its moves under the must-use rule."""
    if state.result is not None:
        return ()
    if state.chooser is not None:
        if seat != state.chooser:
            return ()
        res = resolution_of(state)
        res.probe = res.queue[0][0] if res.stage < 2 else DOG
        res.run()
        return tuple(format_pushes(c.clauses) for c in res.probed)
    if seat != state.to_move or state.roll is None or not state.dice:
        return ()
    if len(state.dice) == 2:
        found, _ = moves.first_moves(state, seat)
    else:
        found = list(moves.candidates(state, seat, state.dice))
    return tuple(dict.fromkeys(c.text for c in found))


def hint(state: MarsState, seat: int) -> str:
    """A few legal actions, for an error message."""
    options = legal(state, seat)
    if not options:
        return "no legal action exists"
    shown = ", ".join(repr(o) for o in options[:3])
    return f"legal actions include {shown}"


def bot_action(state: MarsState, seat: int) -> str:
    """The house bot: the move that brings its pieces nearest home; pushes take the first."""
    if state.chooser is not None or state.roll is None or seat != state.to_move:
        actions = legal(state, seat)
        if not actions:
            raise IllegalAction(f"{seat_name(seat)} has no legal action now")
        return actions[0]  # RULES §1.10: an unanswered push takes the first canonical path
    if len(state.dice) == 2:
        found, _ = moves.first_moves(state, seat)
    else:
        found = list(moves.candidates(state, seat, state.dice))
    if not found:
        raise IllegalAction(f"{seat_name(seat)} has no legal action now")
    pos = to_pos(state)
    best, best_score = found[0].text, float("-inf")
    for cand in found:
        if cand.res is None and cand.choice is None:
            after = pos.copy()
            if cand.piece == DOG:
                after.dog_square, after.dog_facing = cand.square, cand.facing
            else:
                after.square[cand.piece], after.facing[cand.piece] = cand.square, cand.facing
                after.status[cand.piece] = BOARD
        elif cand.choice is not None:
            after = pos.copy()
            if cand.piece != DOG:
                after.square[cand.piece], after.facing[cand.piece] = cand.square, cand.facing
                after.status[cand.piece] = BOARD
            for piece, end in cand.choice.pushed:
                after.square[piece] = end
        else:
            assert cand.res is not None
            after = cand.res.pos
        # Chained pushes are not followed: the bot judges where its own move leaves things.
        mine = moves.steps_left(after, seat)
        if mine == 0:
            return cand.text
        others = [moves.steps_left(after, s) for s in range(state.seats) if s != seat]
        score = -mine + 0.25 * min(others, default=0)
        if score > best_score:
            best, best_score = cand.text, score
    return best
