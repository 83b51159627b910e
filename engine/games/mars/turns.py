"""The turn flow: the roll, a move and its pushes, resignations, the next seat and the end."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core import Outcome
from ...errors import IllegalAction
from . import moves, quick
from .choices import hint, legal
from .geometry import BOARD, FINISHED, OUT, RESERVE
from .notation import MoveText, PushText, parse
from .perform import check_single, infer_die, lands_busy, perform, resolution_of
from .present import describe, sentence
from .resolution import Resolution
from .state import Last, MarsState, chained, evolve, piece_alive, to_pos
from .words import Words, seat_name


def rolled(words: Words, state: MarsState, values: tuple[int, ...]) -> MarsState:
    """Take the roll; a seat that can use neither die forfeits the turn."""
    if state.roll is not None or state.chooser is not None:
        raise IllegalAction("the dice are already rolled")
    if len(values) != 2 or not (1 <= values[0] <= 6 and 1 <= values[1] <= 6):
        raise IllegalAction(f"a roll of two dice is due, not {list(values)}")
    after = evolve(state, {"roll": tuple(values), "dice": tuple(values)})
    if quick.rests(state, state.to_move):
        return after
    pos = to_pos(after)
    if any(moves.usable(pos, state.to_move, die) for die in set(values)):
        return after
    who = seat_name(state.to_move)
    text = f"{who} cannot use {values[0]}-{values[1]} and forfeits the turn"
    return end_turn(words, replace(after, last=chained(state, state.to_move, "forfeit", text)))


def played(words: Words, state: MarsState, seat: int, action: str) -> MarsState:
    """Apply a push answer, or a move with the pushes it names, and resolve what follows."""
    parsed = parse(action, state.seats)
    if state.chooser is not None:
        text = describe(words, state, seat, action)
        if seat != state.chooser:
            raise IllegalAction(f"{seat_name(state.chooser)} must choose a push now")
        if not isinstance(parsed, PushText):
            raise IllegalAction(
                f"a push must be chosen first: reply like {legal(state, seat)[0]!r}"
            )
        res = resolution_of(state)
        done = res.run(parsed.pushes)
        return settle(words, state, res, done, state.dice, chained(state, seat, action, text))
    if seat != state.to_move or state.roll is None:
        raise IllegalAction(f"it is not {seat_name(seat)}'s turn to move")
    if not isinstance(parsed, MoveText):
        raise IllegalAction(f"there is no push to choose now; {hint(state, seat)}")
    if parsed.die is None:
        parsed = replace(parsed, die=infer_die(state, parsed))
    changes = quick.simple_move(words, state, seat, parsed, action)
    if changes is not None:
        # The moved piece may rest where it landed, so moves.usable holds for the other die.
        return evolve(state, changes) if changes["dice"] else end_turn(words, state, changes)
    pos = to_pos(state)
    text = sentence(words, state, pos, seat, action, parsed)
    busy = parsed.pushes or lands_busy(words, state, pos, seat, parsed)
    before = pos.key() if busy else None
    piece, square = perform(words, state, pos, seat, parsed)
    assert parsed.die is not None
    rest = list(state.dice)
    rest.remove(parsed.die)
    # Positions matter to the repetition guard only once something is pushed.
    seen = [] if before is None else [before, pos.key()]
    res = Resolution(pos, [(piece, square)], 0, seen, state.winner)
    res.moving = True
    done = res.run(parsed.pushes, expect=piece)
    if (
        len(state.dice) == 2
        and not moves.surely_enabled(res, done, seat, piece)
        and not moves.enables(res, done, seat, rest[0], state.winner)
    ):
        check_single(state, seat, parsed.die)
    return settle(words, state, res, done, tuple(rest), chained(state, seat, action, text))


def resigned(words: Words, state: MarsState, seat: int) -> MarsState:
    """Take a seat's pieces (and its Dog) off the board; the game or the resolution goes on."""
    if seat in state.resigned:
        raise IllegalAction(f"{seat_name(seat)} has already resigned")
    pos = to_pos(state)
    for i, owner in enumerate(pos.owner):
        if owner == seat and piece_alive(pos.status[i]):
            pos.status[i] = OUT
    if pos.dog_owner == seat:
        pos.dog_square = -1
    gone = (*state.resigned, seat)
    text = f"{seat_name(seat)} resigns"
    state = replace(
        state,
        pieces=pos.pieces(),
        dog=pos.dog(),
        resigned=gone,
        last=chained(state, seat, "resign", text),
    )
    active = [s for s in range(state.seats) if s not in gone]
    if len(active) <= 1:
        return finish(words, state, "everyone else resigned", only=active[0] if active else None)
    if state.chooser is not None:
        res = resolution_of(state)
        return settle(words, state, res, res.run(), state.dice, state.last)
    if state.to_move == seat:
        return end_turn(words, state)
    return state


