"""Luck: the dice each seat received against what it could expect, and a test that dice are fair.

A game's rules say what each roll was worth to the seat it was rolled for and what it could
expect (their luck model, engine/capabilities.py); a game without one shows no luck. A
seat's luck is the sum over its rolls of received minus expected.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engine


@dataclass(frozen=True)
class Luck:
    """Per seat: how many rolls it received, their worth, and what they were expected to be."""

    rolls: tuple[int, ...]
    received: tuple[float, ...]
    expected: tuple[float, ...]

    @property
    def luck(self) -> tuple[float, ...]:
        """Received minus expected, per seat."""
        return tuple(r - e for r, e in zip(self.received, self.expected, strict=True))


def game_luck(
    kind: str, seats: int, options: Mapping[str, Any], events: Iterable[engine.Event]
) -> Luck | None:
    """Each seat's dice against expectation over a game's events (None: a game without it)."""
    rules = engine.rules_for(kind)
    if rules.luck is None:
        return None
    state = rules.start(seats, options)
    rolls, received, expected = [0] * seats, [0.0] * seats, [0.0] * seats
    for event in events:
        if isinstance(event, engine.Rolled):
            worth = rules.luck.roll(state, event.values)
            if worth is not None:
                rolls[worth.seat] += 1
                received[worth.seat] += worth.received
                expected[worth.seat] += worth.expected
        state = engine.step(rules, state, event)
    return Luck(tuple(rolls), tuple(received), tuple(expected))


def has_luck(kind: str) -> bool:
    """Whether a game kind measures luck (its rules have a luck model)."""
    return engine.rules_for(kind).luck is not None


# --- fairness: are the revealed dice uniform? ----------------------------------------------


def regularized_upper_gamma(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): a series below a + 1, a continued fraction above."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Lentz's method for the continued fraction of Q.
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return math.exp(log_front) * h


@dataclass(frozen=True)
class Fairness:
    """Counts of the faces of every revealed die of one size, and the chi-square test.

    For shuffles (`shuffle` true) of `sides` items, the "face" is the item dealt first.
    """

    sides: int
    counts: tuple[int, ...]  # face 1 (or item 0) first
    shuffle: bool = False

    @property
    def total(self) -> int:
        """How many dice."""
        return sum(self.counts)

    @property
    def chi_square(self) -> float:
        """Sum over faces of (observed - expected)^2 / expected."""
        expected = self.total / self.sides
        return sum((n - expected) ** 2 / expected for n in self.counts) if self.total else 0.0

    @property
    def p_value(self) -> float:
        """The chance of a chi-square this large from fair dice (sides - 1 degrees of freedom)."""
        return regularized_upper_gamma((self.sides - 1) / 2, self.chi_square / 2)


def fairness(
    rolls: Iterable[tuple[int, Sequence[int]]], shuffles: Iterable[Sequence[int]] = ()
) -> tuple[Fairness, ...]:
    """The test for each die size, from (sides, values) of every revealed roll, then for
    each shuffle size, from the item each revealed shuffle put first.
    """
    counts: dict[int, Counter[int]] = {}
    for sides, values in rolls:
        counts.setdefault(sides, Counter()).update(values)
    firsts: dict[int, Counter[int]] = {}
    for order in shuffles:
        if order:
            firsts.setdefault(len(order), Counter())[order[0] + 1] += 1
    return fairness_of(counts, firsts)


def fairness_of(
    faces: Mapping[int, Counter[int]], firsts: Mapping[int, Counter[int]]
) -> tuple[Fairness, ...]:
    """The test for each die size from its face counts, then each shuffle size from its
    first items' counts (numbered from 1).
    """
    return tuple(
        Fairness(sides, tuple(found[sides][face] for face in range(1, sides + 1)), shuffled)
        for shuffled, found in ((False, faces), (True, firsts))
        for sides in sorted(found)
        if sides >= 2
    )
