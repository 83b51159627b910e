"""The thirteen dice (the rulebook's Components and Turn): faces, counts, picks, scores."""

from __future__ import annotations

DICE = 13
TARGET = 25
DUEL_DICE = 6
BONUS = 3

# Indices into the five-count tuples that hold what is set aside or rolled.
TANK, RAY, HUMAN, COW, CHICKEN = range(5)
EARTHLINGS = (HUMAN, COW, CHICKEN)
PICKABLE = (RAY, HUMAN, COW, CHICKEN)
LETTERS = ("T", "R", "H", "C", "K")
FACE_NAMES = ("tank", "ray", "human", "cow", "chicken")
SINGULAR = ("tank", "death ray", "human", "cow", "chicken")
PLURAL = ("tanks", "death rays", "humans", "cows", "chickens")
# A d6 value shows: 1 tank, 2-3 death ray, 4 human, 5 cow, 6 chicken (docs/auditing.md).
FACE_OF_VALUE = {1: TANK, 2: RAY, 3: RAY, 4: HUMAN, 5: COW, 6: CHICKEN}
# Probability of each face on one die, in the order of the five-count tuples.
FACE_CHANCE = (1 / 6, 2 / 6, 1 / 6, 1 / 6, 1 / 6)

Counts = tuple[int, int, int, int, int]
NOTHING: Counts = (0, 0, 0, 0, 0)


def counts_of(values: tuple[int, ...]) -> Counts:
    """Count the tanks, rays, humans, cows and chickens in a roll of d6 values."""
    counts = [0] * 5
    for value in values:
        counts[FACE_OF_VALUE[value]] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def turn_points(aside: Counts) -> int:
    """Score what is set aside: nothing if tanks outnumber rays, else earthlings plus bonus."""
    if aside[TANK] > aside[RAY]:
        return 0
    earthlings = sum(aside[e] for e in EARTHLINGS)
    return earthlings + (BONUS if all(aside[e] for e in EARTHLINGS) else 0)


def pickable(aside: Counts, rolled: Counts) -> tuple[int, ...]:
    """List the types a player may set aside from a roll: rays always, earthlings once a turn."""
    return tuple(face for face in PICKABLE if rolled[face] and (face == RAY or aside[face] == 0))


def add(counts: Counts, face: int, n: int) -> Counts:
    """Return the counts with n more of one face."""
    out = list(counts)
    out[face] += n
    return (out[0], out[1], out[2], out[3], out[4])


def count_words(n: int, face: int) -> str:
    """Say how many of a face: '4 humans', '1 chicken'."""
    return f"{n} {SINGULAR[face] if n == 1 else PLURAL[face]}"


def dice_word(n: int) -> str:
    """Say how many dice: '1 die', '7 dice'."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def named(counts: Counts) -> dict[str, int]:
    """Name the counts by face: {"tank": 1, "ray": 2, ...}."""
    return {FACE_NAMES[f]: counts[f] for f in range(5)}


def face_names(values: tuple[int, ...]) -> list[str]:
    """Name the face each d6 value shows: ["tank", "ray", ...]."""
    return [FACE_NAMES[FACE_OF_VALUE[v]] for v in values]
