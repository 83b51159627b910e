"""The move notation of docs/playing.md read and written part by part (mars/notation.py)."""

from types import SimpleNamespace

import pytest

from engine.errors import InvalidAction
from engine.games.mars.geometry import EAST, NORTH, UP, WEST, Params, parse_square
from engine.games.mars.notation import (
    Clause,
    MoveText,
    PushText,
    designator,
    facing_mark,
    format_move,
    parse,
)
from engine.games.mars.words import move_words, seat_name

WORDS = SimpleNamespace(
    piece_word="Martian",
    goal_names=("Home", "Government Center", "Supply Depot", "Launch Pad"),
    limits_named=True,
)
# Home on a1 (square 0), so that a move from or onto the first square is described too.
PARAMS = Params(
    home=0, goal1=parse_square("h2"), goal2=parse_square("e5"), goal3=parse_square("d8"), martians=3
)


def test_a_push_clause_is_written_with_its_path_only_when_it_has_one():
    assert Clause(1, 1, None, "NNE").text() == "x bS:NNE"
    assert Clause(1, 1, None, "").text() == "x bS"
    assert Clause(0, 3, UP, "").text() == "x rL^"
    assert Clause(2, 2, EAST, "W").text() == "x gMe:W"


def test_a_facing_mark_is_a_caret_for_standing_and_a_small_compass_letter_for_lying():
    assert facing_mark(UP) == "^"
    assert facing_mark(EAST) == "e"
    assert facing_mark(WEST) == "w"


def test_an_entry_with_its_placement_only_has_no_trailing_space():
    assert format_move(5, "+", ("E",), ()) == "5: +E"
    assert format_move(5, "+", ("E", "F", "F", "U"), ()) == "5: +E F2 U"
    assert format_move(3, "c4", ("F",), (Clause(1, 1, None, "N"),)) == "3: c4 F x bS:N"


def test_a_designator_adds_size_then_facing_to_the_square():
    c4 = parse_square("c4")
    assert designator(c4, None, None) == "c4"
    assert designator(c4, 2, None) == "c4M"
    assert designator(c4, 2, EAST) == "c4Me"
    assert designator(c4, 3, UP) == "c4L^"


@pytest.mark.parametrize(
    ("text", "seats", "clause"),
    [
        ("x bS:nne", 2, Clause(1, 1, None, "NNE")),
        ("X B s ^ : n", 2, Clause(1, 1, UP, "N")),
        ("x gL", 3, Clause(2, 3, None, "")),
        ("x rLw:", 2, Clause(0, 3, WEST, "")),
        ("x pMe:ssw", 5, Clause(4, 2, EAST, "SSW")),
    ],
)
def test_a_push_answer_reads_colour_size_facing_and_path(text, seats, clause):
    assert parse(text, seats) == PushText((clause,))


def test_two_push_clauses_are_read_in_order():
    assert parse("x bS:N x rMn:EE", 2) == PushText(
        (Clause(1, 1, None, "N"), Clause(0, 2, 1, "EE"))
    )


@pytest.mark.parametrize(
    ("text", "seats"),
    [("x gS:N", 2), ("x bQ:N", 2), ("x bSq", 2), ("x bS:NQ", 2), ("x 1S", 2), ("x b", 2)],
)
def test_a_push_of_an_absent_colour_or_unknown_size_facing_or_path_is_refused(text, seats):
    with pytest.raises(InvalidAction) as refused:
        parse(text, seats)
    message = str(refused.value)
    assert f"cannot read {text!r}" in message
    assert "is not a push like 'x bS:NN'" in message
    assert "(colours " + ", ".join("rbgyp"[:seats]) + ")" in message


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("c4 F", ("F",)),
        ("c4 f3 u", ("F", "F", "F", "U")),
        ("c4 nesw", ("N", "E", "S", "W")),
        ("c4 F2F", ("F", "F", "F")),
        ("c4 U F9", ("U",) + ("F",) * 9),
    ],
)
def test_steps_are_read_as_tokens_with_forward_runs_expanded(text, steps):
    move = parse(text, 2)
    assert isinstance(move, MoveText)
    assert move.steps == steps
    assert move.square == parse_square("c4")


@pytest.mark.parametrize("text", ["c4 F0", "c4 Q", "c4 FZ", "+E G"])
def test_text_that_is_not_a_run_of_steps_is_refused_quoting_it(text):
    with pytest.raises(InvalidAction) as refused:
        parse(text, 2)
    assert "is not a run of steps U, N, E, S, W, F or F3" in str(refused.value)


def test_a_seat_is_named_by_its_colour_and_a_seat_past_the_colours_by_number():
    assert seat_name(0) == "Red"
    assert seat_name(4) == "Purple"
    assert seat_name(5) == "seat 5"
    assert seat_name(-1) == "seat -1"


def test_a_step_from_or_onto_the_first_square_is_followed_on_the_board():
    from_a1 = parse("c4 F", 2)  # the designator is not read here: the square is given
    assert move_words(WORDS, PARAMS, from_a1, "Red", "small", 0, EAST).startswith(
        "Red moves the small from a1 (Home) to b1, lying east (1 step of a ?)"
    )
    onto_a1 = parse("3: b1 F", 2)
    assert move_words(WORDS, PARAMS, onto_a1, "Blue", "medium", 1, WEST) == (
        "Blue moves the medium from b1 to a1 (Home), lying west (1 step of a 3)"
    )


def test_an_entry_that_only_places_its_martian_stays_on_home():
    entry = parse("1: +N", 2)
    assert move_words(WORDS, PARAMS, entry, "Red", None, 0, NORTH) == (
        "Red enters a small Martian on a1 (Home) and stays, lying north (1 step of a 1)"
    )


def test_every_push_of_a_move_is_named_in_order():
    move = parse("2: a1 F x bS:N x gM:EE", 3)
    assert move_words(WORDS, PARAMS, move, "Red", "large", 0, NORTH) == (
        "Red moves the large from a1 (Home) to a2, lying north (1 step of a 2), pushing "
        "Blue's small 1 square (N), Green's medium 2 squares (EE)"
    )
