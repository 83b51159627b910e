"""Martian Race and Mad Dog: the turn flow, the rules object, the state and the registry.

Written for the mutants that the other tests left alive (docs/mutants/mars-games.md): each
test pins a behaviour of `engine/games/mars/turns.py`, `rules.py`, `state.py`,
`engine/games/martian_race.py`, `mad_dog.py` or the game registry that no test read before.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import engine
from engine import (
    IllegalAction,
    InvalidAction,
    Played,
    Resigned,
    Rolled,
    SetupError,
    Shuffled,
    UnknownGame,
    rules_for,
    step,
)
from engine.games import refresh
from engine.games.mad_dog import RULES as MAD_DOG
from engine.games.mars import choices, reading, turns
from engine.games.mars.geometry import FINISHED, OUT
from engine.games.mars.state import chained, evolve, snapshot
from engine.games.martian_race import RULES
from tests.engine.test_mad_dog import play as dog_play
from tests.engine.test_mad_dog import position as dog_position
from tests.engine.test_martian_race import BLUE, GREEN, RED, on, play, position, roll

BOXED = {"a2": "rL^", "a3": "bS^ bS^", "b2": "gS^ gS^", "a1": "yS^ yS^"}  # MR-T10: Red can't move
PUSHING = {"d4": "bSe", "d5": "gSe", "d3": "rSn"}  # Red's 1 pushes Blue, whose push Blue picks


def chain_of_three(rules=RULES):
    """Red's move pushes Blue, Blue's answer pushes Green, Green's answer ends the chain."""
    state = position({"d4": "bSe", "d5": "gSe", "d6": "ySe", "d3": "rSn"}, seats=4, dice=(1, 6))
    moved = play(state, "1: d3 F x bS:N", rules=rules)
    answered = play(moved, "x gS:N", seat=BLUE, rules=rules)
    return moved, answered, play(answered, "x yS:N", seat=GREEN, rules=rules)


# --- the rules object ------------------------------------------------------------------------


def test_a_new_game_has_nothing_rolled_pushed_counted_or_finished():
    state = RULES.start(3)
    assert (state.roll, state.dice, state.queue, state.stage, state.seen) == (None, (), (), 0, ())
    assert (state.victims, state.winner, state.chooser, state.dog) == (0, None, None, None)
    assert (state.turns, state.calm, state.dog_turns, state.resigned) == (0, 0, 0, ())
    assert (state.to_move, state.result, state.last) == (0, None, None)


def test_the_dice_of_a_turn_have_an_address_only_while_a_roll_is_due():
    state = RULES.start(3)
    assert RULES.chance_address(state) == "turn0/seat0"
    rolled = roll(state, 5, 1)
    assert RULES.chance_address(rolled) is None
    pushed = play(position(PUSHING, seats=3, dice=(1, 6)), "1: d3 F x bS:N")
    assert pushed.chooser == BLUE and RULES.chance_address(pushed) is None
    over = step(RULES, step(RULES, state, Resigned(BLUE)), Resigned(GREEN))
    assert over.result is not None and over.roll is None
    assert RULES.chance_address(over) is None
    assert RULES.chance_address(replace(state, turns=12, to_move=2)) == "turn12/seat2"


def test_the_same_turn_is_the_same_mover_at_the_same_count_of_turns():
    state = roll(RULES.start(2), 5, 1)
    assert RULES.same_turn(state, play(state, "5: +E F3 U"))
    assert not RULES.same_turn(state, replace(state, turns=1))
    assert not RULES.same_turn(state, replace(state, to_move=BLUE))


def test_the_rules_object_hands_labels_bot_menu_and_annotation_to_their_modules():
    params = RULES.start(2).params
    assert RULES.square_label(params, params.goal1) == "h2 (Government Center)"
    assert MAD_DOG.square_label(MAD_DOG.start(2).params, params.goal1) == "h2 (Market)"
    state = position(PUSHING, seats=3, dice=(1, 6))
    assert RULES.bot_action(state, RED) == choices.bot_action(state, RED)
    picked = {"die": "1"}
    assert RULES.menu(state, RED, picked) == choices.menu(RULES, state, RED, picked)
    assert RULES.menu(state, RED, picked).question is not None
    action = "1: d3 F x bS:N"
    assert RULES.annotate(state, RED, action) == reading.annotate(RULES, state, RED, action)
    assert RULES.annotate(state, RED, action)
    refused = position({"e2": "rMe"}, dice=(3, 6))  # a medium may not enter h2 (MR-T4)
    assert RULES.annotate(refused, RED, "3: e2 F3") == {}


