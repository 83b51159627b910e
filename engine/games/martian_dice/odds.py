"""The points a Martian Dice turn can expect, with the best picks and stops, computed exactly.

A turn's future depends on less than what is aside: the dice left, rays minus tanks (clipped
where it can no longer change the outcome), how many kinds of earthling are taken and how
many earthlings. The earthlings not yet taken are alike (each a sixth of a die, each worth
one point a die and a third of the bonus), so a roll is told by its tanks, its rays and the
counts of the untaken kinds it shows, whichever kinds those are. From a turn's start the
key takes 709 values where the face counts aside took 6,176, and a roll of thirteen dice has
at most 1,141 outcomes that matter where its face counts have 2,380: the whole table takes
tens of milliseconds where the search over face counts took most of a second or more.
"""

from __future__ import annotations

import math
from functools import cache

from .dice import (
    BONUS,
    CHICKEN,
    COW,
    DICE,
    EARTHLINGS,
    HUMAN,
    RAY,
    TANK,
    Counts,
)

KINDS = len(EARTHLINGS)
SIXTH = 1 / 6

# (dice left, rays minus tanks, kinds of earthling taken, earthlings taken)
Key = tuple[int, int, int, int]
# (tanks, rays, the distinct positive counts of the untaken kinds, chance)
Outcome = tuple[int, int, tuple[int, ...], float]


def key_of(aside: Counts) -> Key:
    """The canonical key of the dice aside: all that the rest of the turn depends on."""
    earthlings = (aside[HUMAN], aside[COW], aside[CHICKEN])
    kinds = sum(1 for n in earthlings if n)
    return _key(DICE - sum(aside), aside[RAY] - aside[TANK], kinds, sum(earthlings))


def _key(left: int, margin: int, kinds: int, earthlings: int) -> Key:
    # More rays than tanks could ever come is safe; fewer than could ever be made up is lost.
    return left, max(-left - 1, min(margin, left)), kinds, earthlings


def _banked(margin: int, kinds: int, earthlings: int) -> int:
    if margin < 0:
        return 0
    return earthlings + (BONUS if kinds == KINDS else 0)


@cache
def _earthlings(dice: int, kinds: int) -> dict[tuple[int, ...], float]:
    """How that many earthling dice fall on the untaken kinds: the distinct positive counts."""
    found: dict[tuple[int, ...], float] = {}
    for first in range(dice + 1):
        for second in range(dice - first + 1):
            counts = (first, second, dice - first - second)
            ways = math.factorial(dice) / math.prod(math.factorial(n) for n in counts)
            shown = tuple(sorted({n for n in counts[kinds:] if n}))
            found[shown] = found.get(shown, 0.0) + ways / KINDS**dice
    return found


@cache
def _outcomes(dice: int, kinds: int) -> tuple[Outcome, ...]:
    """The rolls of that many dice as they matter with that many kinds taken, with chances."""
    found: list[Outcome] = []
    for tanks in range(dice + 1):
        for rays in range(dice - tanks + 1):
            rest = dice - tanks - rays
            ways = math.factorial(dice) / (
                math.factorial(tanks) * math.factorial(rays) * math.factorial(rest)
            )
            chance = ways * SIXTH**tanks * (2 * SIXTH) ** rays * (KINDS * SIXTH) ** rest
            found.extend(
                (tanks, rays, shown, chance * share)
                for shown, share in _earthlings(rest, kinds).items()
            )
    return tuple(found)


@cache
def _after_pick(key: Key) -> float:
    """The expected points of a turn from here, stopping or rolling on at best."""
    left, margin, kinds, earthlings = key
    banked = _banked(margin, kinds, earthlings)
    return banked if left == 0 else max(banked, _expected(key))


def _worth(key: Key, tanks: int, rays: int, shown: tuple[int, ...]) -> float:
    """The expected points after a roll, with the best pick (none possible: what is aside)."""
    left, margin, kinds, earthlings = key
    margin -= tanks
    picks = [_key(left - tanks - n, margin, kinds + 1, earthlings + n) for n in shown]
    if rays:
        picks.append(_key(left - tanks - rays, margin + rays, kinds, earthlings))
    if not picks:
        return _banked(margin, kinds, earthlings)
    return max(_after_pick(pick) for pick in picks)


@cache
def _expected(key: Key) -> float:
    """The average worth of a roll of every die left."""
    left, _, kinds, _ = key
    return sum(
        chance * _worth(key, tanks, rays, shown)
        for tanks, rays, shown, chance in _outcomes(left, kinds)
    )


def expected_roll(aside: Counts) -> float:
    """The expected points of the turn after a roll of every die not aside, played at best."""
    return _expected(key_of(aside))


def roll_worth(aside: Counts, rolled: Counts) -> float:
    """The expected points of the turn after this roll, with the best pick and play after it."""
    key = key_of(aside)
    taken = {HUMAN: aside[HUMAN], COW: aside[COW], CHICKEN: aside[CHICKEN]}
    shown = tuple(rolled[face] for face in EARTHLINGS if rolled[face] and not taken[face])
    return _worth(key, rolled[TANK], rolled[RAY], shown)
