"""Squares, directions, pieces and the rule parameters of the Martian movement system."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

FILES = "abcdefgh"
UP, NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3, 4
FACING_LETTERS = "UNESW"
FACING_WORDS = ("standing", "lying north", "lying east", "lying south", "lying west")
SIZE_LETTERS = " SML"
SIZE_WORDS = ("", "small", "medium", "large")
DOG = -1

RESERVE, BOARD, FINISHED, DESTROYED, OUT = 0, 1, 2, 3, 4
STATUS_NAMES = ("reserve", "board", "finished", "destroyed", "out")

COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple")
INITIALS = "rbgyp"


def square_name(square: int) -> str:
    """Algebraic name of a square index 0..63 (a1 = 0, h1 = 7, a2 = 8)."""
    return f"{FILES[square % 8]}{square // 8 + 1}"


def parse_square(text: str) -> int:
    """The index of an algebraic square name such as "c4" (any case); ValueError if none."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError(f"{text!r} is not a square a1..h8")
    return (int(text[1]) - 1) * 8 + FILES.index(text[0])


def _neighbours() -> tuple[tuple[int, ...], ...]:
    table = []
    for square in range(64):
        file, rank = square % 8, square // 8
        table.append(
            (
                -1,
                square + 8 if rank < 7 else -1,
                square + 1 if file < 7 else -1,
                square - 8 if rank > 0 else -1,
                square - 1 if file > 0 else -1,
            )
        )
    return tuple(table)


# NEIGHBOUR[square][facing] is the next square that way, or -1 off the board.
NEIGHBOUR = _neighbours()
# STEPS[square]: (letter, next square, its bit) for each way (N, E, S, W) that stays on the board.
STEPS = tuple(
    tuple((FACING_LETTERS[f], ways[f], 1 << ways[f]) for f in (1, 2, 3, 4) if ways[f] >= 0)
    for ways in NEIGHBOUR
)


@dataclass(frozen=True)
class Piece:
    """One Martian (Mother): its owner, size 1..3, status, and square and facing on the board."""

    owner: int
    size: int
    status: int
    square: int = -1
    facing: int = -1


@lru_cache(maxsize=None, typed=True)
def piece_value(owner: int, size: int, status: int, square: int, facing: int) -> Piece:
    """The Piece with these fields, made once: a frozen value is shared, not built again.

    There are at most some 30,000 of them (5 owners, 3 sizes, 5 statuses, 65 squares, 6 facings).
    """
    return Piece(owner, size, status, square, facing)


@dataclass(frozen=True)
class Params:
    """Every rule parameter of both games' options and presets, resolved for one game."""

    home: int
    goal1: int
    goal2: int
    goal3: int
    martians: int
    push_formula: str = "MR"
    block_partial_min: int = 3
    block_total_min: int = 4
    exact_steps: bool = False
    quarter_turns: bool = False
    goal_gates: bool = True
    one_per_colour_always: bool = True
    bg_larger_die: bool = False
    growth_on_push_arrival: bool = True
    dog_phase: bool = False
    dog_reduce_by: int = 1
    dog_round_limit: int = 0
    max_turns: int = 0
    stall_rounds: int = 0
    # From rules version 4 (a version switch, not an option): a push that ends on the Dog's
    # square is allowed only where the Dog's push has an end as the resolution finds one,
    # its enemies there pushable too; before, any path of the Dog's push would do.
    dog_push_ends: bool = False

    # Derived tuples are cached in the instance's __dict__ (cached_property writes there
    # directly, which a frozen dataclass allows): they take no part in equality or asdict.
    @cached_property
    def specials(self) -> tuple[int, int, int, int]:
        """Home and the three goals: the squares that hold one piece per colour."""
        return (self.home, self.goal1, self.goal2, self.goal3)

    @cached_property
    def gates(self) -> tuple[int, int, int, int]:
        """Per size 1..3, the bits of the goals it may not enter or end on (index 0 unused)."""
        if not self.goal_gates:
            return (0, 0, 0, 0)
        return _gate_masks(self.goal1, self.goal2, self.goal3)

    def target(self, size: int) -> int:
        """The goal a piece of this size is heading for."""
        return self.specials[size]

    def gate_mask(self, size: int) -> int:
        """Bits of the goal squares a piece of this size may not enter or end on."""
        return self.gates[size]


@lru_cache(maxsize=64)
def _gate_masks(goal1: int, goal2: int, goal3: int) -> tuple[int, int, int, int]:
    """Per size 1..3, the goals it may not enter (index 0 unused)."""
    every = (1 << goal1) | (1 << goal2) | (1 << goal3)
    return (every, every & ~(1 << goal1), every & ~(1 << goal2), every & ~(1 << goal3))