def test_an_event_after_the_end_or_of_another_kind_is_refused():
    over = step(RULES, RULES.start(2), Resigned(BLUE))
    with pytest.raises(IllegalAction, match=r"^the game is over$"):
        RULES.apply(over, Rolled((1, 2)))
    with pytest.raises(IllegalAction, match=r"^Martian Race has no use for Shuffled$"):
        RULES.apply(RULES.start(2), Shuffled((0, 1)))


@pytest.mark.parametrize("version", [1, 2, 3])
def test_version_1_keeps_only_the_last_sentence_of_a_chain(version):
    rules = rules_for("martian-race", version)
    moved, answered, state = chain_of_three(rules)
    assert moved.last is not None and answered.last is not None and state.last is not None
    sentences = state.last[2]
    if version == 1:
        assert answered.last == (BLUE, "x gS:N", ("Blue pushes Green's small 1 square (N)",))
        assert sentences == ("Green pushes Yellow's small 1 square (N)",)
    else:
        assert answered.last[2] == (*moved.last[2], "Blue pushes Green's small 1 square (N)")
        assert len(sentences) == 3 and sentences[0].startswith("Red moves the small from d3")
    dumped = json.loads(json.dumps(rules.dump(state)))
    last = dumped["last"]
    assert last[:2] == [GREEN, "x yS:N"]
    expected = sentences[-1] if version == 1 else list(sentences)
    assert last[2] == expected
    assert rules.load(dumped) == state


def test_version_1_dumps_a_move_without_a_chain_as_its_own_sentence():
    rules = rules_for("martian-race", 1)
    assert rules.dump(rules.start(2))["last"] is None
    state = play(position({"d3": "rSn"}, dice=(1, 6)), "1: d3 F", rules=rules)
    sentence = "Red moves the small from d3 to d4, lying north (1 step of a 1)"
    assert rules.dump(state)["last"] == [RED, "1: d3 F", sentence]


# --- the state -------------------------------------------------------------------------------


def test_a_snapshot_is_made_once_per_state_and_dropped_when_the_position_changes():
    state = position({"d3": "rSn"}, dice=(1, 6))
    snap = snapshot(state)
    assert snapshot(state) is snap
    assert snapshot(evolve(state, {"turns": 4})) is snap
    moved = play(state, "1: d3 F")
    assert snapshot(moved) is not snap
    assert snapshot(evolve(moved, {"victims": 1})).victims == 1


def test_evolve_drops_derived_data_only_when_the_position_changes():
    state = position({"d3": "rSn"}, dice=(1, 6))
    fresh = evolve(state, {"pieces": state.pieces[::-1]})  # no snapshot made yet
    assert fresh.pieces == state.pieces[::-1]
    state.__dict__.update(_snap="snap", _stacked=True, _stage_moves={})
    kept = evolve(state, {"turns": 1})
    assert (kept.__dict__["_snap"], kept.__dict__["_stacked"]) == ("snap", True)
    assert "_stage_moves" not in kept.__dict__
    for field in ("pieces", "dog", "victims"):
        moved = evolve(state, {field: getattr(state, field)})
        assert not {"_snap", "_stacked", "_stage_moves"} & set(moved.__dict__)


def test_a_new_event_after_a_finished_chain_begins_a_new_chain():
    answered = play(play(position(PUSHING, seats=3, dice=(1, 6)), "1: d3 F x bS:N"), "x gS:N")
    assert answered.chooser is None and answered.last is not None and len(answered.last[2]) == 2
    assert chained(answered, BLUE, "resign", "Blue resigns") == (BLUE, "resign", ("Blue resigns",))
    resigned = step(RULES, answered, Resigned(GREEN))
    assert resigned.last == (GREEN, "resign", ("Green resigns",))


