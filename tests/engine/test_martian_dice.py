"""Martian Dice: the worked scenarios of turns, the duel and the end, and the rules around them."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Await,
    Finished,
    IllegalAction,
    InvalidAction,
    Played,
    Resigned,
    Roll,
    Rolled,
    SetupError,
    Shuffled,
    rules_for,
    step,
)
from engine.games.martian_dice import (
    RULES,
    DiceState,
    bot_choice,
    counts_of,
    roll_value,
    turn_points,
)
from engine.testing import chance_event

RED, BLUE, GREEN = 0, 1, 2
NOTHING = (0, 0, 0, 0, 0)


def started(seats: int = 2, first: int = RED, **options: object) -> DiceState:
    """A new game with the starting seat already chosen."""
    return RULES.start(seats, {"first_player": first, **options})


def faces(T: int = 0, R: int = 0, H: int = 0, C: int = 0, K: int = 0) -> tuple[int, ...]:
    """d6 values showing these counts (1 T, 2-3 R, 4 H, 5 C, 6 K)."""
    rays = tuple(2 + i % 2 for i in range(R))
    return (1,) * T + rays + (4,) * H + (5,) * C + (6,) * K


def roll(state: DiceState, **counts: int) -> DiceState:
    return step(RULES, state, Rolled(faces(**counts)))


def play(state: DiceState, text: str) -> DiceState:
    seat = state.to_move
    return step(RULES, state, Played(seat, RULES.parse_action(state, seat, text)))


def scoring_turn(state: DiceState, points: int) -> DiceState:
    """The player to move rolls and stops so as to score exactly `points` (0 to 13)."""
    if points == 0:
        return roll(state, T=13)
    state = roll(state, H=points, R=13 - points)
    return play(state, "H" if points == 13 else "H stop")


def at_round_end(scores: tuple[int, ...], first: int = RED, **options: object) -> DiceState:
    """The last seat of a final round about to play: every other seat has had its turn."""
    seats = len(scores)
    state = started(seats, first, **options)
    order = [(first + i) % seats for i in range(seats)]
    return replace(
        state,
        scores=scores,
        round=6,
        played=tuple(order[:-1]),
        to_move=order[-1],
        end_triggered=True,
    )


def duel_roll(state: DiceState, rays: int) -> DiceState:
    assert RULES.pending(state) == Roll(6)
    return roll(state, R=rays, H=6 - rays)


# --- worked scenarios -----------------------------------------------------------------------


def test_dice_t1_the_rulebook_sample_turn_scores_5():
    state = roll(started(), T=2, R=3, H=4, C=3, K=1)
    assert state.aside == (2, 0, 0, 0, 0)
    assert RULES.describe(state, Played(RED, "H roll"), None) == (
        "Red takes the 4 humans and rolls the 7 remaining dice"
    )
    state = roll(play(state, "H roll"), T=1, R=2, C=3, K=1)
    state = roll(play(state, "R roll"), H=2, C=1, K=1)
    assert RULES.legal(state, RED) == ("C roll", "C stop", "K roll", "K stop")
    state = roll(play(state, "K roll"), R=1, H=1, C=1)
    assert RULES.legal(state, RED) == ("R roll", "R stop", "C roll", "C stop")
    assert state.available == 3
    assert RULES.describe(state, Played(RED, "R stop"), None) == (
        "Red takes the 1 death ray and stops, scoring 5 points"
    )
    state = play(state, "R stop")
    assert state.last is not None
    assert state.last.aside == (3, 3, 4, 0, 1)
    assert state.last.points == 5
    assert state.last.ending == "stopped"
    assert 13 - sum(state.last.aside) == 2
    assert state.scores == (5, 0)
    assert state.to_move == BLUE
    assert RULES.pending(state) == Roll(13)


def test_dice_t2_more_tanks_than_rays_scores_nothing():
    state = roll(started(), T=5, R=2, H=3, C=2, K=1)
    assert RULES.describe(state, Played(RED, "H stop"), None) == (
        "Red takes the 3 humans and stops, scoring nothing: 5 tanks beat 0 death rays"
    )
    state = play(state, "H stop")
    assert state.last is not None and state.last.aside == (5, 0, 3, 0, 0)
    assert state.last.points == 0
    assert state.scores == (0, 0)


def test_dice_t3_all_three_earthlings_earn_the_bonus():
    state = roll(started(), T=1, R=3, H=4, C=2, K=3)
    state = roll(play(state, "R roll"), T=1, R=1, H=3, C=2, K=2)
    state = roll(play(state, "H roll"), T=1, R=1, C=2, K=1)
    state = roll(play(state, "C roll"), R=1, K=1)
    assert RULES.describe(state, Played(RED, "K stop"), None).endswith(
        "scoring 9 points with the bonus for all three earthlings"
    )
    state = play(state, "K stop")
    assert state.last is not None and state.last.aside == (3, 3, 3, 2, 1)
    assert state.last.points == 9
    assert state.scores == (9, 0)


def test_dice_t4_a_roll_of_only_taken_earthlings_ends_the_turn_by_itself():
    state = roll(started(), T=1, R=2, H=4, C=3, K=3)
    state = roll(play(state, "H roll"), R=2, C=3, K=3)
    state = roll(play(state, "C roll"), R=2, H=1, C=1, K=1)
    state = roll(play(state, "R roll"), H=2, C=1)
    assert state.last is not None and state.last.seat == RED
    assert state.last.ending == "no pick"
    assert state.last.points == 7  # 4 humans + 3 cows, 1 tank held off by 2 rays
    assert state.scores == (7, 0)
    assert RULES.pending(state) == Roll(13)
    assert state.to_move == BLUE


def test_dice_t5_a_roll_of_only_tanks_sets_them_aside_and_scores():
    state = roll(started(), H=8, R=3, C=1, K=1)
    state = roll(play(state, "H roll"), R=3, C=1, K=1)
    state = roll(play(state, "R roll"), T=2)
    assert state.last is not None
    assert state.last.aside == (2, 3, 8, 0, 0)
    assert state.last.ending == "no pick"
    assert state.scores == (8, 0)


def test_dice_t6_setting_aside_the_last_dice_scores_with_no_roll_or_stop():
    state = roll(started(), T=2, R=4, H=7)
    state = roll(play(state, "R roll"), H=7)
    assert RULES.legal(state, RED) == ("H",)
    assert RULES.parse_action(state, RED, "H roll") == "H"
    assert RULES.parse_action(state, RED, "humans stop") == "H"
    assert RULES.describe(state, Played(RED, "H"), None) == (
        "Red takes the 7 humans, the last dice, scoring 7 points"
    )
    state = play(state, "H")
    assert state.last is not None and state.last.ending == "all dice aside"
    assert state.scores == (7, 0)
    assert RULES.pending(state) == Roll(13)


def test_dice_t6_thirteen_of_a_kind_on_the_first_roll_ends_the_turn_at_once():
    state = roll(started(), C=13)
    assert RULES.legal(state, RED) == ("C",)
    assert play(state, "cows").scores == (13, 0)


def test_dice_t7_the_round_is_completed_after_someone_reaches_25():
    state = replace(started(3), scores=(20, 20, 10), round=6, played=(RED,), to_move=BLUE)
    state = scoring_turn(state, 6)
    assert state.scores == (20, 26, 10)
    assert state.end_triggered
    assert state.to_move == GREEN
    view = RULES.view(state, None)
    assert view["final_round"] is True
    assert view["played_final_round"] == [RED, BLUE]
    state = scoring_turn(state, 3)
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.ranks == (2, 1, 3)
    assert outcome.scores == (20, 26, 13)
    assert outcome.reason == "Blue wins with 26 points"
    with pytest.raises(IllegalAction, match="the game is over"):
        step(RULES, state, Rolled(faces(H=13)))


def test_dice_t7_the_last_seat_of_the_round_may_still_overtake():
    state = replace(started(3), scores=(20, 20, 20), round=6, played=(RED,), to_move=BLUE)
    state = scoring_turn(scoring_turn(state, 6), 8)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ranks == (3, 2, 1)
    assert outcome.reason == "Green wins with 28 points"


def test_dice_t7_reaching_25_on_the_last_seat_of_a_round_ends_the_game_at_once():
    state = at_round_end((24, 23, 20))
    state = scoring_turn(replace(state, end_triggered=False), 5)
    assert isinstance(RULES.pending(state), Finished)
    assert RULES.outcome(state) is not None
    assert RULES.outcome(state).ranks == (2, 3, 1)


def test_dice_t7_with_a_later_starting_seat_the_round_ends_before_it():
    state = RULES.start(3)
    assert RULES.pending(state) == Roll(1, sides=3)
    state = step(RULES, state, Rolled((2,)))
    assert state.first == BLUE and state.to_move == BLUE
    state = replace(state, scores=(24, 20, 20))
    state = scoring_turn(state, 1)  # Blue
    state = scoring_turn(state, 1)  # Green
    state = scoring_turn(state, 1)  # Red reaches 25 as the last seat of the round
    assert RULES.outcome(state) is not None
    assert RULES.outcome(state).ranks == (1, 2, 2)


def test_no_one_at_25_means_another_round_from_the_starting_seat():
    state = replace(started(3), scores=(20, 20, 20), played=(RED, BLUE), to_move=GREEN)
    state = scoring_turn(state, 4)
    assert not state.end_triggered
    assert state.round == 2
    assert state.played == ()
    assert state.to_move == RED


def test_dice_t8_a_tie_is_settled_by_a_death_ray_duel():
    state = scoring_turn(at_round_end((27, 20, 23)), 4)
    assert state.scores == (27, 20, 27)
    assert RULES.pending(state) == Roll(6)
    assert RULES.view(state, None)["duel"]["next"] == RED
    assert RULES.view(state, None)["duel"]["seats"] == [RED, GREEN]
    state = duel_roll(state, 3)
    assert RULES.view(state, None)["duel"]["next"] == GREEN
    state = duel_roll(state, 2)
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.ranks == (1, 3, 2)
    assert outcome.reason == (
        "Red and Green tie with 27 points; Red wins the death-ray duel (Red 3, Green 2 rays)"
    )


def test_dice_t8_a_tied_duel_is_rolled_again_by_default():
    state = scoring_turn(at_round_end((27, 20, 23)), 4)
    state = duel_roll(duel_roll(state, 2), 2)
    assert RULES.pending(state) == Roll(6)
    state = duel_roll(duel_roll(state, 1), 4)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 3, 1)
    assert "(Red 2, Green 2; Red 1, Green 4 rays)" in outcome.reason


def test_a_three_way_tie_is_resolved_by_repeated_duels():
    state = scoring_turn(at_round_end((27, 27, 24)), 3)
    state = duel_roll(duel_roll(duel_roll(state, 2), 2), 1)
    # Green rolled fewest and drops out; Red and Blue duel again, twice.
    assert RULES.view(state, None)["duel"]["next"] == RED
    state = duel_roll(duel_roll(state, 3), 3)
    assert RULES.pending(state) == Roll(6)
    state = duel_roll(duel_roll(state, 0), 1)
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.ranks == (2, 1, 3)
    assert outcome.scores == (27, 27, 27)
    assert "Blue wins the death-ray duel" in outcome.reason


@pytest.mark.parametrize(("retie", "decided"), [("repeat", False), ("shared", True)])
def test_the_duel_retie_option_rolls_a_tied_duel_again_or_leaves_it_shared(retie, decided):
    state = scoring_turn(at_round_end((27, 27, 24), duel_retie=retie), 3)
    state = duel_roll(duel_roll(duel_roll(state, 2), 2), 1)
    outcome = RULES.outcome(state)
    assert (outcome is not None) == decided
    assert isinstance(RULES.pending(state), Finished if decided else Roll)


def test_a_shared_duel_tie_ranks_the_tied_seats_first_together():
    state = scoring_turn(at_round_end((27, 27, 24), duel_retie="shared"), 3)
    state = duel_roll(duel_roll(duel_roll(state, 2), 2), 1)
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.ranks == (1, 1, 3)
    assert outcome.winners == (RED, BLUE)
    assert outcome.reason == (
        "Red, Blue and Green tie with 27 points; the death-ray duel was tied "
        "(Red 2, Blue 2, Green 1 rays), so Red and Blue share first place"
    )


def test_only_a_tie_for_first_place_is_duelled():
    state = scoring_turn(at_round_end((27, 20, 19)), 1)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 2, 2)


# --- turn rules around the scenarios -----------------------------------------------------


@pytest.mark.parametrize(
    ("aside", "points"),
    [
        ((0, 0, 0, 0, 0), 0),
        ((0, 0, 4, 0, 0), 4),
        ((1, 0, 4, 0, 0), 0),
        ((2, 2, 4, 0, 1), 5),
        ((3, 3, 3, 2, 1), 9),
        ((0, 5, 1, 1, 1), 6),
        ((4, 3, 1, 1, 1), 0),
        ((0, 13, 0, 0, 0), 0),
    ],
)
def test_a_turn_scores_its_earthlings_and_bonus_unless_tanks_outnumber_rays(aside, points):
    assert turn_points(aside) == points


@pytest.mark.parametrize(
    ("value", "face"),
    [(1, "tank"), (2, "ray"), (3, "ray"), (4, "human"), (5, "cow"), (6, "chicken")],
)
def test_the_server_d6_maps_to_faces_as_rules_4_1_says(value, face):
    state = step(RULES, started(), Rolled((value, *faces(R=12))))
    assert RULES.view(state, None)["rolled"][0] == face


def test_tanks_are_set_aside_by_themselves_and_never_picked():
    state = roll(started(), T=3, R=2, H=8)
    assert state.aside == (3, 0, 0, 0, 0)
    assert all(not action.startswith("T") for action in RULES.legal(state, RED))
    with pytest.raises(InvalidAction, match="tanks are set aside automatically"):
        RULES.parse_action(state, RED, "T roll")


def test_rays_may_be_picked_again_and_add_up():
    state = roll(started(), R=3, H=10)
    state = roll(play(state, "R roll"), R=2, H=8)
    assert "R roll" in RULES.legal(state, RED)
    state = play(state, "R roll")
    assert state.aside[1] == 5


def test_an_earthling_taken_once_cannot_be_taken_again():
    state = roll(started(), R=3, H=10)
    state = roll(play(state, "H roll"), R=2, H=1)
    assert RULES.legal(state, RED) == ("R roll", "R stop")
    with pytest.raises(IllegalAction) as caught:
        play(state, "H roll")
    assert str(caught.value) == (
        "'H roll' is not allowed: humans were already taken this turn; legal now: R roll, R stop"
    )


def test_a_type_that_was_not_rolled_cannot_be_taken():
    state = roll(started(), T=2, R=3, H=8)
    with pytest.raises(IllegalAction) as caught:
        play(state, "take the cows and roll")
    assert str(caught.value) == (
        "'C roll' is not allowed: no cow was rolled; legal now: R roll, R stop, H roll, H stop"
    )


def test_unpicked_rays_go_back_into_the_next_roll():
    state = roll(started(), T=1, R=4, H=8)
    state = play(state, "H roll")
    assert RULES.pending(state) == Roll(4)


def test_a_pick_is_compulsory_before_stopping():
    state = roll(started(), R=3, H=10)
    with pytest.raises(InvalidAction, match="it names no type"):
        RULES.parse_action(state, RED, "stop")
    assert "stop" not in RULES.legal(state, RED)


def test_picking_out_of_turn_or_before_the_roll_is_refused():
    state = roll(started(), R=3, H=10)
    with pytest.raises(IllegalAction, match="it is not Blue's turn"):
        step(RULES, state, Played(BLUE, "H roll"))
    with pytest.raises(IllegalAction, match="not Blue's turn to pick"):
        RULES.apply(state, Played(BLUE, "H roll"))
    waiting = play(state, "H roll")
    with pytest.raises(IllegalAction, match="^no pick is due: the dice must be rolled first$"):
        RULES.apply(waiting, Played(RED, "R roll"))
    with pytest.raises(IllegalAction, match="^no roll is due: a pick is awaited$"):
        RULES.apply(state, Rolled(faces(H=13)))


def test_a_finished_game_takes_no_event_and_no_game_takes_a_shuffle():
    state = step(RULES, started(), Resigned(BLUE))
    with pytest.raises(IllegalAction, match="^the game is over$"):
        RULES.apply(state, Rolled(faces(H=13)))
    with pytest.raises(IllegalAction, match="^Martian Dice has no use for Shuffled$"):
        RULES.apply(started(), Shuffled(tuple(range(13))))


def test_a_roll_of_the_wrong_size_is_refused():
    state = play(roll(started(), R=3, H=10), "H roll")
    with pytest.raises(IllegalAction, match=r"a roll of 3 dice of 6 sides is due, not \[4\]"):
        RULES.apply(state, Rolled((4,)))


def test_legal_lists_one_action_per_distinct_outcome():
    state = roll(started(), T=2, R=3, H=4, C=3, K=1)
    actions = RULES.legal(state, RED)
    assert actions == tuple(f"{t} {d}" for t in "RHCK" for d in ("roll", "stop"))
    outcomes = {json.dumps(RULES.dump(play(state, a)), sort_keys=True) for a in actions}
    assert len(outcomes) == len(actions)
    assert RULES.legal(state, BLUE) == ()


def test_the_game_is_registered_with_its_identity():
    assert rules_for("martian-dice") is RULES
    assert (RULES.kind, RULES.title, RULES.version) == ("martian-dice", "Martian Dice", 1)
    assert RULES.seats == (2, 3, 4, 5, 6, 7, 8)


def test_the_starting_seat_is_a_chance_event_of_the_server():
    for seats in (2, 5, 8):
        state = RULES.start(seats)
        assert RULES.pending(state) == Roll(1, sides=seats)
        state = step(RULES, state, Rolled((seats,)))
        assert state.first == seats - 1 and state.to_move == seats - 1
        assert RULES.pending(state) == Roll(13)


def test_the_starting_seat_may_be_set():
    state = RULES.start(4, {"first_player": "2"})
    assert state.to_move == 2
    assert RULES.pending(state) == Roll(13)


@pytest.mark.parametrize(
    ("seats", "options", "message"),
    [
        (3, {"first_player": 3}, r"'first_player': 3 is not a seat of a 3-player game \(0 to 2\)$"),
        (8, {"first_player": 8}, "'first_player': 8 is above 7"),
        (2, {"duel_retie": "sometimes"}, "'duel_retie': 'sometimes' is not one of repeat, shared"),
        (2, {"target": 30}, "unknown option 'target'"),
        (1, {}, "played by 2, 3, 4, 5, 6, 7, 8 players, not 1"),
        (9, {}, "not 9"),
    ],
)
def test_bad_setups_are_refused_naming_the_problem(seats, options, message):
    with pytest.raises(SetupError, match=message):
        RULES.start(seats, options)


# --- resignations ---------------------------------------------------------------------------


def test_a_resigned_seat_is_skipped_and_ranks_last():
    state = step(RULES, started(3), Resigned(BLUE))
    assert RULES.outcome(state) is None
    state = scoring_turn(state, 2)
    assert state.to_move == GREEN
    state = scoring_turn(state, 1)
    assert state.to_move == RED and state.round == 2
    state = replace(state, scores=(24, 30, 1))
    state = scoring_turn(scoring_turn(state, 1), 0)
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.ranks == (1, 3, 2)
    assert outcome.reason == "Red wins with 25 points"


def test_resigning_on_your_turn_forfeits_the_turn_points():
    state = roll(started(3), R=3, H=10)
    state = step(RULES, play(state, "H roll"), Resigned(RED))
    assert state.scores == (0, 0, 0)
    assert state.last is not None and state.last.ending == "resigned"
    assert state.to_move == BLUE
    assert RULES.pending(state) == Roll(13)


def test_the_last_seat_left_wins():
    state = step(RULES, started(3), Resigned(GREEN))
    state = step(RULES, state, Resigned(RED))
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.ranks == (2, 1, 3)  # Red resigned after Green, so ranks above it
    assert outcome.reason == "Blue wins: every other player resigned"


def test_a_resignation_before_the_start_passes_the_first_turn_on():
    state = step(RULES, RULES.start(3), Resigned(BLUE))
    state = step(RULES, state, Rolled((2,)))
    assert state.first == BLUE and state.to_move == GREEN


def test_a_duellist_who_resigns_loses_the_duel():
    state = scoring_turn(at_round_end((27, 20, 23)), 4)
    state = step(RULES, duel_roll(state, 1), Resigned(GREEN))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 2, 3)
    # The duel was never decided: Red wins on points, and the abandoned roll is not named.
    assert outcome.reason == "Red wins with 27 points"


def test_a_duel_decided_by_a_resignation_names_only_the_rounds_that_decided_it():
    # Red and Blue roll most rays in the first round and duel again; Red has rolled in the
    # second round when Blue resigns. The first round already put Red above Green, so it
    # decides the duel; the second, unfinished round is dropped.
    state = scoring_turn(at_round_end((27, 27, 24)), 3)
    state = duel_roll(duel_roll(duel_roll(state, 2), 2), 1)
    state = step(RULES, duel_roll(state, 4), Resigned(BLUE))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 3, 2)
    assert outcome.reason == (
        "Red and Green tie with 27 points; "
        "Red wins the death-ray duel (Red 2, Blue 2, Green 1 rays)"
    )


def test_a_duellist_who_resigns_after_rolling_leaves_no_one_to_roll():
    # Two players: Red rolls in the duel, then resigns. Blue is the last seat left and wins;
    # the finished view names nobody as the next to roll.
    state = duel_roll(scoring_turn(at_round_end((27, 23)), 4), 1)
    assert RULES.view(state, None)["duel"]["next"] == BLUE
    state = step(RULES, state, Resigned(RED))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason == "Blue wins: every other player resigned"
    assert RULES.view(state, None)["duel"]["next"] is None


def test_when_the_last_seat_of_the_final_round_resigns_the_game_ends():
    state = step(RULES, roll(at_round_end((27, 26, 30)), H=5, R=8), Resigned(GREEN))
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.ranks == (1, 2, 3)
    assert outcome.reason == "Red wins with 27 points"


def test_a_resignation_out_of_turn_that_leaves_one_seat_ends_the_game():
    # Red is in the middle of a turn; the game ends with no turn in progress.
    state = roll(play(roll(started(), H=5, R=8), "H roll"), R=4, C=4)
    state = step(RULES, state, Resigned(BLUE))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 2)
    assert outcome.reason == "Red wins: every other player resigned"
    assert (state.aside, state.rolled, state.rolls, state.picks) == (NOTHING, None, (), ())
    view = RULES.view(state, None)
    assert view["rolled"] is None and view["picks"] == [] and view["turn_points"] == 0
    assert all(d["where"] == "cup" for d in view["dice"])


@pytest.mark.parametrize("seat", [-1, 2])
def test_only_a_seat_of_the_game_may_resign(seat):
    # engine.step checks the seat first; the rules refuse it too when applied directly.
    for apply in (lambda state, event: step(RULES, state, event), RULES.apply):
        with pytest.raises(IllegalAction, match=f"^there is no seat {seat} in this game$"):
            apply(started(), Resigned(seat))


def test_resigning_twice_is_refused():
    state = step(RULES, started(3), Resigned(GREEN))
    with pytest.raises(IllegalAction, match="Green has already resigned"):
        step(RULES, state, Resigned(GREEN))


# --- notation, sentences, views ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("H roll", "H roll"),
        ("h ROLL", "H roll"),
        ("  H    roll  ", "H roll"),
        ("humans roll", "H roll"),
        ("Human, roll again", "H roll"),
        ("take the 4 humans and roll", "H roll"),
        ("R stop", "R stop"),
        ("rays stop", "R stop"),
        ("Death-Rays: STOP", "R stop"),
        ("take the death ray and stop.", "R stop"),
        ("C roll", "C roll"),
        ("take the cows and roll", "C roll"),
        ("cow; reroll", "C roll"),
        ("K stop", "K stop"),
        ("chickens stop", "K stop"),
        ("Chicken & bank", "K stop"),
    ],
)
def test_notation_is_forgiving_of_case_spacing_words_and_plurals(text, canonical):
    state = roll(started(), T=1, R=3, H=4, C=3, K=2)
    assert RULES.parse_action(state, RED, text) == canonical


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "it names no type"),
        ("roll", "it names no type"),
        ("stop", "it names no type"),
        ("H C roll", "it names more than one type"),
        ("humans and cows", "it names more than one type"),
        ("H roll stop", "it says both roll and stop"),
        ("pigs roll", "'pigs' is not part of a pick"),
        ("tanks", "tanks are set aside automatically"),
        ("H", "say whether you roll the 8 dice left or stop"),
    ],
)
def test_unreadable_notation_names_what_was_given_and_the_expected_form(text, problem):
    state = roll(started(), T=1, R=3, H=4, C=3, K=2)
    with pytest.raises(InvalidAction) as caught:
        RULES.parse_action(state, RED, text)
    message = str(caught.value)
    assert f"cannot read {text.strip()!r}" in message
    assert problem in message
    assert "'H roll'" in message


def test_overlong_notation_is_refused_with_its_length():
    with pytest.raises(InvalidAction, match="that is 300 characters long; write the type"):
        RULES.parse_action(started(), RED, "H " * 150)
    state = roll(started(), T=1, R=3, H=4, C=3, K=2)
    assert RULES.parse_action(state, RED, "H roll".ljust(200)) == "H roll"
    with pytest.raises(InvalidAction, match="^that is 201 characters long; write the type"):
        RULES.parse_action(state, RED, "H roll".ljust(201))


@pytest.mark.parametrize(
    ("text", "problem"),
    [("roll", "it names no type"), ("H C roll", "it names more than one type")],
)
def test_a_pick_naming_no_type_or_two_says_which(text, problem):
    with pytest.raises(InvalidAction, match=f"^cannot read '{text}': {problem}; write the type"):
        RULES.parse_action(started(), RED, text)


CANONICAL = {f"{letter} {d}" for letter in "RHCK" for d in ("roll", "stop")} | set("RHCK")


@given(st.text(max_size=60))
def test_any_text_parses_to_a_canonical_action_or_a_clean_invalid_action(text):
    for state in (started(), roll(started(), T=1, R=3, H=4, C=3, K=2), roll(started(), K=13)):
        try:
            action = RULES.parse_action(state, RED, text)
        except InvalidAction:
            continue
        assert action in CANONICAL
        assert RULES.parse_action(state, RED, action) == action


WORDS = ["h", "R", "cows", "chicken", "death", "ray", "roll", "stop", "take", "the", "4", "x", " "]


@given(st.lists(st.sampled_from(WORDS), max_size=8))
def test_near_miss_notation_never_escapes_as_another_exception(words):
    state = roll(started(), T=1, R=3, H=4, C=3, K=2)
    try:
        action = RULES.parse_action(state, RED, " ".join(words))
    except InvalidAction:
        return
    assert action in CANONICAL


def test_describe_names_the_seat_that_picks_for_every_reader():
    state = roll(started(3, first=BLUE), T=2, R=3, H=4, C=3, K=1)
    for viewer in (None, RED, BLUE, GREEN):
        assert RULES.describe(state, Played(BLUE, "H roll"), viewer) == (
            "Blue takes the 4 humans and rolls the 7 remaining dice"
        )


def test_describe_falls_back_to_the_action_text_when_it_cannot_say_more():
    assert RULES.describe(started(), Played(RED, "H roll"), None) == "Red plays H roll"
    no_humans = roll(started(), T=1, R=3, C=5, K=4)
    assert RULES.describe(no_humans, Played(RED, "H roll"), None) == "Red plays H roll"
    assert RULES.describe(started(), Played(RED, "gibberish"), None) == "Red plays gibberish"


def test_the_view_is_json_and_shows_dice_aside_scores_and_whose_turn():
    state = roll(started(3), T=2, R=3, H=4, C=3, K=1)
    state = roll(play(state, "H roll"), T=1, R=2, C=3, K=1)
    for seat in (None, RED, BLUE, GREEN):
        view = RULES.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        assert view["viewer"] == seat
    view = RULES.view(state, BLUE)
    assert view["game"] == "martian-dice"
    assert view["players"] == ["Red", "Blue", "Green"]
    assert view["rolled"] == ["tank", "ray", "ray", "cow", "cow", "cow", "chicken"]
    assert view["rolled_counts"] == {"tank": 1, "ray": 2, "human": 0, "cow": 3, "chicken": 1}
    assert view["aside"] == {"tank": 3, "ray": 0, "human": 4, "cow": 0, "chicken": 0}
    assert view["available"] == 6
    assert view["turn_points"] == 0
    assert view["to_move"] == RED and view["awaiting"] == [RED]
    assert view["legal"] == ["R roll", "R stop", "C roll", "C stop", "K roll", "K stop"]
    assert view["scores"] == [0, 0, 0]
    assert view["final_round"] is False and view["played_final_round"] == []
    assert not view["finished"] and view["outcome"] is None
    dice = view["dice"]
    assert len(dice) == 13
    assert [d["where"] for d in dice].count("aside") == 7
    assert [d["face"] for d in dice if d["where"] == "rolled"] == ["ray"] * 2 + ["cow"] * 3 + [
        "chicken"
    ]


def test_the_view_summarises_the_previous_turn():
    state = roll(started(), T=2, R=3, H=4, C=3, K=1)
    state = play(roll(play(state, "H roll"), T=1, R=2, C=3, K=1), "R stop")
    last = RULES.view(state, None)["last"]
    assert last == {
        "seat": RED,
        "name": "Red",
        "rolls": [
            ["tank"] * 2 + ["ray"] * 3 + ["human"] * 4 + ["cow"] * 3 + ["chicken"],
            ["tank", "ray", "ray", "cow", "cow", "cow", "chicken"],
        ],
        "picks": ["H roll", "R stop"],
        "aside": {"tank": 3, "ray": 2, "human": 4, "cow": 0, "chicken": 0},
        "points": 0,
        "ending": "stopped",
    }


def test_the_finished_view_carries_the_outcome():
    state = duel_roll(duel_roll(scoring_turn(at_round_end((27, 20, 23)), 4), 3), 2)
    view = RULES.view(state, None)
    assert view["finished"] is True
    assert view["outcome"] == RULES.outcome(state).to_json()
    assert view["duel"]["rounds"] == [[{"seat": RED, "rays": 3}, {"seat": GREEN, "rays": 2}]]
    assert view["awaiting"] == [] and view["to_move"] is None


@pytest.mark.parametrize("rays", [None, 2])
def test_dump_and_load_round_trip_mid_turn_mid_duel_and_finished(rays):
    states = [roll(started(), T=2, R=3, H=4, C=3, K=1)]
    states.append(roll(play(states[0], "H roll"), T=1, R=2, C=3, K=1))
    assert states[-1].picks == ("H roll",)
    dueling = scoring_turn(at_round_end((27, 20, 23)), 4)
    states.append(duel_roll(dueling, 3))
    if rays is not None:
        states.append(duel_roll(duel_roll(dueling, rays), 1))
    for state in states:
        assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state


# --- the house bot -----------------------------------------------------------------------


def test_the_bot_stops_when_reaching_25_is_assured():
    state = replace(roll(started(), R=4, H=9), scores=(20, 0))
    assert RULES.bot_action(state, RED) == "H stop"


def test_the_bot_rolls_on_when_tanks_outnumber_its_rays():
    state = roll(started(), T=4, R=1, H=4, C=2, K=2)
    assert RULES.bot_action(state, RED).endswith("roll")


def test_the_bot_chooses_death_rays_against_a_tank_build_up_like_the_rulebook():
    state = roll(started(), T=2, R=3, H=4, C=3, K=1)
    state = roll(play(state, "H roll"), T=1, R=2, C=3, K=1)
    assert RULES.bot_action(state, RED) == "R roll"


def test_the_bot_keeps_rolling_in_the_final_round_while_it_still_trails():
    state = replace(roll(started(), R=4, H=9), scores=(10, 26), end_triggered=True, played=(1,))
    assert RULES.bot_action(state, RED) == "H roll"


@pytest.mark.parametrize(("aside", "rolled", "action"), [
    # Blue has 20 against Red's 26 in the final round; only humans can be taken, and two
    # dice stay in the cup. With 4 humans and 2 cows in hand (6 points) Blue would only tie
    # at 26, so it rolls on; with 7 it leads at 27 and stops, though it reached 25 anyway.
    ((1, 4, 0, 2, 0), faces(T=1, H=4, C=2), "H roll"),
    ((0, 4, 0, 2, 0), faces(H=5, C=2), "H stop"),
])
def test_the_bot_in_the_final_round_needs_one_point_more_than_the_leader(aside, rolled, action):
    state = replace(at_round_end((26, 20)), aside=aside, rolled=rolled)
    assert RULES.legal(state, BLUE) == ("H roll", "H stop")
    assert RULES.bot_action(state, BLUE) == action


def test_the_bot_has_no_action_for_a_seat_with_nothing_to_pick():
    state = roll(started(), T=1, R=3, H=4, C=3, K=2)
    with pytest.raises(IllegalAction, match="Blue has no legal action now"):
        RULES.bot_action(state, BLUE)
    with pytest.raises(IllegalAction, match="Red has no legal action now"):
        RULES.bot_action(started(), RED)


def test_between_picks_of_equal_worth_the_bot_takes_the_death_rays():
    # 2 tanks, 1 ray and 10 chickens: one more roll cannot make either pick score (the ray
    # leaves ten dice but one type to take from them; the chickens leave one die and too
    # few rays), so both are worth 0 and the bot keeps the ray against the tanks.
    rolled = counts_of(faces(T=2, R=1, K=10))
    assert roll_value((2, 1, 0, 0, 0), 10) == 0 == roll_value((2, 0, 0, 0, 10), 1)
    assert bot_choice((2, 0, 0, 0, 0), rolled, 0, None) == (1, False)


def test_the_bot_stops_at_exactly_25_and_rolls_on_below():
    # 7 rays and two of each earthling: the bot takes the humans (2 points) and, far from
    # 25, rolls on (one more roll expects 2.10); at 23 the 2 points reach 25 and it stops.
    rolled = counts_of(faces(R=7, H=2, C=2, K=2))
    assert roll_value((0, 0, 2, 0, 0), 11) > 2
    assert bot_choice(NOTHING, rolled, 0, None) == (2, True)
    assert bot_choice(NOTHING, rolled, 22, None) == (2, True)
    assert bot_choice(NOTHING, rolled, 23, None) == (2, False)


def test_the_bot_never_asks_to_roll_when_no_dice_are_left():
    assert bot_choice(NOTHING, counts_of(faces(K=13)), 0, None) == (4, False)
    assert bot_choice(NOTHING, counts_of(faces(K=13)), 0, 30) == (4, False)


def test_the_bot_banks_a_good_turn_rather_than_risk_it():
    aside, rolled = (2, 2, 4, 0, 0), counts_of(faces(R=1, C=3, K=1))
    assert bot_choice(aside, rolled, 0, None) == (3, False)  # take the cows and stop at 7
    assert roll_value((2, 2, 4, 3, 0), 2) < turn_points((2, 2, 4, 3, 0))


@pytest.mark.parametrize("seats", [2, 3, 5, 8])
def test_the_house_bot_plays_complete_games(seats):
    for seed in range(3):
        rng = random.Random(seed)
        state = RULES.start(seats)
        turns = 0
        while not isinstance(pending := RULES.pending(state), Finished):
            if isinstance(pending, Await):
                seat = pending.seats[0]
                action = RULES.bot_action(state, seat)
                assert action in RULES.legal(state, seat)
                event = Played(seat, action)
                turns += 1
            else:
                event = chance_event(rng, pending)
            state = step(RULES, state, event)
        outcome = pending.outcome
        assert max(outcome.scores) >= 25
        assert "wins" in outcome.reason or "share first place" in outcome.reason
        assert state.round < 40 and turns < 1000


def mean_turn_points(policy, turns: int, seed: int) -> float:
    """Average points of single turns played by a policy on seeded dice."""
    rng = random.Random(seed)
    total = 0
    for _ in range(turns):
        state = started()
        while state.last is None:
            pending = RULES.pending(state)
            if isinstance(pending, Await):
                event = Played(RED, policy(state))
            else:
                event = chance_event(rng, pending)
            state = step(RULES, state, event)
        total += state.last.points
    return total / turns


def test_the_bot_scores_far_more_per_turn_than_naive_policies():
    # The best possible average from a fresh roll is about 3.11 points (exact recursion).
    bot = mean_turn_points(lambda s: RULES.bot_action(s, RED), 600, seed=1)
    always_roll = mean_turn_points(lambda s: RULES.legal(s, RED)[0], 600, seed=1)
    first_stop = mean_turn_points(
        lambda s: next(a for a in RULES.legal(s, RED) if not a.endswith("roll")), 600, seed=1
    )
    assert bot > 2.6
    assert bot > 3 * always_roll
    assert bot > 10 * first_stop + 1


def test_describe_does_not_guess_a_missing_decision():
    state = roll(started(), T=1, R=3, H=4, C=3, K=2)
    assert RULES.describe(state, Played(RED, "H"), None) == "Red plays H"


@settings(max_examples=20)  # each example plays a whole game
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 5))
def test_a_pick_either_adds_to_the_turn_or_passes_the_dice_on(seed: int, seats: int) -> None:
    # So the picks of one seat in one round never stay as they were after a pick: whether
    # same_turn asks for more picks (>) or as many (>=) gives the same answer in play.
    rng = random.Random(seed)
    state = RULES.start(seats, {})
    while not isinstance(pending := RULES.pending(state), Finished):
        if not isinstance(pending, Await):
            state = step(RULES, state, chance_event(rng, pending))
            continue
        (seat,) = pending.seats
        after = step(RULES, state, Played(seat, rng.choice(RULES.legal(state, seat))))
        while isinstance(due := RULES.pending(after), Roll):
            after = step(RULES, after, chance_event(rng, due))
        if (after.to_move, after.round) == (state.to_move, state.round):
            assert after.picks[:-1] == state.picks and len(after.picks) == len(state.picks) + 1
            assert RULES.same_turn(state, after)
        else:
            assert after.picks == () and not RULES.same_turn(state, after)
        state = after


def test_a_state_does_not_continue_itself():
    # The one pair of states that tells `>` from `>=` in same_turn: nothing was picked.
    state = roll(started(), R=2, H=2, C=2, K=2, T=5)
    state = play(state, "R roll")
    state = roll(state, R=3, H=1, C=2, K=0, T=0)
    assert state.picks == ("R roll",)
    assert not RULES.same_turn(state, state)


# --- chance addresses, rolls in words, duplicate boards ------------------------------------


def test_each_pending_roll_has_the_address_its_docstring_describes():
    # Two tables in the same position share these names (dice scheme 2), so they must never
    # change: "first", "round3/seat1/roll2", "duel2/1"; none while a pick or nothing is due.
    state = RULES.start(2)
    assert RULES.chance_address(state) == "first"
    state = step(RULES, state, Rolled((2,)))
    assert RULES.chance_address(state) == "round1/seat1/roll1"
    state = roll(state, T=2, R=3, H=4, C=3, K=1)
    assert RULES.chance_address(state) is None
    state = play(state, "H roll")
    assert RULES.chance_address(state) == "round1/seat1/roll2"
    state = play(roll(state, R=2, C=3, K=2), "K stop")
    assert RULES.chance_address(state) == "round1/seat0/roll1"  # Red plays after Blue
    state = scoring_turn(state, 3)
    assert RULES.chance_address(state) == "round2/seat1/roll1"
    duel = scoring_turn(at_round_end((27, 20, 23)), 4)
    assert RULES.chance_address(duel) == "duel1/0"
    duel = duel_roll(duel, 2)
    assert RULES.chance_address(duel) == "duel1/1"
    duel = duel_roll(duel, 2)
    assert RULES.chance_address(duel) == "duel2/0"
    duel = duel_roll(duel_roll(duel, 3), 1)
    assert RULES.outcome(duel) is not None and RULES.chance_address(duel) is None


@pytest.mark.parametrize("seed", range(5))
def test_no_two_rolls_of_a_game_share_an_address(seed):
    rng = random.Random(seed)
    state = RULES.start(3, {})
    seen: list[str | None] = []
    while not isinstance(pending := RULES.pending(state), Finished):
        if isinstance(pending, Roll):
            seen.append(RULES.chance_address(state))
            state = step(RULES, state, chance_event(rng, pending))
        else:
            (seat,) = pending.seats
            state = step(RULES, state, Played(seat, RULES.bot_action(state, seat)))
    assert None not in seen and len(set(seen)) == len(seen)


@pytest.mark.parametrize(("rays", "left"), [(1, "1 die"), (2, "2 dice")])
def test_a_pick_without_a_decision_says_how_many_dice_are_left(rays, left):
    state = roll(started(), R=rays, H=13 - rays)
    with pytest.raises(InvalidAction) as caught:
        RULES.parse_action(state, RED, "H")
    assert str(caught.value) == (
        f"cannot read 'H': say whether you roll the {left} left or stop, "
        "like 'H roll' or 'H stop'"
    )


@pytest.mark.parametrize("seats", range(2, 9))
def test_the_opening_roll_is_a_plain_number_whatever_the_number_of_seats(seats):
    # With six seats the opening roll is a d6 too; it still names a seat, not a face.
    assert RULES.describe_roll(RULES.start(seats), (3,)) is None


def test_turn_and_duel_rolls_are_told_by_their_faces_most_first():
    assert RULES.describe_roll(started(), (3, 2, 4)) == "Rolled 2 death rays, 1 human (3 2 4)"
    assert RULES.describe_roll(started(), (6, 1, 5, 4)) == (
        "Rolled 1 tank, 1 human, 1 cow, 1 chicken (6 1 5 4)"
    )
    duel = scoring_turn(at_round_end((27, 20, 23)), 4)
    assert RULES.describe_roll(duel, (2, 2, 2, 4, 4, 6)) == (
        "Rolled 3 death rays, 2 humans, 1 chicken (2 2 2 4 4 6)"
    )
    state = roll(started(), T=2, R=3, H=4, C=3, K=1)
    assert RULES.describe_roll(state, (1,)) is None  # a pick is due, not a roll


def test_a_duplicate_board_compares_each_finished_turn_by_its_round_and_seat():
    duplicate = RULES.duplicate
    state = play(roll(started(), T=2, R=3, H=4, C=3, K=1), "H roll")
    assert tuple(duplicate.turns(state, state)) == ()
    before = roll(state, T=1, R=2, C=3, K=1)
    assert tuple(duplicate.turns(state, before)) == ()  # the turn goes on
    after = play(before, "R stop")
    ((key, turn),) = duplicate.turns(before, after)
    assert key == (1, RED)
    assert turn.rolls == ("TTRRRHHHHCCCK", "TRRCCCK")
    assert turn.picks == ("H roll", "R stop")
    assert (turn.points, turn.ending) == (0, "stopped")
    # Blue's turn ends the round: it is still round 1's, though the state is in round 2.
    blue = roll(after, T=13)
    assert blue.round == 2
    ((key, turn),) = duplicate.turns(after, blue)
    assert key == (1, BLUE)
    assert (turn.rolls, turn.picks) == (("T" * 13,), ())
    assert (turn.points, turn.ending) == (0, "no pick")
    assert tuple(duplicate.turns(blue, blue)) == ()
    assert duplicate.label(2, BLUE) == "Round 2, Blue"


def test_a_seat_beyond_the_eight_colours_is_named_by_its_number():
    state = started(8)
    assert [RULES.seat_name(state, s) for s in (0, 7)] == ["Red", "White"]
    assert RULES.seat_name(state, 8) == "seat 8"
    assert RULES.seat_name(state, -1) == "seat -1"
