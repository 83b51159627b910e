"""Push resolution in the Mad Dog phase: a resolution resumed after a choice keeps the winner."""

from __future__ import annotations

from engine.games.mad_dog import RULES
from tests.engine.test_mad_dog import on, play, position

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def test_a_seat_finishing_after_a_paused_push_does_not_take_the_win_from_the_first():
    # Blue finished first and holds the Dog. Green pushes Yellow's small onto h6, where it
    # pushes Red's last Martian, a standing large: Yellow chooses, and sends it onto h7.
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
    assert RULES.legal(state, YELLOW) == ("x rL:N", "x rL:S", "x rL:W")
    state = play(state, "x rL:N")
    assert on(state, "h7") == []  # Red's large finished there
    assert state.winner == BLUE
    assert state.dog is not None and state.dog[0] == BLUE
