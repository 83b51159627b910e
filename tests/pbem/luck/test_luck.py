"""Luck figures on games with known dice, and the fairness test against hand-computed values."""

from __future__ import annotations

import math

import pytest

import engine
from engine import Played, Rolled
from engine.games.martian_dice.odds import expected_roll, roll_worth
from pbem.luck.core import luck

NOTHING = (0, 0, 0, 0, 0)


def test_the_last_die_of_a_turn_is_worth_what_it_lets_the_turn_bank():
    # 6 rays, 3 humans, 3 cows aside and one die left: a chicken (1 in 6) makes 7 earthlings
    # and the bonus, 10 points; anything else leaves the 6 points aside.
    aside = (0, 6, 3, 3, 0)
    assert roll_worth(aside, (0, 0, 0, 0, 1)) == 10
    assert roll_worth(aside, (1, 0, 0, 0, 0)) == 6
    assert expected_roll(aside) == pytest.approx(5 / 6 * 6 + 1 / 6 * 10)


def test_a_last_die_rolled_after_twelve_chickens_can_lose_them_all_to_a_tank():
    # tank (1/6): 0; ray (2/6) or chicken (1/6): 12; human or cow (2/6): 13
    assert expected_roll((0, 0, 0, 0, 12)) == pytest.approx((0 + 24 + 12 + 26) / 6)


def test_a_turn_from_nothing_expects_about_three_points():
    assert roll_worth(NOTHING, (0, 0, 0, 0, 13)) == 13
    assert 3.0 < expected_roll(NOTHING) < 3.2


def test_a_martian_dice_game_with_known_dice_gives_each_seat_its_luck():
    rules = engine.rules_for("martian-dice")
    options = {"first_player": 0}
    events = [Rolled((6,) * 13), Played(0, "K")]
    state = engine.replay(rules, 2, options, events)
    assert state.scores == (13, 0)

    figures = luck.game_luck("martian-dice", 2, options, events)

    assert figures is not None
    assert figures.rolls == (1, 0)
    assert figures.received == (13, 0)
    assert figures.luck[0] == pytest.approx(13 - expected_roll(NOTHING))
    assert figures.luck[1] == 0


def test_a_race_game_counts_each_turns_dice_against_seven():
    rules = engine.rules_for("martian-race")
    state = rules.start(2, {})
    first = state.to_move
    events = [Rolled((6, 6))]
    state = engine.step(rules, state, events[0])
    while not isinstance(rules.pending(state), engine.Roll):
        (seat,) = rules.pending(state).seats
        move = Played(seat, rules.legal(state, seat)[0])
        events.append(move)
        state = engine.step(rules, state, move)
    events.append(Rolled((1, 2)))

    figures = luck.game_luck("martian-race", 2, {}, events)

    assert figures is not None
    assert figures.luck[first] == 12 - 7
    assert figures.luck[1 - first] == 3 - 7
    assert figures.rolls == (1, 1)


def test_games_without_dice_have_no_luck_figures():
    assert luck.game_luck("martianopolis-500", 3, {}, []) is None


def test_the_chi_square_and_its_p_value_match_a_hand_computation():
    # expected 20 per face: (10-20)^2/20 + 0 + (30-20)^2/20 = 10; two degrees of freedom
    # give p = exp(-10 / 2).
    test = luck.Fairness(3, (10, 20, 30))
    assert test.chi_square == 10
    assert test.p_value == pytest.approx(math.exp(-5), rel=1e-12)


@pytest.mark.parametrize(("chi_square", "df", "p"), [
    (11.0705, 5, 0.05),  # the d6 table's 5% critical value
    (15.0863, 5, 0.01),
    (3.841459, 1, 0.05),
    (0.0, 5, 1.0),
])
def test_the_p_value_matches_the_chi_square_tables(chi_square, df, p):
    assert luck.regularized_upper_gamma(df / 2, chi_square / 2) == pytest.approx(p, abs=1e-5)


def test_fairness_counts_every_face_of_each_die_size():
    tests = luck.fairness([(6, [1, 2, 6]), (2, [1]), (6, [6])])
    assert [(t.sides, t.counts) for t in tests] == [(2, (1, 0)), (6, (1, 1, 0, 0, 0, 2))]
    assert tests[1].total == 4


def test_shuffles_are_counted_by_the_item_they_put_first():
    (test,) = luck.fairness([], [[2, 0, 1], [0, 1, 2], [2, 1, 0]])
    assert (test.sides, test.counts, test.shuffle) == (3, (1, 0, 2), True)
    assert test.chi_square == pytest.approx(2.0)  # expected 1 each: 0 + 1 + 1