def settle(
    words: Words,
    state: MarsState,
    res: Resolution,
    done: bool,
    dice: tuple[int, ...],
    last: Last | None,
) -> MarsState:
    """The state after a resolution ran: paused, the game over, or the turn going on."""
    pos = res.pos
    changes: dict[str, Any] = {
        "pieces": pos.pieces(),
        "dog": pos.dog(),
        "victims": pos.victims,
        "winner": res.winner,
        "dice": dice,
        "last": last,
        "calm": 0 if res.progress else state.calm,
    }
    if res.over:
        return finish(words, evolve(state, changes), "")
    if not done:
        changes.update(
            queue=tuple(res.queue),
            stage=res.stage,
            chooser=res.chooser(),
            seen=tuple(res.seen),
        )
        return evolve(state, changes)
    changes.update(queue=(), stage=0, chooser=None, seen=())
    if res.winner is not None and not any(map(piece_alive, pos.status)):
        new = evolve(state, changes)
        return finish(words, new, f"every {words.piece_word} has finished or been destroyed")
    mover = state.to_move
    released = state.winner is None and res.winner == mover
    if dice and not released and mover not in state.resigned and moves.usable(pos, mover, dice[0]):
        return evolve(state, changes)
    return end_turn(words, state, changes)


def _has_turn(state: MarsState, seat: int) -> bool:
    if seat in state.resigned:
        return False
    if state.dog is not None and state.dog[0] == seat:
        return True
    for p in state.pieces:
        if p.owner == seat and (p.status == BOARD or p.status == RESERVE):  # piece_alive
            return True
    return False


def end_turn(words: Words, state: MarsState, changes: dict[str, Any] | None = None) -> MarsState:
    """Pass the turn to the next seat with something to move, or end a guarded game."""
    fresh = bool(changes)
    if changes:
        state = evolve(state, changes)
    params = state.params
    mover = state.to_move
    turns = state.turns + 1
    dog_turns = state.dog_turns + (state.dog is not None and state.dog[0] == mover)
    calm = state.calm + 1
    after = {"roll": None, "dice": (), "turns": turns, "dog_turns": dog_turns, "calm": calm}
    reason = ""
    active = state.seats - len(state.resigned)
    if params.max_turns and turns >= params.max_turns:
        reason = f"the turn limit of {params.max_turns} turns was reached"
        if words.limits_named:
            reason = f"ended by the {params.max_turns}-turn limit: {reason}"
    elif params.stall_rounds and calm >= params.stall_rounds * active:
        reason = (
            f"no {words.piece_word} grew, finished or was destroyed in {params.stall_rounds} rounds"
        )
        if words.limits_named:
            reason = f"ended by the {params.stall_rounds}-round stall limit: {reason}"
    elif params.dog_round_limit and dog_turns >= params.dog_round_limit:
        reason = f"the Mad Dog phase limit of {params.dog_round_limit} rounds was reached"
        if words.limits_named:
            reason = f"ended by the {params.dog_round_limit}-round Mad Dog phase limit: {reason}"
    if reason:
        return finish(words, evolve(state, after), reason)
    for k in range(1, state.seats + 1):
        seat = (mover + k) % state.seats
        if _has_turn(state, seat):
            after["to_move"] = seat
            if fresh:
                # The state made above is seen by nobody yet: finish it instead of copying it.
                state.__dict__.update(after)
                return state
            return evolve(state, after)
    return finish(words, evolve(state, after), f"nobody has a {words.piece_word} left to move")


def scores(state: MarsState) -> tuple[int, ...]:
    """Finished pieces per seat, plus the Dog's bonus for the winner in the Mad Dog phase."""
    finished = [0] * state.seats
    for piece in state.pieces:
        if piece.status == FINISHED:
            finished[piece.owner] += 1
    if state.params.dog_phase and state.winner is not None:
        finished[state.winner] += 5 + state.victims
    return tuple(finished)


def finish(words: Words, state: MarsState, reason: str, only: int | None = None) -> MarsState:
    """End the game: rank the seats (resigned ones last, latest resignation worst)."""
    totals = scores(state)
    active = [s for s in range(state.seats) if s not in state.resigned]
    ranks = [0] * state.seats
    if only is not None:
        ranks[only] = 1
        reason = f"{seat_name(only)} wins: {reason}"
    elif state.winner is not None and not state.params.dog_phase:
        for s in active:
            ranks[s] = 1 if s == state.winner else 2
        reason = f"{seat_name(state.winner)} wins: every {words.piece_word} finished"
    else:
        for s in active:
            ranks[s] = 1 + sum(totals[o] > totals[s] for o in active)
        shown = ", ".join(f"{seat_name(s)} {totals[s]}" for s in active)
        reason = f"{reason}; scores {shown}"
    worst = max(ranks) if any(ranks) else 0
    for k, seat in enumerate(reversed(state.resigned)):
        ranks[seat] = worst + 1 + k
    outcome = Outcome(tuple(ranks), tuple(float(s) for s in totals), reason)
    return replace(state, result=outcome, queue=(), stage=0, chooser=None, seen=())