def test_every_kind_of_state_survives_its_json_snapshot():
    states = [
        RULES.start(2),
        MAD_DOG.start(2),
        dog_position({"c4": "rMe"}, seats=3, dog=(BLUE, "d5", "n"), victims=2, dice=(3, 4)),
        step(RULES, step(RULES, roll(RULES.start(3), 5, 1), Resigned(RED)), Resigned(GREEN)),
    ]
    for state in states:
        for rules in (RULES, MAD_DOG):
            dumped = json.loads(json.dumps(rules.dump(state)))
            assert rules.load(dumped) == state
    dog = json.loads(json.dumps(MAD_DOG.dump(states[2])))
    assert dog["dog"] == [BLUE, states[2].dog[1], 1] and dog["winner"] == BLUE
    over = json.loads(json.dumps(RULES.dump(states[3])))
    assert over["resigned"] == [RED, GREEN] and over["result"]["ranks"] == [3, 1, 2]


# --- the games' options ----------------------------------------------------------------------


def test_the_rule_options_reach_the_parameters():
    params = RULES.start(2, {"bg_larger_die": True, "block_total_min": 6}).params
    assert (params.block_partial_min, params.block_total_min) == (3, 6)
    assert params.bg_larger_die is True and params.dog_round_limit == 0
    assert RULES.start(2).params.bg_larger_die is False
    assert RULES.start(2, {"dog_phase_round_limit": 7}).params.dog_round_limit == 7


def test_refused_layouts_and_counts_are_named_in_full():
    with pytest.raises(
        SetupError, match=r"^options home/goal squares: the four squares must differ$"
    ):
        MAD_DOG.start(2, {"market": "a7"})
    with pytest.raises(
        SetupError, match=r"^option 'martians': 3 players use 4 or 5 Martians each, not 3$"
    ):
        RULES.start(3, {"martians": 3})


@pytest.mark.parametrize("mothers", ["5/a/3", "1/2", "0/4/3", "6/4/3", "5/4/6"])
def test_mothers_must_be_three_counts_of_one_to_five(mothers):
    with pytest.raises(SetupError, match=f"^option 'mothers': '{mothers}' is not three counts"):
        MAD_DOG.start(2, {"mothers": mothers})


def test_one_mother_each_and_five_are_allowed():
    assert MAD_DOG.start(2, {"mothers": "1/1/1"}).params.martians == 1
    assert MAD_DOG.start(4, {"mothers": "5/5/5"}).params.martians == 5


def test_the_mad_dog_squares_are_text_options_with_their_help():
    found = {option.name: option for option in MAD_DOG.options}
    assert (found["home"].kind, found["home"].default) == (str, "a7")
    assert found["home"].help == "square of the Home (a1..h8)"
    assert found["kennel"].help == "square of the Kennel (larges finish there) (a1..h8)"
    assert found["kennel"].parse(" g7 ") == "g7"


def test_a_series_adds_game_points_only_where_the_mad_dog_phase_is_played():
    assert MAD_DOG.series_by_game_points({}) is True
    assert RULES.series_by_game_points({"mad_dog_phase": True}) is True
    assert RULES.series_by_game_points({"mad_dog_phase": False}) is False
    assert RULES.series_by_game_points({}) is False


# --- the registry ----------------------------------------------------------------------------


def test_the_kinds_read_and_print_as_a_tuple():
    kinds = tuple(engine.GAMES)
    assert repr(engine.GAMES) == repr(kinds) and len(engine.GAMES) == len(kinds)
    assert engine.GAMES[1] == "martian-race" and "mad-dog" in engine.GAMES


def test_an_unknown_game_or_version_is_refused_naming_the_known_ones():
    games = ", ".join(engine.GAMES)
    with pytest.raises(UnknownGame) as refused:
        rules_for("chess")
    assert str(refused.value) == f"unknown game 'chess'; games: {games}"
    with pytest.raises(UnknownGame) as refused:
        rules_for("mad-dog", 9)
    assert str(refused.value) == (
        "mad-dog has no rules version 9; this server knows versions 1, 2, 3, 4"
    )


def test_a_version_can_be_registered_and_forgotten():
    assert engine.rules_versions("martian-race") == (1, 2, 3, 4)
    newer = type("MartianRaceV9", (type(RULES),), {"version": 9})()
    engine.register(newer)
    try:
        assert engine.rules_versions("martian-race") == (1, 2, 3, 4, 9)
        assert rules_for("martian-race") is newer and rules_for("martian-race", 9) is newer
    finally:
        engine.unregister("martian-race", 9)
    assert engine.rules_versions("martian-race") == (1, 2, 3, 4)
    assert rules_for("martian-race") is RULES
    engine.unregister("martian-race", 9)  # forgetting it twice is no error


