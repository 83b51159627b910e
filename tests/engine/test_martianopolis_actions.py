"""Martianopolis 500: resignations, legal actions and the house bot (actions.py)."""

from __future__ import annotations

import pytest

from engine import Await, IllegalAction, Played, Resigned, Shuffle, Shuffled, step
from tests.engine.test_martianopolis import (
    DECK,
    DOWN,
    P1,
    P2,
    P3,
    RULES,
    UP,
    L,
    M,
    S,
    cards_accounted,
    choose,
    dealt,
    moving,
    placed,
    run_moves,
    with_piles,
)


def test_only_a_seat_of_the_game_may_resign_and_only_once():
    state = dealt(3)
    for seat in (3, -1):
        with pytest.raises(IllegalAction, match=f"there is no seat {seat} in this game"):
            RULES.apply(state, Resigned(seat))
    state = step(RULES, state, Resigned(P1))
    assert state.result is None
    with pytest.raises(IllegalAction, match="Red has already resigned"):
        RULES.apply(state, Resigned(P1))


def test_a_seat_that_resigns_after_answering_plays_no_card_that_turn():
    state = with_piles(dealt(3), {P1: ["K♠"], P2: ["7♠"], P3: ["4♠"]})
    state = step(RULES, choose(state, {P1: UP}), Resigned(P1))
    assert state.choices[P1] is None
    state = choose(state, {P2: UP, P3: UP})
    # Red's answer left with Red: the face-up group is Yellow and Green, by Green's 4.
    assert state.movers == (P2, P3) and state.value == 4
    view = RULES.view(state, None)["players"][P1]
    assert view["choice"] is None and view["cards"] == [] and not view["face_down"]


def test_a_resignation_during_a_tie_break_reshuffle_settles_the_tie_without_that_seat():
    # Red and Yellow tie on 9s and Red's pile is empty: the rest must be reshuffled. Once
    # Red resigns the tie is gone, so Yellow (9) and Green (5) move by 5 with no shuffle.
    piles = {P1: ["9♣"], P2: ["9♦", "K♦"], P3: ["5♥"]}
    state = choose(with_piles(dealt(3), piles), {P1: UP, P2: UP, P3: UP})
    assert isinstance(RULES.pending(state), Shuffle)
    state = step(RULES, state, Resigned(P1))
    assert RULES.pending(state) == Await((P2,), "move")
    assert state.movers == (P2, P3) and state.value == 5
    assert cards_accounted(state) == list(DECK)


def test_a_resignation_while_a_deal_is_due_still_waits_for_the_deal():
    state = with_piles(dealt(3), {P1: ["5♠"], P2: ["7♠", "8♠"], P3: ["9♠", "2♠"]})
    state, _ = run_moves(choose(state, {P1: UP, P2: UP, P3: UP}))
    assert state.turn == 2 and RULES.pending(state) == Shuffle(51)
    state = step(RULES, state, Resigned(P3))
    assert state.stage is None and RULES.pending(state) == Shuffle(51)
    assert state.turn == 2
    state = step(RULES, state, Shuffled(tuple(range(51))))
    assert [len(p) for p in state.piles] == [26, 25, 0]


def test_a_seat_that_resigns_while_waiting_to_move_is_never_asked_to_move():
    state = with_piles(dealt(3), {P1: ["K♠"], P2: ["7♠"], P3: ["4♠"]})
    state = choose(state, {P1: UP, P2: UP, P3: UP})
    assert state.movers == (P1, P2, P3)
    state = step(RULES, state, Resigned(P3))
    assert state.movers == (P1, P2) and RULES.pending(state) == Await((P1,), "move")
    state, slots = run_moves(state)
    assert slots == [(P1, 4), (P2, 4)] and state.turn == 2
    assert not RULES.legal(state, P3)


def test_only_the_seat_the_game_waits_for_has_legal_actions():
    state = step(RULES, dealt(3), Played(P1, UP))
    assert RULES.legal(state, P1) == ()
    assert RULES.legal(state, P2) == (DOWN, UP)
    state = choose(state, {P2: UP, P3: UP})
    mover = state.movers[0]
    assert RULES.legal(state, mover)
    assert all(RULES.legal(state, seat) == () for seat in (P1, P2, P3) if seat != mover)


def test_no_one_has_a_legal_action_once_the_game_is_over():
    # Two resignations end the race while Green's card is still awaited.
    state = step(RULES, step(RULES, dealt(3), Resigned(P1)), Resigned(P2))
    assert state.result is not None and state.phase == "choose"
    assert all(RULES.legal(state, seat) == () for seat in (P1, P2, P3))


@pytest.mark.parametrize(
    ("top", "choice"),
    [("2♣", DOWN), ("6♥", DOWN), ("7♠", UP), ("10♦", UP), ("A♠", UP)],
)
def test_the_house_bot_plays_two_to_six_face_down_and_higher_cards_face_up(top, choice):
    # The face-down group moves by its highest card, so a low card gains by joining it.
    state = with_piles(dealt(2), {P1: [top], P2: ["9♠"]})
    assert RULES.bot_action(state, P1) == choice


def test_the_house_bot_has_nothing_to_play_for_a_seat_that_is_not_moving():
    state = moving(placed(dealt(2), {"b10": (P1, S), "c20": (P2, S)}), P1, 3)
    assert RULES.bot_action(state, P1) in RULES.legal(state, P1)
    with pytest.raises(IllegalAction, match="Yellow has no legal action now"):
        RULES.bot_action(state, P2)


def test_the_house_bot_prefers_an_exact_move_to_a_longer_crash():
    # Value 2: S on a10 has 3 points, but a13 and b12 are taken, so its only ends are
    # crashes (a12 after F2, b11 after O); L on c20 has 1 point and steps F exactly.
    racers = {"a10": (P1, S), "c20": (P1, L), "a13": (P2, S), "b12": (P2, M)}
    state = moving(placed(dealt(2), racers), P1, 2)
    assert set(RULES.legal(state, P1)) == {"S: F2", "S: O", "L: F"}
    assert RULES.bot_action(state, P1) == "L: F"


def test_on_a_tie_the_house_bot_moves_its_leading_racer_first():
    # Value 3: S on a10 has 5 points but a15 is taken, so it gets 4 squares at most
    # (F3 O to b14); M on c30 has 4 points and F4 takes it 4 squares too.
    racers = {"a10": (P1, S), "c30": (P1, M), "a15": (P2, S)}
    state = moving(placed(dealt(2), racers), P1, 3)
    assert "S: F3 O" in RULES.legal(state, P1) and "M: F4" in RULES.legal(state, P1)
    assert RULES.bot_action(state, P1) == "M: F4"


def test_a_card_answer_out_of_turn_names_the_seat():
    state = choose(dealt(2), {P1: UP})
    with pytest.raises(IllegalAction, match="^Red has already played this turn's card$"):
        RULES.apply(state, Played(P1, DOWN))
    with pytest.raises(IllegalAction, match="^Yellow must first play the card: write 'up' or"):
        RULES.apply(state, Played(P2, "S: F3"))
