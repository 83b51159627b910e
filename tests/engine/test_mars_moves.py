"""Moves of Martian Race and Mad Dog checked step by step: the refusals and what they say.

The messages are the ones a player reads in a reply; each names the rule that refuses the move
(rulebook sections as summarised in docs/rulings.md).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from engine import Await, Finished, IllegalAction, InvalidAction, Played, step
from engine.games.mad_dog import RULES as DOG_RULES
from engine.games.mars import MarsState, moves, parse_square, perform
from engine.games.mars.notation import parse
from engine.games.mars.resolution import Resolution
from engine.games.mars.state import to_pos
from engine.games.mars.words import Words
from engine.games.martian_race import RULES
from engine.testing import chance_event
from tests.engine.test_mad_dog import position as dog_position
from tests.engine.test_martian_race import RED, on, play, position

WORDS: Words = RULES  # the rules name the pieces and squares


@pytest.mark.parametrize(
    ("spec", "dice", "text", "options", "message"),
    [
        # A die left out is inferred only when exactly one die fits the steps.
        ({"c4": "rSe"}, (3, 5), "c4 FF", {},
         "say which die F F uses: you have 3 and 5 to play (write it first, like '3: ...')"),
        ({"c4": "rSe"}, (3, 5), "c4 FF", {"step_usage": "exact"},
         "say which die F F uses: you have 3 and 5 to play (write it first, like '3: ...')"),
        ({"c4": "rSe"}, (3, 5), "c4 FFFFFF", {}, "say which die F F F F F F uses: you have 3 and 5 "
         "to play (write it first, like '3: ...')"),
        # The steps of a move against its die.
        ({"c4": "rSe"}, (3, 5), "4: c4 FF", {}, "you have 3 and 5 to play, not a 4"),
        ({"c4": "rSe"}, (3, 5), "3: c4 FF", {"step_usage": "exact"},
         "a move uses exactly the die: 2 steps given for a 3"),
        ({"c4": "rSe"}, (3, 5), "3: c4 FFFF", {}, "4 steps given for a 3; a move has at most 3"),
        # Each step.
        ({"c4": "rS^"}, (3, 5), "3: c4 F", {},
         "a standing piece on c4 cannot step; lie down first"),
        ({"h4": "rSe"}, (3, 5), "3: h4 F", {}, "F from h4 leaves the board"),
        ({"c4": "rS^"}, (3, 5), "3: c4 U", {}, "the piece on c4 is already standing"),
        ({"c4": "rSe"}, (3, 5), "3: c4 E", {}, "the piece on c4 already points E"),
        ({"c4": "rSe"}, (3, 5), "3: c4 W", {"turn_step": "quarter"},
         "turning around takes two quarter-turn steps"),
        # The piece the move names.
        ({"c4": "rSe"}, (3, 5), "3: d4 F", {}, "you have no Martian on d4"),
        ({"c4": "rSe"}, (3, 5), "3: c4M F", {}, "you have no medium Martian on c4"),
        ({"c4": "rSe rMe"}, (3, 5), "3: c4 F", {},
         "several of your pieces are on c4; name one like c4Se"),
        ({"c4": "rSe rSn"}, (3, 5), "3: c4S F", {},
         "several of your pieces are on c4; name one like c4Se"),
        # Blocking, the goal gates and one piece per colour on a special square.
        ({"a7": "rSe"}, (3, 5), "3: +E", {}, "a7 (Home) already holds one of your pieces"),
        ({"a7": "bS^ bM^"}, (3, 5), "3: +E", {}, "a7 (Home) is totally blocked"),
        ({"c4": "rSe", "d4": "bS^ bM^"}, (3, 5), "3: c4 FF", {}, "d4 is totally blocked"),
        ({"c4": "rSe", "d4": "bS^ bMe"}, (3, 5), "3: c4 F", {},
         "d4 is partially blocked: you may pass but not end there"),
        ({"h3": "rSs", "h2": "rMe"}, (3, 5), "3: h3 F", {},
         "h2 (Government Center) already holds one of your pieces"),
        ({"g2": "rMe"}, (3, 5), "3: g2 F", {},
         "a medium may not enter or end on h2 (Government Center)"),
    ],
)
def test_a_refused_move_says_which_rule_refuses_it(spec, dice, text, options, message):
    state = position(spec, dice=dice, **options)
    with pytest.raises((IllegalAction, InvalidAction)) as caught:
        play(state, text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "options", "lands"),
    [
        ("c4 FFF", {"step_usage": "exact"}, ("f4", 3)),  # only the 3 has exactly three steps
        ("c4 FFFF", {}, ("g4", 5)),  # only the 5 has room for four
        ("c4 FF", {"step_usage": "exact"}, None),  # no die has exactly two
    ],
)
def test_a_move_without_its_die_takes_the_one_die_that_fits(text, options, lands):
    state = position({"c4": "rSe"}, dice=(3, 5), **options)
    if lands is None:
        with pytest.raises(InvalidAction, match="say which die"):
            play(state, text)
        return
    square, die = lands
    after = play(state, text)
    assert on(after, square) == ["rSe"]
    assert after.dice == tuple(d for d in (3, 5) if d != die)


def test_a_move_without_its_die_after_the_dice_are_spent_shows_the_form():
    state = replace(position({"c4": "rSe"}, dice=(3, 5)), dice=())
    with pytest.raises(InvalidAction) as caught:
        perform.infer_die(state, parse("c4 FF", 2))
    assert str(caught.value) == (
        "say which die F F uses: you have no dice to play (write it first, like '5: ...')"
    )


def test_a_move_that_loses_the_other_die_names_the_first_legal_move_instead():
    # The small would grow into a medium on the Government Center, where a medium may not
    # rest, so the 1 would be lost; walking one step first keeps both dice.
    state = position({"h5": "rSs"}, dice=(4, 1), finished={RED: 4})
    with pytest.raises(IllegalAction) as caught:
        play(state, "4: h5 F3 U")
    first = RULES.legal(state, RED)[0]
    assert str(caught.value) == (
        "you must use both dice when you can: that move loses the other die, but "
        f"for example {first!r} keeps it playable"
    )


@pytest.mark.parametrize(
    ("spec", "text", "square", "busy"),
    [
        ({"c4": "rSe"}, "3: c4 FF", "e4", False),
        ({"c4": "rSe", "e4": "bSn"}, "3: c4 FF", "e4", True),
        ({"c4": "rSe", "e4": "rSn"}, "3: c4 FF", "e4", False),  # its own colour is no push
        ({"c4": "rS^"}, "3: c4 F", "c4", False),  # a standing piece does not step
        ({"h4": "rSe"}, "3: h4 FF", "h4", False),  # nor off the board
        ({"c4": "rSe"}, "3: c4 NFF", "c6", False),
        ({"a1": "rSn"}, "3: a1 FF", "a3", False),  # from the first square
        ({"a2": "rSs"}, "3: a2 F", "a1", False),  # onto it
        ({}, "3: +EFF", "c7", False),  # an entry starts on Home facing its first step
        ({"c7": "bSn"}, "3: +EFF", "c7", True),
        ({"c4": "rSe"}, "3: d4 F", None, True),  # an unclear piece: the full path decides
    ],
)
def test_where_a_move_lands_before_it_is_checked(spec, text, square, busy):
    state = position(spec, dice=(3, 5))
    move = parse(text, 2)
    where = perform.landing(WORDS, state, to_pos(state), RED, move)
    assert where == (None if square is None else parse_square(square))
    assert perform.lands_busy(WORDS, state, to_pos(state), RED, move) is busy


def dog_state(spec: dict[str, str], dog: str) -> object:
    state = position(spec, dice=(3, 5), mad_dog_phase=True)
    return replace(state, dog=(RED, parse_square(dog), 1))


@pytest.mark.parametrize(
    ("spec", "square", "busy"),
    [({}, "d6", False), ({"d6": "rSe"}, "d6", True), ({"d6": "bSe"}, "d6", True)],
)
def test_the_dog_lands_where_its_steps_lead_and_pushes_every_colour(spec, square, busy):
    state = dog_state(spec, "d4")
    move = parse("3: dog FF", 2)
    pos = to_pos(state)
    assert perform.landing(WORDS, state, pos, RED, move) == parse_square(square)
    assert perform.lands_busy(WORDS, state, pos, RED, move) is busy


def test_a_mother_lands_busy_on_the_dog():
    state = dog_state({"c4": "bSe"}, "e4")
    move = parse("3: c4 FF", 2)
    assert perform.lands_busy(WORDS, state, to_pos(state), 1, move)


def test_only_the_dogs_controller_moves_it():
    state = dog_state({"c4": "rSe"}, "e4")
    with pytest.raises(IllegalAction) as caught:
        perform.find_piece(WORDS, to_pos(state), 1, parse("3: dog F", 2))
    assert str(caught.value) == "you do not control the Mad Dog"
    assert perform.find_piece(WORDS, to_pos(state), RED, parse("3: dog F", 2)) == -1


def test_entering_needs_a_piece_in_reserve():
    state = position({}, dice=(3, 5), finished={RED: 5})
    with pytest.raises(IllegalAction) as caught:
        perform.find_piece(WORDS, to_pos(state), RED, parse("3: +E", 2))
    assert str(caught.value) == "you have no Martian in reserve to enter"



# --- the legal moves and the must-use rule ---------------------------------------------------


def states_to_move(rules: Any, seats: int, options: dict[str, object], seed: int, count: int):
    """States of a random game where the seat to move has dice left, every few turns."""
    rng = random.Random(seed)
    state = rules.start(seats, {**options, "stall_rounds": 8})
    found = 0
    while found < count and not isinstance(pending := rules.pending(state), Finished):
        if isinstance(pending, Await):
            seat = pending.seats[0]
            actions = rules.legal(state, seat)
            if pending.kind == "move" and rng.random() < 0.3:
                found += 1
                yield state, seat
            state = step(rules, state, Played(seat, actions[rng.randrange(len(actions))]))
        else:
            state = step(rules, state, chance_event(rng, pending))


GAMES = [
    (RULES, 2, {}),
    (RULES, 3, {"step_usage": "exact", "block_partial_min": 2, "block_total_min": 3}),
    (RULES, 4, {"turn_step": "quarter", "one_per_colour": "resting"}),
    (DOG_RULES, 2, {}),
]


@pytest.mark.parametrize(("rules", "seats", "options"), GAMES)
def test_the_moves_of_one_die_or_one_piece_are_those_of_the_whole_listing(rules, seats, options):
    for state, seat in states_to_move(rules, seats, options, seats, 6):
        whole = [c.text for c in moves.candidates(state, seat, state.dice)]
        assert len(whole) == len(set(whole))
        pieces = {name for _, name, _ in moves.movable(to_pos(state), seat)}
        for die in set(state.dice):
            assert [c.text for c in moves.candidates(state, seat, state.dice, only_die=die)] == [
                t for t in whole if t.startswith(f"{die}: ")
            ]
            for name in pieces:
                listed = moves.candidates(state, seat, state.dice, only_die=die, only_piece=name)
                head = f"{die}: {name}" if name == "+" else f"{die}: {name} "
                assert [c.text for c in listed] == [t for t in whole if t.startswith(head)]


def enables_in_full(state: MarsState, cand: moves.Candidate, seat: int, die: int) -> bool:
    """moves.enables on the candidate's whole resolution, with no short cut."""
    pos = to_pos(state)
    if cand.res is not None:
        return moves.enables(cand.res, cand.done, seat, die, state.winner)
    res = moves.landed(state, pos, cand.piece, cand.square, cand.facing, pos.key())
    if cand.choice is not None:
        res.probe = cand.piece
        res.run()
        res.choose(cand.choice)
    return moves.enables(res, None, seat, die, state.winner)


