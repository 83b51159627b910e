"""Push resolution in the Mad Dog phase: a resolution resumed after a choice keeps the winner."""

from __future__ import annotations

from engine.games.mad_dog import RULES
from engine.games.mars import moves
from engine.games.mars.geometry import BOARD, FINISHED, square_name
from engine.games.mars.perform import resolution_of
from engine.games.mars.state import MarsState
from tests.engine.test_mad_dog import on, play, position

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def yellow_to_push_reds_last_large() -> MarsState:
    """Blue finished first and holds the Dog. Green pushes Yellow's small onto h6, where it
    must push Red's last Martian, a standing large, one square: Yellow chooses where."""
    state = position(
        {"h6": "rL^", "h4": "ySn", "h3": "gSn"},
        seats=4,
        finished={RED: 4, BLUE: 5},
        dog=(BLUE, "a1", "^"),
        dice=(1,),
        to_move=GREEN,
    )
    state = play(state, "1: h3 F x yS:NN")
    assert state.chooser == YELLOW
    return state


def test_a_seat_finishing_after_a_paused_push_does_not_take_the_win_from_the_first():
    state = yellow_to_push_reds_last_large()
    assert RULES.legal(state, YELLOW) == ("x rL:N", "x rL:S", "x rL:W")
    state = play(state, "x rL:N")
    assert on(state, "h7") == []  # Red's large finished there
    assert state.winner == BLUE
    assert state.dog is not None and state.dog[0] == BLUE


def test_the_ends_of_a_paused_resolution_are_one_per_answer_the_first_answer_first():
    state = yellow_to_push_reds_last_large()
    large = next(
        i for i, p in enumerate(state.pieces) if p.owner == RED and p.status == BOARD
    )
    ends = []
    for final in moves.finals(resolution_of(state), False):
        status, square = final.pos.status[large], final.pos.square[large]
        ends.append("finished" if status == FINISHED else square_name(square))
        assert final.winner == BLUE
    # The answers as listed: x rL:N (onto h7, where it finishes), x rL:S, x rL:W.
    assert ends == ["finished", "h5", "g6"]
