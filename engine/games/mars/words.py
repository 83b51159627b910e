"""How Martian Race and Mad Dog name things in sentences: seats, squares, moves and pushes."""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

from .geometry import (
    COLOURS,
    FACING_LETTERS,
    FACING_WORDS,
    NEIGHBOUR,
    SIZE_WORDS,
    UP,
    Params,
    square_name,
)
from .notation import Clause, MoveText


class Words(Protocol):
    """The game's own words: what its pieces and its special squares are called."""

    piece_word: str
    goal_names: tuple[str, str, str, str]
    limits_named: bool  # an outcome decided by a turn or stall limit names the limit


def seat_name(seat: int) -> str:
    """Name a seat by its colour: "Red"."""
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"


@lru_cache(maxsize=64)
def _labels(names: tuple[str, str, str, str], specials: tuple[int, ...]) -> tuple[str, ...]:
    """Every square's label, the special ones named: 'h2 (Government Center)', 'c4'."""
    named: dict[int, str] = {}
    for special, name in zip(specials, names, strict=True):
        named.setdefault(special, name)
    return tuple(
        f"{square_name(q)} ({named[q]})" if q in named else square_name(q) for q in range(64)
    )


def square_label(words: Words, params: Params, square: int) -> str:
    """'h2 (Government Center)' for a special square, 'c4' otherwise."""
    return _labels(words.goal_names, params.specials)[square]


def move_words(
    words: Words,
    params: Params,
    parsed: MoveText,
    who: str,
    thing: str | None,
    square: int,
    facing: int,
) -> str:
    """A move's sentence: who moves what (None: enters a piece) from where (not checked)."""
    start = square
    for token in parsed.steps[1:] if parsed.piece == "+" else parsed.steps:
        if token == "F" and facing != UP and square >= 0 and NEIGHBOUR[square][facing] >= 0:
            square = NEIGHBOUR[square][facing]
        elif token != "F":
            facing = FACING_LETTERS.index(token)
    return move_sentence(words, params, parsed, who, thing, start, square, facing)


def move_sentence(
    words: Words,
    params: Params,
    parsed: MoveText,
    who: str,
    thing: str | None,
    start: int,
    square: int,
    facing: int,
) -> str:
    """move_words for a move whose steps are known to lead from start to square, facing so."""
    labels = _labels(words.goal_names, params.specials)
    here, there = labels[start], labels[square]
    if thing is None:
        moved = " and stays" if square == start else f" and moves it to {there}"
        head = f"{who} enters a small {words.piece_word} on {here}{moved}"
    elif square == start:
        head = f"{who}'s {thing} on {here} stays there"  # it only turns, stands or lies
    else:
        head = f"{who} moves the {thing} from {here} to {there}"
    steps = len(parsed.steps)
    text = (
        f"{head}, {FACING_WORDS[facing]} "
        f"({steps} step{'s' if steps != 1 else ''} of a {parsed.die or '?'})"
    )
    if parsed.pushes:
        text += ", pushing " + ", ".join(push_words(c) for c in parsed.pushes)
    return text


def push_words(clause: Clause) -> str:
    """'Blue's small 2 squares (EN)' for a push clause."""
    return (
        f"{COLOURS[clause.colour]}'s {SIZE_WORDS[clause.size]} "
        f"{len(clause.path)} square{'s' if len(clause.path) != 1 else ''} ({clause.path})"
    )
