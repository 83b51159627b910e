"""The house bot: one-step lookahead over every roll of the remaining dice."""

from __future__ import annotations

from functools import lru_cache
from math import factorial

from .dice import (
    DICE,
    FACE_CHANCE,
    RAY,
    TANK,
    TARGET,
    Counts,
    add,
    counts_of,
    pickable,
    turn_points,
)
from .notation import ROLL, STOP, format_action
from .state import DiceState, remaining_after
from .turns import legal


@lru_cache(maxsize=4096)
def _outcomes(n: int) -> tuple[tuple[Counts, float], ...]:
    """List every roll of n dice as face counts, with its probability."""
    found: list[tuple[Counts, float]] = []
    for t in range(n + 1):
        for r in range(n - t + 1):
            for h in range(n - t - r + 1):
                for c in range(n - t - r - h + 1):
                    counts: Counts = (t, r, h, c, n - t - r - h - c)
                    ways = factorial(n)
                    chance = 1.0
                    for k, p in zip(counts, FACE_CHANCE, strict=True):
                        ways //= factorial(k)
                        chance *= p**k
                    found.append((counts, ways * chance))
    return tuple(found)


def _best_stop(aside: Counts, rolled: Counts) -> int:
    """Score the best pick from a roll followed by stopping (tanks already aside)."""
    picks = pickable(aside, rolled)
    if not picks:
        return turn_points(aside)
    return max(turn_points(add(aside, f, rolled[f])) for f in picks)


@lru_cache(maxsize=65536)
def roll_value(aside: Counts, avail: int) -> float:
    """Expect the points of rolling once more, taking the best type and then stopping."""
    total = 0.0
    for rolled, chance in _outcomes(avail):
        total += chance * _best_stop(add(aside, TANK, rolled[TANK]), rolled)
    return total


def bot_choice(aside: Counts, rolled: Counts, score: int, need: int | None) -> tuple[int, bool]:
    """Choose the type to take and whether to roll on, looking one roll ahead.

    Each pick is valued at the better of stopping now and the expected points of exactly
    one more roll (best pick, then stop); the bot rolls on when that roll is worth more
    than the points in hand. Two overrides come from the game around the turn: in the
    final round a bot whose points in hand are short of `need` (what it takes to lead)
    keeps rolling, since stopping loses anyway; otherwise a bot that would reach TARGET
    by stopping stops.
    """

    def value(face: int) -> tuple[float, int]:
        after = add(aside, face, rolled[face])
        left = DICE - sum(after)
        stop = turn_points(after)
        ahead = roll_value(after, left) if left else 0.0
        return (max(stop, ahead), face == RAY)

    face = max(pickable(aside, rolled), key=value)
    after = add(aside, face, rolled[face])
    left = DICE - sum(after)
    points = turn_points(after)
    if not left:
        return face, False
    if need is not None and points < need:
        return face, True
    if score + points >= TARGET:
        return face, False
    return face, roll_value(after, left) > points


def bot_pick(state: DiceState, seat: int) -> str | None:
    """Choose the bot's pick by bot_choice, None if the seat has no pick to make."""
    if state.rolled is None or state.to_move != seat or legal(state, seat) == ():
        return None
    score = state.scores[seat]
    need = None
    if state.end_triggered:
        others = [state.scores[s] for s in state.active() if s != seat]
        need = max(others) - score + 1 if others else None
    face, again = bot_choice(state.aside, counts_of(state.rolled), score, need)
    if remaining_after(state, face) == 0:
        return format_action(face, None)
    return format_action(face, ROLL if again else STOP)