def test_refreshing_keeps_the_built_in_games_versions():
    newer = type("MartianRaceV9", (type(RULES),), {"version": 9})()
    engine.register(newer)
    try:
        refresh()
        assert rules_for("martian-race", 9) is newer
    finally:
        engine.unregister("martian-race", 9)


# --- the turn flow ---------------------------------------------------------------------------


def test_a_second_roll_or_a_roll_of_other_dice_is_refused():
    rolled = roll(RULES.start(2), 5, 1)
    with pytest.raises(IllegalAction, match=r"^the dice are already rolled$"):
        RULES.apply(rolled, Rolled((2, 3)))
    pushed = play(position(PUSHING, seats=3, dice=(1, 6)), "1: d3 F x bS:N")
    with pytest.raises(IllegalAction, match=r"^the dice are already rolled$"):
        RULES.apply(replace(pushed, roll=None), Rolled((2, 3)))
    for values in [(1, 2, 3), (0, 3), (3, 0), (7, 3), (3, 7), (4,)]:
        with pytest.raises(IllegalAction) as refused:
            RULES.apply(RULES.start(2), Rolled(values))
        assert str(refused.value) == f"a roll of two dice is due, not {list(values)}"
    for values in [(1, 6), (6, 1), (6, 6), (1, 1)]:
        assert RULES.apply(RULES.start(2), Rolled(values)).dice == values


def test_a_seat_that_can_use_neither_die_forfeits_in_words():
    after = roll(position(BOXED, seats=4, finished={RED: 2}), 2, 3)
    assert after.last == (RED, "forfeit", ("Red cannot use 2-3 and forfeits the turn",))
    assert (after.to_move, after.turns, after.roll, after.dice) == (BLUE, 1, None, ())


def test_a_forfeit_a_resignation_or_a_push_answer_can_end_the_game_by_the_turn_limit():
    limit = "ended by the 1-turn limit: the turn limit of 1 turns was reached; scores"
    forfeit = roll(position(BOXED, seats=4, finished={RED: 2}, max_turns=1), 2, 3)
    assert forfeit.result is not None and forfeit.result.reason.startswith(limit)
    resigned = step(
        RULES, position({"d3": "rSn"}, seats=3, dice=(1, 6), max_turns=1), Resigned(RED)
    )
    assert resigned.result is not None and resigned.result.reason.startswith(limit)
    pushed = play(position(PUSHING, seats=3, dice=(1,), max_turns=1), "1: d3 F x bS:N")
    answered = play(pushed, "x gS:N", seat=BLUE)
    assert answered.result is not None and answered.result.reason.startswith(limit)
    left = step(RULES, pushed, Resigned(BLUE))
    assert left.result is not None and left.result.reason.startswith(limit)


def test_moves_out_of_turn_or_of_the_wrong_kind_are_refused_in_words():
    state = position(PUSHING, seats=3, dice=(1, 6))
    with pytest.raises(IllegalAction, match=r"^it is not Blue's turn to move$"):
        RULES.apply(state, Played(BLUE, "1: d4 F"))
    with pytest.raises(IllegalAction, match=r"^it is not Red's turn to move$"):
        RULES.apply(replace(state, roll=None, dice=()), Played(RED, "1: d3 F"))
    hint = "legal actions include '6: d3 F x bS:N', '6: d3 F x bS:E', '6: d3 F x bS:S'"
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, Played(RED, "x bS:N"))
    assert str(refused.value) == f"there is no push to choose now; {hint}"
    pushed = RULES.apply(state, Played(RED, "1: d3 F x bS:N"))
    with pytest.raises(IllegalAction, match=r"^a push must be chosen first: reply like 'x gS:N'$"):
        RULES.apply(pushed, Played(BLUE, "1: d4 F"))
    with pytest.raises(IllegalAction, match=r"^Blue must choose a push now$"):
        RULES.apply(pushed, Played(RED, "x gS:N"))


