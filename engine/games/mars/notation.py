"""Reading and writing the move notation of docs/playing.md: `5: +E F3 U`, `x bS:NNE`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ...errors import InvalidAction
from .geometry import FACING_LETTERS, INITIALS, SIZE_LETTERS, UP, parse_square, square_name

FORM = (
    "write one move per die like '5: +E F3 U', '3: d7 E F2' or '3: c1 F2 U x bS:ENN', "
    "or a push like 'x gS:N'"
)
_DIE = re.compile(r"\s*([1-6])\s*[:.)]?\s*(.*)", re.S)
_DESIGNATOR = re.compile(r"([a-h][1-8])(?:([sml])([\^nesw])?)?")
_STEPS = re.compile(r"(?:F[1-9]?|[UNESW])*")
_STEP = re.compile(r"F[1-9]?|[UNESW]")
_CLAUSE = re.compile(r"([a-z])([sml])([\^nesw])?(?::([nesw]*))?")


@dataclass(frozen=True)
class Clause:
    """One push: whose piece of which size (and facing, when needed) goes along which path."""

    colour: int
    size: int
    facing: int | None
    path: str

    def text(self) -> str:
        """The clause in canonical notation."""
        facing = "" if self.facing is None else facing_mark(self.facing)
        path = f":{self.path}" if self.path else ""
        return f"x {INITIALS[self.colour]}{SIZE_LETTERS[self.size]}{facing}{path}"


@dataclass(frozen=True)
class MoveText:
    """A move as written: die, piece (square, '+' or 'dog'), step tokens and push clauses."""

    die: int | None
    piece: str
    square: int
    size: int | None
    facing: int | None
    steps: tuple[str, ...]
    pushes: tuple[Clause, ...]


@dataclass(frozen=True)
class PushText:
    """An answer to a push choice: the clauses alone."""

    pushes: tuple[Clause, ...]


def facing_mark(facing: int) -> str:
    """The suffix of a designator: '^' for standing, a lower-case compass letter for lying."""
    return "^" if facing == UP else FACING_LETTERS[facing].lower()


def format_steps(steps: tuple[str, ...]) -> str:
    """Step tokens as text, runs of forward steps merged: ('F', 'F', 'U') -> 'F2 U'."""
    out: list[str] = []
    run = 0
    for token in steps:
        if token == "F":
            run += 1
            continue
        if run:
            out.append("F" if run == 1 else f"F{run}")
            run = 0
        out.append(token)
    if run:
        out.append("F" if run == 1 else f"F{run}")
    return " ".join(out)


def format_move(die: int, piece: str, steps: tuple[str, ...], pushes: tuple[Clause, ...]) -> str:
    """A move in canonical notation; for an entry the first step token is the placement."""
    if piece == "+":
        body = "+" + steps[0] + (" " + format_steps(steps[1:]) if len(steps) > 1 else "")
    else:
        body = f"{piece} {format_steps(steps)}"
    return " ".join([f"{die}: {body}", *(c.text() for c in pushes)])


def format_pushes(pushes: tuple[Clause, ...]) -> str:
    """A push answer in canonical notation."""
    return " ".join(c.text() for c in pushes)


def designator(square: int, size: int | None, facing: int | None) -> str:
    """A piece designator: 'c4', 'c4M' or 'c4Me'."""
    text = square_name(square)
    if size is not None:
        text += SIZE_LETTERS[size]
        if facing is not None:
            text += facing_mark(facing)
    return text


def _fail(text: str, why: str) -> InvalidAction:
    return InvalidAction(f"cannot read {text.strip()!r}: {why}; {FORM}")


def _clause(text: str, part: str, seats: int) -> Clause:
    compact = re.sub(r"\s+", "", part)
    match = _CLAUSE.fullmatch(compact)
    if match is None or match[1] not in INITIALS[:seats]:
        colours = ", ".join(INITIALS[:seats])
        raise _fail(text, f"'x {part.strip()}' is not a push like 'x bS:NN' (colours {colours})")
    facing = None if match[3] is None else ("^nesw".index(match[3]))
    return Clause(
        INITIALS.index(match[1]), " sml".index(match[2]), facing, (match[4] or "").upper()
    )


def _steps(text: str, compact: str) -> tuple[str, ...]:
    upper = compact.upper()
    if _STEPS.fullmatch(upper) is None:
        raise _fail(text, f"{compact!r} is not a run of steps U, N, E, S, W, F or F3")
    steps: list[str] = []
    for token in _STEP.findall(upper):
        steps.extend(["F"] * int(token[1:] or "1") if token[0] == "F" else [token])
    return tuple(steps)


@lru_cache(maxsize=4096)
def parse(text: str, seats: int) -> MoveText | PushText:
    """Read a move or a push answer; InvalidAction quotes the text and shows the form."""
    if len(text) > 300:
        raise InvalidAction(f"that is {len(text)} characters long; {FORM}")
    lowered = text.strip().lower()
    if not lowered:
        raise _fail(text, "it is empty")
    body, *clauses = lowered.split("x")
    pushes = tuple(_clause(text, part, seats) for part in clauses)
    if not body.strip():
        if not pushes:
            raise _fail(text, "it names no push")
        return PushText(pushes)
    die: int | None = None
    if body.lstrip()[:1].isdigit():
        match = _DIE.fullmatch(body)
        if match is None:
            raise _fail(text, "a die is 1 to 6, written first like '5:'")
        die, body = int(match[1]), match[2]
    words = body.split()
    if not words:
        raise _fail(text, "it names no piece")
    head, rest = words[0], "".join(words[1:])
    if head.startswith("+"):
        steps = _steps(text, head[1:] + rest)
        if not steps or steps[0] == "F":
            raise _fail(text, "an entry '+' needs the placement: +U, +N, +E, +S or +W")
        return MoveText(die, "+", -1, None, None, steps, pushes)
    if head.startswith("dog"):
        return MoveText(die, "dog", -1, None, None, _steps(text, head[3:] + rest), pushes)
    found = _DESIGNATOR.match(head)
    if found is None:
        raise _fail(text, f"{head!r} names no piece (a square like c4, '+' or 'dog')")
    rest = head[found.end() :] + rest
    size = None if found[2] is None else " sml".index(found[2])
    facing = None if found[3] is None else "^nesw".index(found[3])
    steps = _steps(text, rest)
    if not steps:
        raise _fail(text, "a move needs at least one step")
    return MoveText(die, "", parse_square(found[1]), size, facing, steps, pushes)
