"""Notation (docs/playing.md): racer orders, up/down, and paths like "S: F3 O F2; L: I F7"."""

from __future__ import annotations

import re

from ...core import split_actions
from ...errors import IllegalAction, InvalidAction
from .state import CHOOSE, DOWN, MOVE, ORDER, UP, MartianopolisState
from .track import LETTER_SIZES, SIZE_LETTERS, SIZES, size_names

Clauses = tuple[tuple[int, tuple[str, ...]], ...]

# The path of a racer that crashed last turn and only lies flat again: its order is ignored.
FLAT = ("flat",)


def format_path(tokens: tuple[str, ...]) -> str:
    """Write a path canonically: runs of F as Fk, I and O one by one; "stay" if empty."""
    if tokens == FLAT:
        return "flat"
    parts: list[str] = []
    run = 0
    for token in (*tokens, ""):
        if token == "F":
            run += 1
            continue
        if run:
            parts.append("F" if run == 1 else f"F{run}")
            run = 0
        if token:
            parts.append(token)
    return " ".join(parts) or "stay"


ORDER_FORM = "'order L M S' (your racers from the front of the file to the back)"
CARD_FORM = "'up' or 'down'"
MOVE_FORM = (
    "one clause per racer in the order moved, like 'S: F3 O F2; L: I F7; M: F12' "
    "(F straight on for 1 point, I diagonally inward or O diagonally outward for 2; "
    "'S: stay' if S cannot move at all)"
)
ALL_FORMS = f"write {ORDER_FORM}, {CARD_FORM}, or moves as {MOVE_FORM}"
_SIZE_WORD = r"(?:small|medium|large|s|m|l)"
_ORDER = re.compile(
    rf"(?:order\b)?[\s:,\-]*({_SIZE_WORD})[\s,\-]*({_SIZE_WORD})[\s,\-]*({_SIZE_WORD})"
)
_ORDER_WORD = re.compile(r"order\b")
_UP = re.compile(r"(?:play\s+)?(?:face[\s-]*)?up")
_DOWN = re.compile(r"(?:play\s+)?(?:face[\s-]*)?down")
_CLAUSE = re.compile(rf"({_SIZE_WORD})(?:\s*:\s*|\s+)(.*)", re.DOTALL)
_PATH = re.compile(r"(?:[\s,]*[fio][0-9]{0,2})+[\s,]*")
_TOKEN = re.compile(r"([fio])([0-9]{0,2})")
_STAY = re.compile(r"stay|-|none|crash")
MAX_STEPS = 99


def parse_path(text: str) -> tuple[str, ...]:
    """Read path text ("f3 o f2", "FFFOFF", "stay") as steps; InvalidAction on anything else."""
    lowered = text.strip().lower()
    if _STAY.fullmatch(lowered):
        return ()
    if lowered == "flat":
        return FLAT
    if not lowered or _PATH.fullmatch(lowered) is None:
        raise InvalidAction(
            f"cannot read {text.strip()!r} as a path: steps are F (straight on), "
            "I (diagonally inward) and O (diagonally outward); there are no sideways or "
            "backward steps"
        )
    tokens: list[str] = []
    for letter, count in _TOKEN.findall(lowered):
        times = 1 if count == "" else int(count)
        if times == 0:
            raise InvalidAction(f"{letter.upper()}0 in {text.strip()!r} is no step at all")
        tokens.extend(letter.upper() * times)
    if len(tokens) > MAX_STEPS:
        raise InvalidAction(f"{text.strip()!r} has {len(tokens)} steps; no move is that long")
    return tuple(tokens)


def parse_clauses(text: str) -> Clauses:
    """Read move text as (size, steps) per racer in the order moved; InvalidAction if unreadable."""
    parts = split_actions(text)
    if not parts:
        raise InvalidAction(f"cannot read {text.strip()!r} as a move; write {MOVE_FORM}")
    clauses: list[tuple[int, tuple[str, ...]]] = []
    for part in parts:
        match = _CLAUSE.fullmatch(part.lower())
        if match is None:
            raise InvalidAction(f"cannot read {part!r} as a racer's move; write {MOVE_FORM}")
        size = LETTER_SIZES[match[1]]
        if any(size == seen for seen, _ in clauses):
            raise InvalidAction(
                f"{SIZE_LETTERS[size]} is named twice in {text.strip()!r}; each racer moves once"
            )
        try:
            path = parse_path(match[2])
        except InvalidAction as e:
            raise InvalidAction(f"{part!r}: {e}; write {MOVE_FORM}") from e
        clauses.append((size, path))
    return tuple(clauses)


def format_clauses(clauses: Clauses) -> str:
    """Write moves canonically: "S: F3 O F2; L: I F7"."""
    return "; ".join(f"{SIZE_LETTERS[size]}: {format_path(path)}" for size, path in clauses)


def parse_order(text: str) -> tuple[int, ...] | None:
    """Read an order as sizes front to back, None if it is not one; InvalidAction if wrong."""
    lowered = text.strip().lower()
    match = _ORDER.fullmatch(lowered)
    if match is None:
        if _ORDER_WORD.match(lowered):
            raise InvalidAction(f"cannot read {text.strip()!r} as an order; write {ORDER_FORM}")
        return None
    sizes = tuple(LETTER_SIZES[word] for word in match.groups())
    if sorted(sizes) != list(SIZES):
        raise InvalidAction(f"{text.strip()!r} does not name each racer once; write {ORDER_FORM}")
    return sizes


def format_order(sizes: tuple[int, ...]) -> str:
    """Write an order canonically: "order L M S"."""
    return "order " + size_names(sizes, " ")


def read_action(state: MartianopolisState, text: str) -> str:
    """Read an order, a card choice or racers' moves; clauses for racers lying flat drop."""
    if len(text) > 300:
        raise InvalidAction(f"that is {len(text)} characters long; {ALL_FORMS}")
    lowered = " ".join(text.strip().lower().split())
    if _UP.fullmatch(lowered):
        return UP
    if _DOWN.fullmatch(lowered):
        return DOWN
    sizes = parse_order(lowered)
    if sizes is not None:
        return format_order(sizes)
    try:
        clauses = parse_clauses(text)
    except InvalidAction as e:
        if state.phase == ORDER:
            raise InvalidAction(f"cannot read {text.strip()!r}; write {ORDER_FORM}") from e
        if state.phase == CHOOSE:
            raise InvalidAction(f"cannot read {text.strip()!r}; write {CARD_FORM}") from e
        raise
    if state.phase == MOVE and state.recovered:
        # docs/rulings.md (Crashing): an order for a racer that only lies flat again is ignored.
        clauses = tuple((z, FLAT if z in state.recovered else p) for z, p in clauses)
        if all(z in state.recovered for z, _ in clauses):
            names = size_names((z for z, _ in clauses), " and ")
            lies = "lies" if len(clauses) == 1 else "lie"
            raise IllegalAction(
                f"{names} crashed last turn and only {lies} flat again this turn, which "
                "happens by itself; give the moves of your other racers"
            )
    return format_clauses(clauses)