def test_a_move_without_its_die_takes_the_die_left():
    state = position(PUSHING, seats=3, dice=(1,))
    named = RULES.apply(state, Played(RED, "1: d3 F x bS:N"))
    bare = RULES.apply(state, Played(RED, "d3 F x bS:N"))
    assert (bare.pieces, bare.chooser, bare.dice, bare.queue) == (
        named.pieces,
        named.chooser,
        named.dice,
        named.queue,
    )
    simple = position({"d3": "rSn"}, dice=(1,))
    assert RULES.apply(simple, Played(RED, "d3 F")).pieces == play(simple, "1: d3 F").pieces


def test_a_paused_push_remembers_the_positions_before_and_after_the_move():
    state = position(PUSHING, seats=3, dice=(1, 6))
    before = snapshot(state).key()
    for action in ("1: d3 F x bS:N", "1: d3 F"):
        try:
            paused = RULES.apply(state, Played(RED, action))
        except IllegalAction:
            continue  # the mover must name the push it makes
        assert paused.chooser == BLUE and paused.seen[0] == before and len(paused.seen) >= 2
        answered = play(paused, "x gS:N", seat=BLUE)
        assert (answered.queue, answered.stage, answered.chooser, answered.seen) == (
            (),
            0,
            None,
            (),
        )


def test_a_move_onto_the_dog_pauses_remembering_the_position_before_it():
    state = dog_position(
        {"c4": "rMe"}, seats=3, dog=(BLUE, "d4", "n"), dice=(1, 6), finished={BLUE: 4}
    )
    paused = MAD_DOG.apply(state, Played(RED, "1: c4 F"))
    assert paused.chooser == BLUE and paused.seen[0] == snapshot(state).key()


def test_a_push_answer_may_name_only_the_colours_of_the_game():
    pushed = play(position(PUSHING, seats=3, dice=(1, 6)), "1: d3 F x bS:N")
    with pytest.raises(InvalidAction, match=r"is not a push like 'x bS:NN' \(colours r, b, g\)"):
        RULES.apply(pushed, Played(BLUE, "x yS:N"))


def test_a_move_applied_from_the_log_must_still_keep_the_other_die():
    # The small would grow on the Government Center, where a medium cannot spend the 1.
    state = position({"h5": "rSs"}, dice=(4, 1), finished={RED: 4})
    first = RULES.legal(state, RED)[0]
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, Played(RED, "4: h5 F3 U"))
    assert str(refused.value) == (
        "you must use both dice when you can: that move loses the other die, but "
        f"for example {first!r} keeps it playable"
    )
    assert RULES.apply(state, Played(RED, "1: h5 F")).dice == (4,)
    lying = position({"d3": "rSn", "f6": "rSe"}, dice=(1, 6))
    assert RULES.apply(lying, Played(RED, "1: d3 F")).dice == (6,)


def test_calm_turns_count_up_and_a_growth_starts_them_again():
    grows = replace(position({"h3": "bS^", "h5": "rSs"}, dice=(2, 6)), calm=5)
    grown = play(grows, "2: h5 F2 x bS:S")
    assert on(grown, "h2") == ["bM^"] and grown.calm == 0
    assert play(grown, "6: h3 N").calm == 1
    pushes = replace(position(PUSHING, seats=3, dice=(1,)), calm=5)
    answered = play(play(pushes, "1: d3 F x bS:N"), "x gS:N", seat=BLUE)
    assert answered.calm == 6 and answered.turns == 1 and answered.dice == ()


def test_a_resignation_takes_only_that_seats_pieces_and_dog_off():
    state = dog_position(
        {"c4": "rMe", "e5": "gSn", "f5": "bSn"},
        seats=3,
        dog=(BLUE, "d5", "n"),
        dice=(3, 4),
        finished={BLUE: 4},
    )
    with pytest.raises(IllegalAction, match=r"^Green has already resigned$"):
        step(MAD_DOG, step(MAD_DOG, state, Resigned(GREEN)), Resigned(GREEN))
    green_out = step(MAD_DOG, state, Resigned(GREEN))
    assert green_out.dog == state.dog and green_out.to_move == RED
    assert green_out.last == (GREEN, "resign", ("Green resigns",))
    assert {p.status for p in green_out.pieces if p.owner == GREEN} == {OUT}
    blue_out = step(MAD_DOG, state, Resigned(BLUE))
    assert blue_out.dog is None
    statuses = sorted(p.status for p in blue_out.pieces if p.owner == BLUE)
    assert statuses == [FINISHED] * 4 + [OUT] * (len(statuses) - 4)
    assert [p for p in blue_out.pieces if p.owner != BLUE] == [
        p for p in state.pieces if p.owner != BLUE
    ]


