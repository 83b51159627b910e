"""A turn (the rulebook's Turn): roll, set tanks aside, pick a type, roll on or stop; next seat."""

from __future__ import annotations

from dataclasses import replace

from ...core import Await, Roll
from ...errors import IllegalAction
from .dice import NOTHING, PLURAL, SINGULAR, TANK, TARGET, add, counts_of, pickable, turn_points
from .endgame import duel_rolled, finish, settle_duel
from .notation import ROLL, STOP, format_action, parse_pick, read_action
from .state import DiceState, LastTurn, pending, remaining_after, seat_name


def rolled(state: DiceState, values: tuple[int, ...]) -> DiceState:
    """Pick the starting seat, record a duel roll, or set a roll's tanks aside."""
    due = pending(state)
    if not isinstance(due, Roll):
        raise IllegalAction("no roll is due: a pick is awaited")
    if len(values) != due.count or not all(1 <= v <= due.sides for v in values):
        raise IllegalAction(
            f"a roll of {due.count} dice of {due.sides} sides is due, not {list(values)}"
        )
    if state.first is None:
        first = values[0] - 1
        started = replace(state, first=first, round=1)
        return replace(started, to_move=started.active()[0])
    if state.dueling:
        return duel_rolled(state, values)
    seat = state.to_move
    assert seat is not None
    counts = counts_of(values)
    aside = add(state.aside, TANK, counts[TANK])
    state = replace(state, aside=aside, rolled=values, rolls=(*state.rolls, values))
    if not pickable(aside, counts):
        return _end_turn(state, "no pick")
    return state


def played(state: DiceState, seat: int, action: str) -> DiceState:
    """Set the picked type aside, then roll on or end the turn."""
    if state.to_move != seat or state.dueling:
        raise IllegalAction(f"it is not {seat_name(seat)}'s turn to pick")
    if state.rolled is None:
        raise IllegalAction("no pick is due: the dice must be rolled first")
    canonical = parse_pick(state, action)
    face, decision = read_action(canonical)
    counts = counts_of(state.rolled)
    if face not in pickable(state.aside, counts):
        if not counts[face]:
            why = f"no {SINGULAR[face]} was rolled"
        else:
            why = f"{PLURAL[face]} were already taken this turn"
        raise IllegalAction(
            f"{canonical!r} is not allowed: {why}; legal now: " + ", ".join(legal(state, seat))
        )
    aside = add(state.aside, face, counts[face])
    state = replace(state, aside=aside, rolled=None, picks=(*state.picks, canonical))
    if state.available == 0:
        return _end_turn(state, "all dice aside")
    if decision == STOP:
        return _end_turn(state, "stopped")
    return state


def _end_turn(state: DiceState, ending: str) -> DiceState:
    seat = state.to_move
    assert seat is not None
    points = 0 if ending == "resigned" else turn_points(state.aside)
    scores = list(state.scores)
    scores[seat] += points
    last = LastTurn(seat, state.rolls, state.picks, state.aside, points, ending)
    state = replace(
        state,
        scores=tuple(scores),
        end_triggered=state.end_triggered or scores[seat] >= TARGET,
        played=(*state.played, seat),
        aside=NOTHING,
        rolled=None,
        rolls=(),
        picks=(),
        last=last,
    )
    return _advance(state)


def _advance(state: DiceState) -> DiceState:
    """Pass the dice on: next seat of the round, a new round, or the end of the game."""
    active = state.active()
    if len(active) == 1:
        return finish(state)
    waiting = [s for s in active if s not in state.played]
    if waiting:
        return replace(state, to_move=waiting[0])
    if state.end_triggered:
        return finish(state)
    return replace(state, round=state.round + 1, played=(), to_move=active[0])


def resigned(state: DiceState, seat: int) -> DiceState:
    """Take a seat out of the game; its turn in progress scores nothing."""
    if not 0 <= seat < state.seats:
        raise IllegalAction(f"there is no seat {seat} in this game")
    if seat in state.resigned:
        raise IllegalAction(f"{seat_name(seat)} has already resigned")
    turn_ends = state.to_move == seat and state.first is not None and not state.dueling
    if turn_ends:
        # The abandoned turn scores nothing, then play goes on as after any turn.
        return _end_turn(replace(state, resigned=(*state.resigned, seat)), "resigned")
    state = replace(state, resigned=(*state.resigned, seat))
    if len(state.active()) == 1:
        return finish(state)
    if state.dueling:
        return settle_duel(state)
    return state


def legal(state: DiceState, seat: int) -> tuple[str, ...]:
    """List each allowed pick with 'roll' and 'stop', or bare when it takes the last dice.

    A pick that sets aside the last dice ends the turn whatever the player says, so
    'roll' and 'stop' are one outcome there, written as the bare letter (docs/playing.md: a
    decision is given "when dice remain"). Everywhere else rolling and stopping are
    distinct, even when no further roll can change the score: the player still chooses.
    """
    due = pending(state)
    if not isinstance(due, Await) or seat not in due.seats or state.rolled is None:
        return ()
    actions: list[str] = []
    for face in pickable(state.aside, counts_of(state.rolled)):
        if remaining_after(state, face) == 0:
            actions.append(format_action(face, None))
        else:
            actions += [format_action(face, ROLL), format_action(face, STOP)]
    return tuple(actions)
