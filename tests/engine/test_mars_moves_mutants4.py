"""The must-use rule when a piece lands on the Mad Dog, piece by piece.

Written against the surviving mutants of engine/games/mars/moves.py
(docs/mutants/mars-moves-3.md, second pass); rules as summarised in docs/rulings.md.
"""

from __future__ import annotations

from engine.games.mad_dog import RULES as DOG_RULES
from engine.games.mars.state import MarsState
from tests.engine.test_mad_dog import position as dog_position
from tests.engine.test_mars_menu import walk

RED, BLUE = 0, 1


def red_to_play(spec: dict[str, str], finished: int) -> MarsState:
    """Red to play a 1 and a 2; Blue has won and its Dog stands on a1."""
    return dog_position(
        {**spec, "h8": "gSn"},
        finished={BLUE: 4, RED: finished},
        dog=(BLUE, "a1", "n"),
        dice=(1, 2),
        to_move=RED,
    )


def red_moves(spec: dict[str, str], finished: int) -> tuple[str, ...]:
    return DOG_RULES.legal(red_to_play(spec, finished), RED)


def test_a_piece_destroyed_on_the_dog_loses_the_other_die_of_its_colour_last_martian():
    # Red's last small steps onto the Dog on a1 and is destroyed: nothing is left to play
    # the 2, while stepping north with the 2 keeps the 1.
    legal = red_moves({"a2": "rSs"}, finished=3)
    assert "2: a2 N F" in legal
    assert "1: a2 F" not in legal


def test_a_piece_destroyed_on_the_dog_keeps_the_other_die_for_another_piece():
    # With a second small on h5, the 2 is still playable after the first is destroyed.
    legal = red_moves({"a2": "rSs", "h5": "rSn"}, finished=2)
    assert "1: a2 F" in legal


def test_a_piece_destroyed_on_the_dog_leaves_the_other_die_to_a_martian_entering():
    # Red's only Mother on the board is destroyed on a1; the one in reserve enters with the 2.
    legal = red_moves({"b1": "rSw"}, finished=2)
    assert "1: b1 F" in legal
    assert [a for a in legal if a.startswith("2: +")]


def test_the_menu_offers_the_step_onto_the_dog_among_the_pieces_other_moves():
    # The step onto the Dog makes a move whose resolution the listing keeps: the menu still
    # sorts it with the piece's other moves by where they end and how they point.
    state = red_to_play({"b1": "rSw", "h5": "rSn"}, finished=2)
    reached = walk(DOG_RULES, state, RED, {"die": "1", "piece": "b1"})
    assert "1: b1 F" in reached
    assert sorted(reached) == sorted(
        a for a in DOG_RULES.legal(state, RED) if a.startswith("1: b1")
    )
