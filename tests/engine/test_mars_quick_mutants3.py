"""Moves the short cut must leave to the full path: a forbidden end, a blocked or doubling push.

Written against the surviving mutants of engine/games/mars/quick.py (docs/mutants/mars-menu-2.md).
Martian Race's squares: Home a7, goals h2 (small), a2 (medium), h7 (large). Each move here
is refused, or answered otherwise, by the full path; quick.simple_move must answer None, so
the outcome with the short cut is the outcome without it.
"""

from __future__ import annotations

import pytest

from engine.games.mad_dog import RULES as DOG_RULES
from engine.games.mars import quick
from tests.engine.test_mars_quick import BLUE, RED, board, fast_and_slow, resting_reference


@pytest.mark.parametrize(
    ("spec", "options", "action", "why"),
    [
        # Home holds two standing Blue smalls (strength 4): totally blocked for Red, so no
        # Red Martian may enter, though none of Red's own stands there.
        ({"a7": "bS^ bS^"}, {}, "3: +EFF", "Home is blocked"),
        # One piece per colour only where moves end: passing Home is allowed, ending there
        # beside another Red Martian is not.
        ({"a7": "rSe", "a5": "rSn"}, {"one_per_colour": "resting"}, "3: a5 FF", "Home taken"),
        # A medium pushes a Blue small two squares north, over e5, which two standing Red
        # smalls block totally for Blue.
        ({"c4": "rMe", "e4": "bSn", "e5": "rS^ rS^"}, {}, "3: c4 FF x bS:NN", "e5 blocked"),
        # A standing medium pushes a lying small three squares: north, north, and back
        # south onto e5, a square the path has already crossed.
        ({"c4": "rMe", "e4": "bSn", "a1": "rSn"}, {}, "3: c4 FFU x bS:NNS", "path doubles back"),
        # Blue's small pushed onto Home, where another Blue Martian already rests.
        (
            {"d7": "rSw", "b7": "bSn", "a7": "bSe"},
            {"one_per_colour": "resting"},
            "3: d7 FF x bS:W",
            "the push ends on Blue's occupied Home",
        ),
        # The same, two squares: the pushed piece passes b7 and ends on Home.
        (
            {"e7": "rMw", "c7": "bSn", "a7": "bSe"},
            {"one_per_colour": "resting"},
            "3: e7 FF x bS:WW",
            "the longer push ends on Blue's occupied Home",
        ),
    ],
)
def test_the_short_cut_leaves_a_forbidden_square_to_the_full_path(spec, options, action, why):
    fast, answered = fast_and_slow(board(spec, (3, 5), **options), action)
    assert not answered, why
    assert not isinstance(fast, dict), (why, fast)


def test_the_short_cut_still_answers_a_push_beside_the_blocked_square():
    # The positions above are refused for the blocked square alone: moved off it, they pass.
    spec = {"c4": "rMe", "e4": "bSn", "f5": "rS^ rS^"}
    fast, answered = fast_and_slow(board(spec, (3, 5)), "3: c4 FF x bS:NN")
    assert isinstance(fast, dict), fast
    assert answered
    spec = {"d7": "rSw", "b7": "bSn", "a8": "bSe"}
    state = board(spec, (3, 5), one_per_colour="resting")
    fast, answered = fast_and_slow(state, "3: d7 FF x bS:W")
    assert isinstance(fast, dict), fast
    assert answered


def test_a_seat_without_the_dog_does_not_rest_on_the_dogs_square():
    # Red's only Martian shares c4 with a Blue one, so it may not stay; the Dog (Blue's,
    # alone on h8) gives Red nothing to turn: only the Dog's runner may spend a die on it.
    state = board({"c4": "rSe bSe"}, (3, 5), rules=DOG_RULES, dog=(BLUE, "h8", "^"))
    assert quick.rests(state, RED) is False
    assert resting_reference(state, RED) is False
    assert quick.rests(state, BLUE) is True


def test_a_push_that_stacks_the_pushed_piece_on_its_own_colour_is_seen_as_stacked():
    # Nothing stacked before; the Blue small pushed onto e5 joins a Blue medium there. The
    # short cut answers, and the stacked flag it leaves must see the new pair (checked by
    # fast_and_slow against the position rebuilt from scratch).
    spec = {"c4": "rSe", "e4": "bSn", "e5": "bMe"}
    fast, answered = fast_and_slow(board(spec, (3, 5)), "3: c4 FF x bS:N")
    assert isinstance(fast, dict), fast
    assert answered
