"""The canonical-key table of Martian Dice turns against a plain search over face counts."""

from __future__ import annotations

import math
from functools import cache

import pytest

from engine.games.martian_dice import odds
from engine.games.martian_dice.dice import DICE, FACE_CHANCE, TANK, add, pickable, turn_points

NOTHING = (0, 0, 0, 0, 0)


def compositions(dice, parts=5):
    if parts == 1:
        yield (dice,)
        return
    for first in range(dice + 1):
        for rest in compositions(dice - first, parts - 1):
            yield (first, *rest)


def outcomes(dice):
    for counts in compositions(dice):
        ways = math.factorial(dice) / math.prod(math.factorial(n) for n in counts)
        yield counts, ways * math.prod(p**n for p, n in zip(FACE_CHANCE, counts, strict=True))


@cache
def after_pick(aside):
    banked = turn_points(aside)
    return banked if sum(aside) == DICE else max(banked, expected_roll(aside))


def roll_worth(aside, rolled):
    aside = add(aside, TANK, rolled[TANK])
    faces = pickable(aside, rolled)
    if not faces:
        return turn_points(aside)
    return max(after_pick(add(aside, face, rolled[face])) for face in faces)


@cache
def expected_roll(aside):
    return sum(p * roll_worth(aside, rolled) for rolled, p in outcomes(DICE - sum(aside)))


# Every way to have 8 to 12 dice aside: the plain search stays quick with 5 dice or fewer left.
ASIDES = [a for aside in range(DICE - 5, DICE) for a in compositions(aside)]


def test_every_position_with_few_dice_left_expects_what_a_search_over_face_counts_finds():
    for aside in ASIDES:
        assert odds.expected_roll(aside) == pytest.approx(expected_roll(aside), abs=1e-12)


def test_every_roll_with_few_dice_left_is_worth_what_a_search_over_face_counts_finds():
    for aside in ASIDES[::7]:
        for rolled, _ in outcomes(DICE - sum(aside)):
            found = odds.roll_worth(aside, rolled)
            assert found == pytest.approx(roll_worth(aside, rolled), abs=1e-12), (aside, rolled)


def test_a_turn_from_nothing_expects_the_figure_the_search_over_face_counts_gave():
    # 3.1103817468376738 by the search over face counts, which takes seconds.
    assert odds.expected_roll(NOTHING) == pytest.approx(3.1103817468376738, abs=1e-12)


def test_the_outcomes_of_each_roll_add_up_to_certainty():
    for dice in range(DICE + 1):
        for kinds in range(4):
            total = sum(chance for *_, chance in odds._outcomes(dice, kinds))
            assert total == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    ("aside", "key"),
    [
        ((0, 0, 0, 0, 0), (13, 0, 0, 0)),
        ((2, 0, 0, 0, 0), (11, -2, 0, 0)),
        ((0, 9, 0, 0, 0), (4, 4, 0, 0)),  # 9 rays, 4 dice left: safe whatever comes
        ((9, 0, 0, 0, 0), (4, -5, 0, 0)),  # 9 tanks, 4 dice left: lost whatever comes
        ((0, 1, 3, 0, 2), (7, 1, 2, 5)),
    ],
)
def test_positions_that_play_alike_share_a_key(aside, key):
    assert odds.key_of(aside) == key