@pytest.mark.parametrize(("rules", "seats", "options"), GAMES)
def test_the_quick_must_use_answers_agree_with_the_full_search(rules, seats, options):
    for state, seat in states_to_move(rules, seats, options, seats + 10, 5):
        if len(state.dice) != 2:
            continue
        pos = to_pos(state)
        other = {state.dice[0]: state.dice[1], state.dice[1]: state.dice[0]}
        for cand in moves.candidates(state, seat, state.dice):
            die = other[cand.die]
            assert moves.enables_fast(state, pos, cand, seat, die) == enables_in_full(
                state, cand, seat, die
            ), cand.text


def test_a_seat_can_spend_a_die_turning_a_piece_that_may_stay_where_it_is():
    pos = to_pos(position({"c4": "rSe"}, dice=(1, 2), finished={1: 5}))
    assert all(moves.usable(pos, RED, die) for die in range(1, 7))
    assert not any(moves.usable(pos, 1, die) for die in range(1, 7))  # Blue has finished


def test_a_medium_just_grown_on_the_government_center_cannot_spend_a_1():
    # It may not end on h2: lying down there is no move, and a 1 has no room for more.
    pos = to_pos(position({"h2": "rM^"}, dice=(1, 2), finished={RED: 4}))
    assert not moves.usable(pos, RED, 1)
    assert moves.usable(pos, RED, 2)


