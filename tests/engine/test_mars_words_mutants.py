"""Martian Race and Mad Dog: reading what a player typed, and the sentences and view of a move.

Each test here kills mutants of `mars/reading.py` or `mars/present.py` that the other tests
of the two games let live (docs/mutants/mars-menu.md names them).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import InvalidAction, Played
from engine.games.mad_dog import RULES as MAD_DOG
from engine.games.mars.geometry import parse_square
from engine.games.mars.reading import walk
from engine.games.martian_race import RULES
from tests.engine.test_mad_dog import position as dog_position
from tests.engine.test_martian_race import BLUE, RED, position
from tests.pbem.games.test_mars_templates import race_mid_game

# MR-T7's corner: Blue's small on a1 can only be pushed east by a piece arriving from b1.
CORNER = {"a1": "bSn", "c1": "gS^ gS^", "b2": "gS^ gS^"}


def corner(mover: str, **options: object):
    """MR-T7's corner with Red's pieces `mover` on b1, Red to move with a 2 and a 6."""
    return position({**CORNER, "b1": mover}, seats=3, dice=(2, 6), **options)


def test_a_push_path_may_end_on_the_first_square_and_stops_at_the_edge():
    a1 = parse_square("a1")
    assert a1 == 0
    assert walk(parse_square("b1"), "W") == a1
    assert walk(parse_square("a2"), "S") == a1
    assert walk(parse_square("a2"), "SSE") == parse_square("b1")


def test_an_unreadable_action_or_a_move_of_no_piece_is_told_as_typed():
    state = position({}, dice=(1, 6))
    assert RULES.describe(state, Played(BLUE, "move it"), None) == "Blue plays move it"
    assert RULES.describe(state, Played(RED, "3: h8 F"), None) == "Red plays 3: h8 F"
    # Green is not in a two-seat game: the push is not read as one.
    assert RULES.describe(state, Played(RED, "x gS:N"), None) == "Red plays x gS:N"


def test_a_push_must_have_a_path_and_name_a_colour_of_the_game():
    state = position({}, dice=(1, 6))
    with pytest.raises(InvalidAction) as refused:
        RULES.parse_action(state, RED, "x bS")
    assert str(refused.value) == "cannot read 'x bS': a push needs a path like 'x gS:N'"
    with pytest.raises(InvalidAction, match=r"\(colours r, b\)"):
        RULES.parse_action(state, RED, "x gS:N")


def test_a_push_of_a_colour_outside_the_game_or_an_impossible_move_is_not_annotated():
    waiting = race_mid_game()  # three seats, a push of Blue's small onto d5 awaited
    assert RULES.annotate(waiting, BLUE, "x bS:N") == {"from": "d5", "to": ["d6"]}
    assert RULES.annotate(waiting, BLUE, "x yS:N") == {}
    state = position({"d4": "rSn"}, dice=(1, 6))
    assert RULES.annotate(state, RED, "1: d4 F") == {"from": "d4", "to": ["d5"]}
    assert RULES.annotate(state, RED, "6: d4 F6") == {}


def test_a_standing_dog_is_shown_standing_up():
    state = dog_position({"g7": "rLe"}, dice=(2, 5), dog=(1, "c3", "^"), finished={1: 4})
    assert MAD_DOG.view(state, None)["dog"] == {
        "square": "c3",
        "seat": 1,
        "colour": "Blue",
        "facing": "up",
        "standing": True,
    }


def test_an_entry_onto_a_rival_with_one_way_to_go_gets_its_push():
    blocks = {"c7": "gS^ gS^", "b8": "gS^ gS^", "b6": "gS^ gS^"}
    state = position({"b7": "bSn", **blocks}, seats=3, dice=(2, 6))
    assert RULES.parse_action(state, RED, "6: +E F") == "6: +E F x bS:W"


def test_a_move_onto_a_lone_rival_with_one_way_to_go_gets_its_push():
    state = position({"a1": "bSn", "b1": "rSw"}, dice=(1, 6))
    assert RULES.parse_action(state, RED, "1: b1 F") == "1: b1 F x bS:E"


@pytest.mark.parametrize(
    ("mover", "typed", "canonical"),
    [
        ("rLn", "2: b1 W F", "2: b1 W F x bS:E"),  # a turn, then the step onto a1
        ("rLw", "2: b1 F U x bS", "2: b1 F U x bS:E"),  # a push named without its path
        ("rLw rSn", "2: b1L F U", "2: b1L F U x bS:E"),  # the size tells the piece
        ("rLw rLs", "2: b1Lw F U", "2: b1Lw F U x bS:E"),  # the facing tells the piece
    ],
)
def test_a_move_onto_the_corner_gets_the_one_push_it_allows(mover, typed, canonical):
    assert RULES.parse_action(corner(mover), RED, typed) == canonical


def test_a_piece_of_the_mover_elsewhere_does_not_make_the_designator_ambiguous():
    state = position({**CORNER, "b1": "rLw", "h8": "rSn"}, seats=3, dice=(2, 6))
    assert RULES.parse_action(state, RED, "2: b1 F U") == "2: b1 F U x bS:E"


def test_a_designator_naming_no_single_piece_is_kept_as_typed():
    state = corner("rLw rLs")
    assert RULES.parse_action(state, RED, "2: b1L F U") == "2: b1L F U"
    assert RULES.parse_action(state, RED, "2: b1Ln F U") == "2: b1Ln F U"


def test_a_standing_piece_does_not_step_forward_while_its_move_is_read():
    assert RULES.parse_action(corner("rLw"), RED, "2: b1 U F") == "2: b1 U F"


def test_no_push_is_added_for_a_seat_that_is_not_to_move_or_before_the_roll():
    assert RULES.parse_action(corner("rLw", to_move=BLUE), RED, "2: b1 F U") == "2: b1 F U"
    unrolled = replace(corner("rLw"), roll=None, dice=())
    assert RULES.parse_action(unrolled, RED, "2: b1 F U") == "2: b1 F U"


def test_the_dog_landing_on_its_own_runner_s_martian_gets_the_one_push_it_allows():
    # Blue runs the dog from g1; its own large on h1 is reduced and can only go W N N.
    blocks = {"f2": "gS^ gS^", "e1": "gS^ gS^", "h3": "gS^ gS^"}
    state = dog_position(
        {"h1": "bLn", **blocks}, dice=(1, 3), to_move=1, dog=(1, "g1", "w"), finished={1: 5}
    )
    assert MAD_DOG.parse_action(state, 1, "3: dog N E F") == "3: dog N E F x bM:WNN"


def test_a_move_of_no_piece_is_not_annotated():
    state = position({"d4": "rSn"}, dice=(1, 6))
    assert RULES.annotate(state, RED, "1: h8 F") == {}
