"""The legal moves, the must-use rule and a move checked step by step, piece by piece.

Written against the surviving mutants of engine/games/mars/moves.py and perform.py
(docs/mutants/mars-moves-3.md); rules as summarised in docs/rulings.md.
"""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.games.mad_dog import RULES as DOG_RULES
from engine.games.mars import moves
from engine.games.mars.state import to_pos
from tests.engine.test_mad_dog import position as dog_position
from tests.engine.test_martian_race import RULES, play, position

RED, BLUE = 0, 1


def texts(state, die: int, only_piece: str | None = None) -> list[str]:
    return [c.text for c in moves.candidates(state, RED, state.dice, die, only_piece)]


@pytest.mark.parametrize(
    ("options", "noop"),
    [
        ({}, "S E"),  # listed last of a piece's moves
        ({"step_usage": "exact"}, "N E"),  # listed among them: the moves after it stay
    ],
)
def test_the_listing_keeps_one_move_that_changes_nothing_and_every_other_move_of_later_pieces(
    options, noop
):
    # Turning away and back with the 2 leaves the board as it was: listed once, for the
    # first piece; the second piece loses only that move, not the ones listed after it.
    alone = texts(position({"f4": "rSe"}, dice=(2, 6), **options), 2)
    both = texts(position({"c4": "rSe", "f4": "rSe"}, dice=(2, 6), **options), 2)
    assert f"2: f4 {noop}" in alone
    assert f"2: c4 {noop}" in both
    assert [t for t in both if t.startswith("2: f4 ")] == [
        t for t in alone if t.startswith("2: f4 ") and t != f"2: f4 {noop}"
    ]


def test_a_piece_that_may_not_stay_where_it_is_leaves_the_move_that_changes_nothing_to_the_next():
    # The medium just grown on the Government Center may not end there, so the move that
    # leaves everything as it was is the small's, in the whole listing and in the small's own.
    state = position({"h2": "rM^", "f4": "rSe"}, dice=(2, 6), finished={RED: 3})
    assert "2: f4 S E" in texts(state, 2)
    assert "2: f4 S E" in texts(state, 2, "f4")


def dog_moves(occupant: str, prefix: str) -> list[str]:
    """Red's Dog on d4 pointing east, the occupant on e4 (Blue has won): its listed moves."""
    state = dog_position(
        {"e4": occupant, "a8": "bSn"},
        finished={BLUE: 4},
        dog=(RED, "d4", "e"),
        dice=(1, 2),
        to_move=RED,
    )
    return [t for t in DOG_RULES.legal(state, RED) if t.startswith(prefix)]


def test_the_dog_landing_on_its_own_colour_lists_the_push_of_what_survives_its_attack():
    # Red released the Dog; landing on Red's large it reduces it to a medium and pushes it.
    listed = dog_moves("rLn", "1: dog F")
    assert "1: dog F" not in listed
    assert "1: dog F x rM:NNN" in listed


def test_the_dog_on_a1_still_moves():
    # a1 is square 0: the Dog there is on the board like anywhere else.
    state = dog_position(
        {"e4": "bSn"}, finished={RED: 5}, dog=(RED, "a1", "n"), dice=(1, 2), to_move=RED
    )
    assert "dog" in [name for _, name, _ in moves.movable(to_pos(state), RED)]
    assert "1: dog F" in DOG_RULES.legal(state, RED)


def test_a_piece_may_not_enter_through_a_totally_blocked_home():
    # Two of Blue's pieces block a7 totally when two are enough: entering and stepping on
    # at once is refused at Home, not let through because the move does not end there.
    state = position(
        {"a7": "bSe bSn"}, seats=3, dice=(2, 6), block_total_min=2, block_partial_min=2
    )
    with pytest.raises(IllegalAction) as caught:
        play(state, "2: +N F")
    assert str(caught.value) == "a7 (Home) is totally blocked"


def test_the_dogs_other_moves_follow_one_that_destroys_what_it_lands_on():
    # Landing on Red's small destroys it: nothing is left to push, and the Dog's turns
    # in place are still listed after that move.
    listed = dog_moves("rSn", "1: dog")
    assert listed == ["1: dog F", "1: dog N", "1: dog S", "1: dog W", "1: dog U"]


def test_a_piece_may_not_enter_through_a_home_holding_one_of_its_own_when_only_resting_counts():
    # With one piece per colour only where it rests, passing a special square is allowed,
    # but Home is where an entering piece starts, so its own piece there still refuses it.
    state = position({"a7": "rSe"}, dice=(2, 6), one_per_colour="resting")
    with pytest.raises(IllegalAction) as caught:
        play(state, "2: +N F")
    assert str(caught.value) == "a7 (Home) already holds one of your pieces"


def test_pushing_and_growing_on_its_goal_loses_the_other_die_unless_another_piece_uses_it():
    # Red's small stands up on h2, pushing Blue's small away, and grows into a medium that
    # cannot spend the 1 there: with no other Martian the 1 goes first. A standing small of
    # Red's on c4 can spend the 1 lying down, and the push may come first.
    alone = position({"h5": "rSs", "h2": "bSe"}, dice=(4, 1), finished={RED: 4})
    assert not [a for a in RULES.legal(alone, RED) if a.startswith("4: h5 F3 U")]
    assert "1: h5 F" in RULES.legal(alone, RED)
    helped = position({"h5": "rSs", "h2": "bSe", "c4": "rS^"}, dice=(4, 1), finished={RED: 3})
    assert "4: h5 F3 U x bS:NN" in RULES.legal(helped, RED)