def test_an_enemy_on_the_square_keeps_a_piece_from_resting_there():
    pos = to_pos(position({"h2": "rM^ bSe"}, dice=(1, 2), finished={RED: 4}))
    assert not moves.usable(pos, RED, 1)


def test_the_dog_alone_on_its_square_can_always_turn():
    state = replace(position({}, dice=(1, 2), finished={RED: 5}), dog=(RED, parse_square("d4"), 0))
    assert moves.usable(to_pos(state), RED, 1)


@pytest.mark.parametrize(
    ("spec", "finished", "steps"),
    [
        # The course: Home a7, then h2, a2 and h7; each leg its walk plus 3 (turns, standing).
        ({}, {}, 5 * 41),  # five in reserve: 1 to enter and 15 + 10 + 15
        ({"c4": "rSe"}, {RED: 4}, 7 + 3 + 25),  # c4 to h2 is 7; then the last two legs
        ({"h2": "rS^"}, {RED: 4}, 2 + 15),  # it grows as the move ends: the last leg only
        ({"h7": "rL^"}, {RED: 4}, 0),  # it finishes
        ({"h7": "rM^"}, {RED: 4}, 12 + 3 + 15),  # a medium on h7 still has to reach a2
        ({"a2": "rM^"}, {RED: 4}, 2),  # it grows into a large: 2 for the last stand-up
        ({"h7": "rL^"}, {}, 4 * 41),  # one finishes; the four in reserve still count
        ({"c4": "rSe", "h2": "rS^", "d4": "rSe"}, {RED: 2}, 35 + 17 + 34),  # each piece adds
        ({"c4": "rLe", "d4": "bSe"}, {RED: 4}, 8 + 3),  # Blue's pieces do not count for Red
    ],
)
def test_the_house_bot_counts_the_steps_left_to_finish(spec, finished, steps):
    pos = to_pos(position(spec, dice=(1, 2), finished=finished))
    assert moves.steps_left(pos, RED) == steps


