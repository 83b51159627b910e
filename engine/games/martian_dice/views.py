"""What players see: a sentence per pick, and the dice, scores and duel as JSON."""

from __future__ import annotations

from typing import Any

from ...core import Await
from ...errors import InvalidAction
from .dice import (
    DICE,
    EARTHLINGS,
    FACE_NAMES,
    RAY,
    TANK,
    TARGET,
    Counts,
    add,
    count_words,
    counts_of,
    face_names,
    named,
    turn_points,
)
from .endgame import leaders, next_duelist
from .notation import ROLL, read_action
from .state import DiceState, pending, remaining_after, seat_name
from .turns import legal


def describe(state: DiceState, seat: int, action: str) -> str:
    """Say in a sentence what a seat's pick does in this state (nothing here is secret)."""
    who = seat_name(seat)
    try:
        face, decision = read_action(action)
    except InvalidAction:
        return f"{who} plays {action}"
    left = remaining_after(state, face)
    if state.rolled is None or left is None or (left and decision is None):
        return f"{who} plays {action}"
    taken = counts_of(state.rolled)[face]
    aside = add(state.aside, face, taken)
    takes = f"{who} takes the {count_words(taken, face)}"
    if left and decision == ROLL:
        return f"{takes} and rolls the {left} remaining {'die' if left == 1 else 'dice'}"
    score = _score_sentence(aside)
    if not left:
        return f"{takes}, the last dice, {score}"
    return f"{takes} and stops, {score}"


def _score_sentence(aside: Counts) -> str:
    if aside[TANK] > aside[RAY]:
        tanks, rays = count_words(aside[TANK], TANK), count_words(aside[RAY], RAY)
        return f"scoring nothing: {tanks} beat {rays}"
    points = turn_points(aside)
    bonus = (
        " with the bonus for all three earthlings"
        if points > sum(aside[e] for e in EARTHLINGS)
        else ""
    )
    return f"scoring {points} {'point' if points == 1 else 'points'}{bonus}"


def view(state: DiceState, seat: int | None, kind: str) -> dict[str, Any]:
    """Draw the dice, the scores, the duel and the last turn; nothing here is secret."""
    due = pending(state)
    # The 13 dice: set aside by type, then the roll awaiting a pick, then the unrolled.
    dice: list[dict[str, Any]] = [
        {"face": FACE_NAMES[face], "where": "aside"}
        for face in range(5)
        for _ in range(state.aside[face])
    ]
    dice += [
        {"face": name, "where": "rolled"}
        for name in face_names(state.rolled or ())
        if name != FACE_NAMES[TANK]
    ]
    dice += [{"face": None, "where": "cup"} for _ in range(DICE - len(dice))]
    in_turn = state.first is not None and not state.dueling and state.result is None
    return {
        "game": kind,
        "players": [seat_name(s) for s in range(state.seats)],
        "viewer": seat,
        "target": TARGET,
        "first_player": state.first,
        "to_move": state.to_move if in_turn else None,
        "round": state.round,
        "final_round": state.end_triggered,
        "played_this_round": list(state.played),
        "played_final_round": list(state.played) if state.end_triggered else [],
        "scores": list(state.scores),
        "resigned": list(state.resigned),
        "rolled": face_names(state.rolled) if state.rolled is not None else None,
        "rolled_counts": named(counts_of(state.rolled)) if state.rolled is not None else None,
        "aside": named(state.aside),
        "available": state.available if in_turn else 0,
        "turn_points": turn_points(state.aside),
        "picks": list(state.picks),
        "dice": dice,
        "legal": list(legal(state, state.to_move)) if state.to_move is not None else [],
        "duel": _duel_view(state),
        "last": _last_view(state),
        "awaiting": list(due.seats) if isinstance(due, Await) else [],
        "finished": state.result is not None,
        "outcome": state.result.to_json() if state.result else None,
    }


def _duel_view(state: DiceState) -> dict[str, Any] | None:
    if not state.dueling:
        return None
    return {
        "seats": list(leaders(state)),
        "rounds": [[{"seat": s, "rays": r} for s, r in rnd] for rnd in state.duels],
        "next": next_duelist(state),
    }


def _last_view(state: DiceState) -> dict[str, Any] | None:
    last = state.last
    if last is None:
        return None
    return {
        "seat": last.seat,
        "name": seat_name(last.seat),
        "rolls": [face_names(roll) for roll in last.rolls],
        "picks": list(last.picks),
        "aside": named(last.aside),
        "points": last.points,
        "ending": last.ending,
    }


def rolled_words(values: tuple[int, ...]) -> str:
    """A roll of the dice by its faces, most first: "Rolled 2 death rays, 1 human (3 2 4)"."""
    counts = counts_of(values)
    shown = sorted((-n, face) for face, n in enumerate(counts) if n)
    parts = [count_words(-n, face) for n, face in shown]
    numbers = " ".join(str(v) for v in values)
    return f"Rolled {', '.join(parts)} ({numbers})" if parts else "Rolled nothing"