def test_the_last_seat_left_wins_with_the_reason_in_words():
    state = roll(RULES.start(3), 5, 1)
    over = step(RULES, step(RULES, state, Resigned(BLUE)), Resigned(GREEN))
    assert over.result is not None and over.result.reason == "Red wins: everyone else resigned"
    assert over.result.ranks == (1, 3, 2)
    pushed = play(position({"d4": "bSe", "d5": "rSe", "d3": "rSn"}, dice=(1, 6)), "1: d3 F x bS:N")
    assert pushed.chooser == BLUE
    left = step(RULES, pushed, Resigned(RED))
    assert left.result is not None and left.result.ranks == (2, 1)
    assert (left.queue, left.stage, left.chooser, left.seen) == ((), 0, None, ())


def test_a_resigned_seat_or_one_with_nothing_left_is_passed_over():
    state = position({"d3": "rSn", "e3": "gSn"}, seats=3, dice=(1,))
    without_blue = step(RULES, state, Resigned(BLUE))
    assert play(without_blue, "1: d3 F").to_move == GREEN
    done = dog_position(
        {"c4": "rMe", "e5": "gSn"}, seats=3, dice=(1,), finished={BLUE: 4}, destroyed={BLUE: 1}
    )
    assert dog_play(done, "1: c4 F").to_move == GREEN
    standing = dog_position({"c4": "rMe", "e5": "bSn"}, seats=2, dice=(1,), finished={BLUE: 4})
    assert dog_play(standing, "1: c4 F").to_move == BLUE


def test_the_stall_limit_counts_rounds_of_the_seats_still_playing():
    state = step(RULES, RULES.start(3, {"stall_rounds": 1}), Resigned(GREEN))
    state = play(roll(state, 1, 1), "1: +E")
    state = play(state, "1: a7 F")
    assert state.result is None
    state = play(roll(state, 1, 1), "1: +S")
    state = play(state, "1: a7 F")
    assert state.result is not None
    assert state.result.reason.startswith(
        "ended by the 1-round stall limit: no Martian grew, finished or was destroyed in 1 rounds"
    )


def dog_turn(limit: int):
    """Blue's Dog turns north, then east, in a Mad Dog phase of at most `limit` Dog turns."""
    done = {RED: 4, BLUE: 4, GREEN: 3}
    dog = (BLUE, "a1", "e")
    options = {"dog_phase_round_limit": limit}
    state = dog_position(
        {"e6": "gSn"}, dice=(1, 1), to_move=BLUE, dog=dog, finished=done, **options
    )
    return dog_play(dog_play(state, "1: dog N"), "1: dog E")


def test_the_dog_turns_count_and_the_phase_limit_is_named():
    state = dog_turn(2)
    assert (state.dog_turns, state.turns, state.result) == (1, 1, None)
    ended = dog_turn(1)
    assert ended.result is not None
    assert ended.result.reason == (
        "ended by the 1-round Mad Dog phase limit: the Mad Dog phase limit of 1 rounds was "
        "reached; scores Red 4, Blue 9, Green 3"
    )


def test_the_phase_ends_in_words_when_the_last_mother_finishes():
    done = {RED: 4, BLUE: 4, GREEN: 3}
    last = dog_position(
        {"g7": "gLe"}, dice=(2, 1), to_move=GREEN, dog=(BLUE, "a1", "e"), finished=done
    )
    over = dog_play(last, "2: g7 F U")
    assert over.result is not None
    assert over.result.reason == (
        "every Mother has finished or been destroyed; scores Red 4, Blue 9, Green 4"
    )


def test_when_nobody_has_a_piece_left_the_game_ends_on_the_scores():
    state = dog_position({}, seats=2, dice=(1,), finished={RED: 5, BLUE: 4}, destroyed={BLUE: 1})
    over = turns.end_turn(MAD_DOG, state)
    assert over.result is not None
    assert over.result.reason == "nobody has a Mother left to move; scores Red 5, Blue 4"
    assert over.result.ranks == (1, 2) and over.turns == 1
