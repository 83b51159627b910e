"""Seats as colours in two-player games, after FIDE's Dutch rules (C.04.3): wishes and limits.

A player's colours are the seats of their two-player games in pairing order, +1 for the first
seat (white) and -1 for the second; their colour difference is the sum. The limits are
absolute: nobody's difference goes beyond +-2, nobody gets one seat three times running. The
wishes come in strengths: absolute (the limits would otherwise break), strong (a difference of
+-1 asks for the other colour), mild (a difference of 0 asks to alternate), none (no game yet).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FIRST, SECOND = 1, -1
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3
LIMIT = 2  # the largest colour difference allowed


@dataclass(frozen=True)
class Wish:
    """The colour a player should get next (0: none) and how strongly."""

    colour: int
    strength: int


def wish(colours: Sequence[int]) -> Wish:
    """Return what a player's colour history asks for next."""
    if not colours:
        return Wish(0, NONE)
    diff = sum(colours)
    if diff > 1 or diff < -1:
        return Wish(-1 if diff > 0 else 1, ABSOLUTE)
    if len(colours) > 1 and colours[-1] == colours[-2]:
        return Wish(-colours[-1], ABSOLUTE)
    if diff:
        return Wish(-diff, STRONG)
    return Wish(-colours[-1], MILD)


def breaks(colours: Sequence[int], colour: int) -> bool:
    """Tell whether giving this colour takes a player beyond +-2 or to three in a row."""
    if abs(sum(colours) + colour) > LIMIT:
        return True
    return len(colours) > 1 and colours[-1] == colours[-2] == colour


Cost = tuple[int, int, int, int]


def cost(first: Sequence[int], second: Sequence[int]) -> Cost:
    """Return what seating `first` first and `second` second costs, worst tier first: limits
    broken, wishes unmet, strong (or absolute) wishes unmet, the first player's wish unmet."""
    broken = int(breaks(first, FIRST)) + int(breaks(second, SECOND))
    unmet = strong = 0
    for colours, given in ((first, FIRST), (second, SECOND)):
        w = wish(colours)
        if w.strength and w.colour != given:
            unmet += 1
            strong += w.strength >= STRONG
    return broken, unmet, strong, 0


def seats(a: Sequence[int], b: Sequence[int]) -> tuple[bool, Cost]:
    """Return whether the higher-ranked `a` should sit first, and what the better order costs.

    Ties go to FIDE's order: both wishes granted, else the stronger wish, else the higher-ranked
    player's wish; with no wish on either side, the caller alternates by board.
    """
    a_first, b_first = cost(a, b), cost(b, a)
    wa = wish(a)
    a_first = (*a_first[:3], int(bool(wa.strength) and wa.colour != FIRST))
    b_first = (*b_first[:3], int(bool(wa.strength) and wa.colour != SECOND))
    return (True, a_first) if a_first <= b_first else (False, b_first)


def has_wish(a: Sequence[int], b: Sequence[int]) -> bool:
    """Tell whether either player asks for a colour (otherwise boards alternate)."""
    return bool(wish(a).strength or wish(b).strength)
