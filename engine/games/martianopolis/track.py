"""The ring track (docs/rulings.md, Martianopolis 500): four lanes, 48 columns, step costs."""

from __future__ import annotations

from collections.abc import Iterable

LANES = "abcd"  # a is the inner edge, d the outer edge
COLUMNS = 48
SIZES = (1, 2, 3)
SIZE_LETTERS = {1: "S", 2: "M", 3: "L"}
LETTER_SIZES = {"s": 1, "small": 1, "m": 2, "medium": 2, "l": 3, "large": 3}

# token -> (lane change, cost); I steps inward (towards lane a), O outward (towards lane d).
STEPS = {"F": (0, 1), "I": (-1, 2), "O": (1, 2)}


def column(progress: int) -> int:
    """Return the column (1..48) of a racer with this progress counter."""
    return (progress - 1) % COLUMNS + 1


def square_name(lane: int, progress: int) -> str:
    """Name the square of a lane and progress as lane letter + column: "b17"."""
    return f"{LANES[lane]}{column(progress)}"


def movement_points(card_value: int, size: int) -> int:
    """Return a racer's movement points: twice the movement value minus its pips."""
    return 2 * card_value - size


def laps_done(progress: int) -> int:
    """Count the laps a racer has completed: lap k ends on the step from 48k to 48k + 1."""
    return max(0, (progress - 1) // COLUMNS)


def size_names(sizes: Iterable[int], joiner: str) -> str:
    """Join the letters of racer sizes: "L, M, S" or "S and M"."""
    return joiner.join(SIZE_LETTERS[size] for size in sizes)
