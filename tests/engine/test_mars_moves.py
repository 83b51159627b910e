"""Moves of Martian Race and Mad Dog checked step by step: the refusals and what they say.

The messages are the ones a player reads in a reply; each names the rule that refuses the move
(rulebook sections as summarised in docs/rulings.md).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import IllegalAction, InvalidAction
from engine.games.mars import parse_square, perform
from engine.games.mars.notation import parse
from engine.games.mars.state import to_pos
from engine.games.mars.words import Words
from engine.games.martian_race import RULES
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

