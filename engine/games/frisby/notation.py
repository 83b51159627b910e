"""Frisby's notation: a turn written as moves like "a1-a4 b1-b6", or "pass"."""

from __future__ import annotations

import re

from ...errors import InvalidAction
from .board import Move, Square

_SQUARE = re.compile(r"([a-z])(\d{1,2})", re.ASCII)
_FILLER = re.compile(r"(?:\bto\b|\bthen\b|\band\b|[-–—>,;:/.\s])*", re.ASCII)
_FORM = "write two moves like 'a1-a4 b1-b6', a single move only if it wins, or 'pass'"


def parse_turn(text: str) -> str:
    """Read what a player typed as canonical notation; InvalidAction shows the form."""
    if len(text) > 200:
        raise InvalidAction(f"that is {len(text)} characters long; {_FORM}")
    lowered = text.strip().lower()
    if lowered == "pass":
        return "pass"
    squares = _SQUARE.findall(lowered)
    leftover = _SQUARE.sub(" ", lowered)
    if not squares or _FILLER.fullmatch(leftover) is None or len(squares) not in (2, 4):
        raise InvalidAction(f"cannot read {text.strip()!r} as a turn; {_FORM}")
    names = [f"{f}{int(r)}" for f, r in squares]
    pairs = [f"{names[i]}-{names[i + 1]}" for i in range(0, len(names), 2)]
    return " ".join(pairs)


def read_moves(action: str) -> tuple[Move, ...]:
    """The moves of a canonical action ("pass" has none); InvalidAction for a bad square."""
    if action == "pass":
        return ()
    moves = []
    for part in action.split():
        frm, _, to = part.partition("-")
        moves.append((read_square(frm), read_square(to)))
    return tuple(moves)


def read_square(text: str) -> Square:
    """The square a name like 'a4' stands for (it may be off the board)."""
    match = _SQUARE.fullmatch(text)
    if match is None:
        raise InvalidAction(f"{text!r} is not a square like 'a4'")
    return (ord(match[1]) - ord("a"), int(match[2]))
