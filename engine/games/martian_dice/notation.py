"""Notation (docs/playing.md, Martian Dice): a pick is a type and a decision, like "H roll"."""

from __future__ import annotations

import re

from ...errors import InvalidAction
from .dice import CHICKEN, COW, HUMAN, LETTERS, RAY, dice_word
from .state import DiceState, remaining_after

ROLL, STOP = "roll", "stop"

_TYPE_WORDS = {
    "r": RAY,
    "ray": RAY,
    "rays": RAY,
    "deathray": RAY,
    "deathrays": RAY,
    "h": HUMAN,
    "human": HUMAN,
    "humans": HUMAN,
    "c": COW,
    "cow": COW,
    "cows": COW,
    "k": CHICKEN,
    "chicken": CHICKEN,
    "chickens": CHICKEN,
}
_TANK_WORDS = {"t", "tank", "tanks"}
_DECISION_WORDS = {
    "roll": ROLL,
    "rolls": ROLL,
    "reroll": ROLL,
    "again": ROLL,
    "continue": ROLL,
    "stop": STOP,
    "stops": STOP,
    "bank": STOP,
    "score": STOP,
}
_FILLER = {
    "take",
    "takes",
    "pick",
    "picks",
    "choose",
    "keep",
    "set",
    "aside",
    "all",
    "the",
    "my",
    "i",
    "and",
    "then",
    "a",
    "an",
    "of",
    "death",
    "here",
    "please",
}
_SEPARATORS = re.compile(r"[\s,.;:!&+/\-–—]+")
_FORM = (
    "write the type you take and whether you roll again, like 'H roll' or 'R stop' "
    "(R death rays, H humans, C cows, K chickens)"
)


def read_action(text: str) -> tuple[int, str | None]:
    """Read the type and decision ('roll', 'stop' or None) in a player's words."""
    shown = text.strip()
    if len(text) > 200:
        raise InvalidAction(f"that is {len(text)} characters long; {_FORM}")
    words = [w for w in _SEPARATORS.split(shown.lower()) if w]
    faces: set[int] = set()
    decisions: set[str] = set()
    for word in words:
        if word in _TYPE_WORDS:
            faces.add(_TYPE_WORDS[word])
        elif word in _DECISION_WORDS:
            decisions.add(_DECISION_WORDS[word])
        elif word in _TANK_WORDS:
            raise InvalidAction(
                f"cannot read {shown!r}: tanks are set aside automatically, never picked; {_FORM}"
            )
        elif word not in _FILLER and not word.isdecimal():
            raise InvalidAction(f"cannot read {shown!r}: {word!r} is not part of a pick; {_FORM}")
    if len(faces) != 1:
        problem = "it names no type" if not faces else "it names more than one type"
        raise InvalidAction(f"cannot read {shown!r}: {problem}; {_FORM}")
    if len(decisions) > 1:
        raise InvalidAction(f"cannot read {shown!r}: it says both roll and stop; {_FORM}")
    return faces.pop(), decisions.pop() if decisions else None


def format_action(face: int, decision: str | None) -> str:
    """Write an action canonically: 'H roll', 'R stop', or the bare letter when no dice remain."""
    return LETTERS[face] if decision is None else f"{LETTERS[face]} {decision}"


def parse_pick(state: DiceState, text: str) -> str:
    """Read a pick in letters or words; the decision is dropped when no dice would remain."""
    face, decision = read_action(text)
    left = remaining_after(state, face)
    if left == 0:
        return format_action(face, None)
    if decision is None and left is not None:
        raise InvalidAction(
            f"cannot read {text.strip()!r}: say whether you roll the {dice_word(left)} "
            f"left or stop, like '{format_action(face, ROLL)}' or "
            f"'{format_action(face, STOP)}'"
        )
    return format_action(face, decision)
