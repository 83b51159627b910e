"""Martianopolis 500: the rules object's own answers (rules.py)."""

from __future__ import annotations

from engine import Played, Resigned, step
from tests.engine.test_martianopolis import DOWN, P1, P2, P3, RULES, UP, dealt, run_moves


def test_a_turn_is_the_same_turn_until_the_next_card_or_the_end_of_the_race():
    state = dealt(3)
    after_card = step(RULES, state, Played(P1, UP))
    assert RULES.same_turn(state, after_card)
    moving = step(RULES, step(RULES, after_card, Played(P2, UP)), Played(P3, DOWN))
    assert RULES.same_turn(state, moving)
    next_turn, _ = run_moves(moving)
    assert next_turn.turn == 2
    assert not RULES.same_turn(moving, next_turn)
    assert RULES.same_turn(next_turn, next_turn)
    over = step(RULES, step(RULES, moving, Resigned(P1)), Resigned(P2))
    assert over.turn == moving.turn and not RULES.same_turn(moving, over)


def test_the_rules_reveal_a_round_answer_when_the_round_completes():
    state = dealt(2)
    first = Played(P1, UP)
    after_first = step(RULES, state, first)
    assert RULES.is_secret(state, first)
    assert not RULES.is_revealed(state, first, after_first)
    done = step(RULES, after_first, Played(P2, DOWN))
    assert RULES.is_revealed(state, first, done)
    assert RULES.is_revealed(after_first, Played(P2, DOWN), done)