def test_finishing_the_last_martian_first_loses_the_other_die_in_the_dog_phase():
    # Blue has won and holds the Dog; Red's last Martian could finish with the 2, but then
    # Red has nothing left to play the 6 with: the 6 comes first.
    state = dog_position({"g7": "rLe"}, finished={RED: 4, 1: 5}, dog=(1, "a1", "^"), dice=(2, 6))
    actions = DOG_RULES.legal(state, RED)
    assert actions
    assert not [a for a in actions if a.startswith("2: g7 F U")]


def test_a_moves_own_arrival_grows_even_where_pushed_pieces_do_not():
    # growth_on_push_arrival off spares pushed pieces only: the small still grows into a
    # medium that cannot spend the 1 on the Government Center, so the 4 may not go first.
    state = position({"h5": "rSs"}, dice=(4, 1), finished={RED: 4}, growth_on_push_arrival=False)
    assert "4: h5 F3 U" not in RULES.legal(state, RED)
    assert "1: h5 F" in RULES.legal(state, RED)


@pytest.mark.parametrize(
    ("spec", "dog", "done", "piece", "sure"),
    [
        ({"c4": "rS^"}, "a1", False, -1, True),  # the Dog can always turn alone on its square
        ({"c4": "rS^", "d4": "rSe"}, None, True, 0, True),  # a lying piece of the seat
        ({"c4": "rS^", "d4": "rSe"}, None, False, 0, False),  # a choice still to come
        ({"c4": "rS^", "d4": "rSe"}, "a1", True, 0, False),  # the Dog may come for it
        ({"c4": "rS^", "d4": "rSe"}, "h8", True, 0, False),
        ({"c4": "rS^", "d4": "bSe"}, None, True, 0, False),  # an enemy's lying piece is no help
        ({"c4": "rS^", "d4": "rS^"}, None, True, 0, False),  # standing pieces may be stuck
    ],
)
def test_a_move_surely_keeps_the_other_die_only_in_the_cheap_cases(spec, dog, done, piece, sure):
    state = position(spec, dice=(1, 2))
    if dog is not None:
        state = replace(state, dog=(1, parse_square(dog), 0))
    res = Resolution(to_pos(state), [], 0, [], None)
    assert moves.surely_enabled(res, done, RED, piece) is sure


def test_each_seat_counts_only_its_own_steps_left():
    # Red's pieces come first in the position: Blue's count must look past them.
    pos = to_pos(position({"c4": "rLe", "d4": "bSe"}, dice=(1, 2), finished={RED: 4}))
    assert moves.steps_left(pos, 1) == (4 + 2) + 3 + 25 + 4 * 41  # d4 to h2, four in reserve
