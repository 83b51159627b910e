"""Martian Race and Mad Dog choices in stages: each stage short, together exactly legal()."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import Phase, assume, given, settings
from hypothesis import strategies as st

import engine
from engine import IllegalAction, Menu, Question
from engine.games.mad_dog import RULES as MAD_DOG
from engine.games.mars import choices, moves
from engine.games.mars.choices import SHOWN, _piece_of, _push_at, _pushes, hint
from engine.games.mars.state import to_pos
from engine.games.martian_race import RULES
from tests.engine.test_mad_dog import BLACK
from tests.engine.test_mad_dog import position as md_position
from tests.engine.test_martian_race import BLUE, RED, play, position

QUESTIONS_SHOWN = 48  # a stage never asks more than a few dozen answers


def chance(rng: random.Random, pending: Any) -> engine.Event:
    """A random answer to a roll or shuffle."""
    if isinstance(pending, engine.Roll):
        return engine.Rolled(tuple(rng.randint(1, pending.sides) for _ in range(pending.count)))
    return engine.Shuffled(tuple(rng.sample(range(pending.n), pending.n)))


def busy_states(kind: str, seed: int, keep: int) -> list[tuple[Any, int]]:
    """The decisions with the most legal actions in a random 4-player game."""
    rules = engine.rules_for(kind)
    rng = random.Random(seed)
    state = rules.start(4, {})
    found: list[tuple[int, Any, int]] = []
    for _ in range(900):
        pending = rules.pending(state)
        if isinstance(pending, engine.Finished):
            break
        if isinstance(pending, engine.Await):
            (seat,) = pending.seats
            actions = rules.legal(state, seat)
            found.append((len(actions), state, seat))
            event: engine.Event = engine.Played(seat, actions[rng.randrange(len(actions))])
        else:
            event = chance(rng, pending)
        state = engine.step(rules, state, event)
    found.sort(key=lambda f: -f[0])
    return [(s, seat) for _, s, seat in found[:keep]]


def walk(rules: Any, state: Any, seat: int, picked: dict[str, str]) -> list[str]:
    """Every action reached by answering every question in every way."""
    menu = rules.menu(state, seat, picked)
    assert menu is not None
    if menu.question is None:
        assert len(menu.actions) <= SHOWN or not picked
        return list(menu.actions)
    assert 1 < len(menu.question.answers) <= QUESTIONS_SHOWN
    reached: list[str] = []
    for value, _, _ in menu.question.answers:
        reached += walk(rules, state, seat, picked | {menu.question.key: value})
    return reached


@pytest.mark.parametrize("kind", ["martian-race", "mad-dog"])
def test_the_stages_of_a_busy_turn_lead_to_every_legal_action_once(kind: str) -> None:
    rules = engine.rules_for(kind)
    for state, seat in busy_states(kind, 1, 3):
        legal = rules.legal(state, seat)
        reached = walk(rules, state, seat, {})
        assert sorted(reached) == sorted(legal)


def test_a_wrong_answer_asks_the_question_again() -> None:
    rules = engine.rules_for("martian-race")
    ((state, seat),) = busy_states("martian-race", 2, 1)
    menu = rules.menu(state, seat, {"die": "9", "piece": "z9"})
    assert menu is not None and menu.question is not None
    assert menu.question.key in ("die", "piece")
    # A piece that cannot move with the die chosen: the piece is asked again.
    first = rules.menu(state, seat, {})
    assert first is not None and first.question is not None
    die = first.picked[0][1] if first.picked else first.question.answers[0][0]
    asked = rules.menu(state, seat, {"die": die})
    assert asked is not None and asked.question is not None and asked.question.key == "piece"
    pieces = {value for value, _, _ in asked.question.answers}
    movable = {name for _, name, _ in moves.movable(to_pos(state), seat)}
    stuck = min(movable - pieces, default="h8")  # on the board, but not with this die
    again = rules.menu(state, seat, {"die": die, "piece": stuck})
    assert again is not None and again.question is not None
    assert again.question.key in ("die", "piece")


def test_a_push_answer_reads_in_words() -> None:
    from engine.games.mars.choices import _push_label

    assert _push_label("bSn:NE", 4) == "Blue's small 2 squares (NE)"
    assert _push_label("gL:W", 4) == "Green's large 1 square (W)"
    assert _push_label("", 4) == "no further push"


def test_the_moves_a_menu_remembers_stay_with_their_own_state() -> None:
    rules = engine.rules_for("martian-race")
    ((state, seat),) = busy_states("martian-race", 2, 1)
    first = rules.menu(state, seat, {})
    assert "_stage_moves" in state.__dict__
    action = rules.legal(state, seat)[0]
    after = engine.step(rules, state, engine.Played(seat, action))
    assert "_stage_moves" not in after.__dict__
    assert rules.menu(state, seat, {}) == first, "asked again, the same menu"


def pieces_that_move(legal: tuple[str, ...]) -> int:
    """How many of the seat's pieces have a legal move now (the Mad Dog and '+' count)."""
    return len({_piece_of(a) for a in legal})


PIECES = {"one": lambda n: n == 1, "two": lambda n: n == 2, "many": lambda n: n >= 3}
SEARCHED = 30  # decisions looked at past the `plies`-th before taking an earlier one


def a_position(kind: str, seats: int, seed: int, plies: int, pieces: str) -> tuple[Any, int] | None:
    """A move decision of a random game with that many pieces to move: the first one from the
    `plies`-th decision on, else the last one before it (None if the game has none so far).
    """
    rules = engine.rules_for(kind)
    rng = random.Random(seed)
    phase = kind == "martian-race" and seed % 2 == 1  # the Mad Dog joins the race late
    state = rules.start(seats, {"mad_dog_phase": True} if phase else {})
    found = None
    for decisions in range(plies + SEARCHED):
        while not isinstance(pending := rules.pending(state), engine.Await | engine.Finished):
            state = engine.step(rules, state, chance(rng, pending))
        if isinstance(pending, engine.Finished):
            break
        (seat,) = pending.seats
        actions = rules.legal(state, seat)
        if state.chooser is None and PIECES[pieces](pieces_that_move(actions)):
            found = (state, seat)
            if decisions >= plies:
                break
        state = engine.step(rules, state, engine.Played(seat, rng.choice(actions)))
    return found


@pytest.mark.parametrize("pieces", sorted(PIECES))
# Each example plays a game: few examples, and no explain phase (it replays hundreds) on failure.
@settings(max_examples=4, phases=[Phase.explicit, Phase.generate, Phase.shrink])
@given(
    kind=st.sampled_from(["martian-race", "mad-dog"]),
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    plies=st.integers(0, 40),
)
def test_every_answer_of_every_stage_leads_to_exactly_the_legal_moves(
    pieces: str, kind: str, seats: int, seed: int, plies: int
) -> None:
    found = a_position(kind, seats, seed, plies, pieces)
    assume(found is not None)
    assert found is not None
    state, seat = found
    rules = engine.rules_for(kind)
    reached = walk(rules, state, seat, {})
    assert Counter(reached) == Counter(rules.legal(state, seat)), "each legal move, once"


# --- the hint, the house bot and the helpers of the stages ----------------------------------


def test_a_hint_shows_the_first_three_legal_actions_or_says_there_is_none() -> None:
    state = position({}, dice=(5, 3))  # Red enters with the 5 first: +U, +N, +E, ...
    assert hint(state, RED) == "legal actions include '5: +U', '5: +N', '5: +E'"
    assert hint(state, BLUE) == "no legal action exists"


def test_the_piece_a_move_names_is_read_from_its_text() -> None:
    assert _piece_of("5: +E F3 U") == "+"
    assert _piece_of("3: c1 F2 U x bS:ENN") == "c1"
    assert _piece_of("3: c4Me F2") == "c4Me"
    assert _piece_of("4: dog F4") == "dog"


def test_a_push_at_a_position_is_its_notation_and_nothing_past_the_last() -> None:
    pushes = _pushes("3: c1 F2 U x bS:ENN x gL:W", 4)
    assert [_push_at(pushes, i) for i in range(3)] == ["bS:ENN", "gL:W", ""]
    assert _push_at((), 0) == ""


# T10's box around Red's large on a2, with one gap: the partly blocked a3 may be passed.
BOXED = {"a2": "rL^", "a3": "bS^ bSe", "b2": "gS^ gS^", "a1": "yS^ yS^"}


def test_the_house_bot_plays_for_the_seat_to_move_only_and_names_a_seat_without_a_move() -> None:
    state = position({}, dice=(5, 3))
    with pytest.raises(IllegalAction, match=r"^Blue has no legal action now$"):
        choices.bot_action(state, BLUE)
    # A roll that leaves Red no move at all (the whole box blocked).
    shut = position(BOXED | {"a3": "bS^ bS^"}, seats=4, finished={RED: 2}, dice=(2, 3))
    with pytest.raises(IllegalAction, match=r"^Red has no legal action now$"):
        choices.bot_action(shut, RED)


def test_the_house_bot_plays_the_only_legal_move() -> None:
    # Only north, through the partly blocked a3, and then the 2 is still playable.
    state = position(BOXED, seats=4, finished={RED: 2}, dice=(2, 3))
    assert RULES.legal(state, RED) == ("3: a2 N F2",)
    assert choices.bot_action(state, RED) == "3: a2 N F2"


def test_the_house_bot_answers_a_push_with_the_first_canonical_path() -> None:
    state = position({"d4": "bSe", "d5": "gSe", "d3": "rSn"}, seats=3, dice=(1, 6))
    state = play(state, "1: d3 F x bS:N")  # MR-T9: Blue chooses where Green's small goes
    assert RULES.legal(state, BLUE) == ("x gS:N", "x gS:E", "x gS:S", "x gS:W")
    assert choices.bot_action(state, BLUE) == "x gS:N"
    with pytest.raises(IllegalAction, match=r"^Red has no legal action now$"):
        choices.bot_action(state, RED)


def test_of_two_equal_steps_the_house_bot_takes_the_one_that_pushes_its_rival_back() -> None:
    # Blue's smalls head for the Government Center (h2). With a 1, stepping e7 to f7, or d8 to
    # e8 pushing Red's small there, or entering a Martian brings Blue equally near (196 steps
    # left, moves.steps_left). Only pushing Red's small west, to d8, takes Red farther from
    # h2 (195 steps left to 196): the bot weighs a quarter of its rival's count.
    state = position({"c4": "rSs", "e8": "rSe", "d8": "bSe", "e7": "bSe"}, dice=(1,), to_move=BLUE)
    assert choices.bot_action(state, BLUE) == "1: d8 F x rS:W"


def test_the_house_bot_judges_an_entry_that_pushes_with_the_new_martian_on_the_board() -> None:
    # Entering on a7 and walking east onto e7 pushes Red's small there. The new Martian then
    # stands on e7 (Blue: 201 steps left to 196) and Red's small is pushed north or west, away
    # from h2 (194 to 195): better than '5: +S F4' (196, Red still 194), the best move that
    # pushes nothing.
    state = position({"c4": "rSs", "e7": "rSe", "e8": "bSe"}, dice=(1, 5), to_move=BLUE)
    assert choices.bot_action(state, BLUE) in ("5: +E F4 x rS:N", "5: +E F4 x rS:W")


# A crowded board built by hand: a die, a piece, a square, a facing and a push are each asked.
CROWDED = {
    "d4": "rSe rMn",
    "e4": "bSe gS^",
    "f4": "yMw",
    "d5": "bLs",
    "c4": "gSn",
    "d3": "ySe",
    "e5": "rLw",
}


@pytest.mark.parametrize("dice", [(6, 5), (4, 3), (5, 5)])
def test_every_stage_of_a_crowded_board_leads_to_every_legal_move_once(
    dice: tuple[int, int],
) -> None:
    state = position(CROWDED, seats=4, dice=dice)
    legal = RULES.legal(state, RED)
    assert len(legal) > 1000
    first = RULES.menu(state, RED, {})
    assert first is not None and first.question is not None
    assert first.question.key == ("piece" if dice[0] == dice[1] else "die")
    assert Counter(walk(RULES, state, RED, {})) == Counter(legal), "each legal move, once"


def test_each_stage_asks_in_words_and_keeps_each_answer_in_words() -> None:
    state = position(CROWDED, seats=4, dice=(6, 5))
    first = RULES.menu(state, RED, {})
    dice = (("6", "the 6", None), ("5", "the 5", None))
    assert first == Menu((), Question("die", "Which die do you use first?", dice), ())
    picked: dict[str, str] = {"die": "6"}
    die = (("die", "6", "the 6"),)
    pieces = (
        ("d4S", "the small Martian on d4, lying east", "d4"),
        ("d4M", "the medium Martian on d4, lying north", "d4"),
        ("e5", "the large Martian on e5, lying west", "e5"),
    )
    assert RULES.menu(state, RED, picked) == Menu(
        die, Question("piece", "Which piece moves 6 steps?", pieces), ()
    )
    picked["piece"] = "d4S"
    piece = (("piece", "d4S", "the small Martian on d4, lying east"),)
    where = RULES.menu(state, RED, picked)
    assert where.picked == die + piece and where.question is not None and where.actions == ()
    assert where.question.key == "to" and where.question.text == "Where does it end its move?"
    assert ("c1", "c1", "c1") in where.question.answers
    # Six steps from d4 (lying east) to c1: turn south, three forward, turn west, one
    # forward; or west first. Any other order runs into a piece.
    assert RULES.menu(state, RED, picked | {"to": "c1"}) == Menu(
        die + piece + (("to", "c1", "c1"),), None, ("6: d4S S F3 W F", "6: d4S W F S F3")
    )
    # Onto e4 (Blue's and Green's smalls): how it ends, then where the pushed pieces go.
    picked["to"] = "e4"
    facing = RULES.menu(state, RED, picked)
    assert facing.question == Question(
        "facing",
        "How does it end?",
        (
            ("U", "standing", None),
            ("N", "lying north", None),
            ("E", "lying east", None),
            ("S", "lying south", None),
            ("W", "lying west", None),
        ),
    )
    picked["facing"] = "U"
    so_far = die + piece + (("to", "e4", "e4"), ("facing", "U", "standing"))
    push = RULES.menu(state, RED, picked)
    assert push.picked == so_far and push.question is not None
    assert push.question.key == "push1"
    assert push.question.text == "Where does the pushed piece go?"
    assert ("bS:EE", "Blue's small 2 squares (EE)", None) in push.question.answers
    picked["push1"] = "bS:EE"
    assert RULES.menu(state, RED, picked) == Menu(
        so_far + (("push1", "bS:EE", "Blue's small 2 squares (EE)"),),
        None,
        tuple(f"6: d4S F U x bS:EE x gS:{d}" for d in "NESW"),
    )


def test_an_entry_the_mad_dog_and_special_squares_are_named_on_the_page() -> None:
    state = position({"h3": "rSs"}, dice=(1, 2))
    assert RULES.menu(state, RED, {"die": "2"}).question == Question(
        "piece",
        "Which piece moves 2 steps?",
        (
            ("h3", "the small Martian on h3, lying south", "h3"),
            ("+", "a new small Martian onto a7", "a7"),
        ),
    )
    entry = RULES.menu(position({}, dice=(5, 3)), RED, {"die": "3"})
    assert entry.picked == (("die", "3", "the 3"), ("piece", "+", "a new small Martian onto a7"))
    assert entry.question is not None and ("a7", "a7 (Home)", "a7") in entry.question.answers
    dog = md_position(
        {"d4": "rLn"}, dice=(2, 5), to_move=BLACK, dog=(BLACK, "b4", "e"), finished={BLACK: 4}
    )
    menu = MAD_DOG.menu(dog, BLACK, {"die": "5"})
    assert menu.picked == (("die", "5", "the 5"), ("piece", "dog", "the Mad Dog on b4"))
    assert menu.question is not None and ("a2", "a2 (Well)", "a2") in menu.question.answers


def test_a_push_choice_or_another_seats_turn_has_no_stages() -> None:
    state = position({"d4": "bSe", "d5": "gSe", "d3": "rSn"}, seats=3, dice=(1, 6))
    state = play(state, "1: d3 F x bS:N")  # MR-T9: Blue chooses, Red's 6 waits
    assert RULES.menu(state, BLUE, {}) == Menu((), None, ("x gS:N", "x gS:E", "x gS:S", "x gS:W"))
    assert RULES.menu(state, RED, {}) == Menu((), None, ())
    assert RULES.menu(state, RED, {"die": "6"}) == Menu((), None, ())
    # A roll that leaves Red no move at all (MR-T10's box, its dice not yet forfeited).
    shut = position(BOXED | {"a3": "bS^ bS^"}, seats=4, finished={RED: 2}, dice=(2, 3))
    assert RULES.menu(shut, RED, {}) == Menu((), None, ())


def test_under_the_must_use_rule_a_die_without_a_first_move_is_not_offered() -> None:
    # MR-T11: only the 3 can be played first, so neither the die nor the piece is asked.
    spec = {"a2": "rL^", "a3": "bS^ bSe", "b2": "gS^ gSe", "a1": "yS^ ySe"}
    state = position(spec, seats=4, finished={RED: 2}, dice=(2, 3))
    only = Menu(
        (("die", "3", "the 3"), ("piece", "a2", "the large Martian on a2, standing")),
        None,
        ("3: a2 N F2", "3: a2 E F2"),
    )
    assert RULES.menu(state, RED, {}) == only
    assert RULES.menu(state, RED, {"die": "2"}) == only, "a die with no move starts again"


def test_the_house_bot_values_its_own_step_above_two_steps_of_its_rival() -> None:
    # Entering with the 6 and walking on to f7 leaves Red 189 steps (moves.steps_left);
    # stopping on e7 and standing there to push Blue's small two squares leaves Red 190 and
    # Blue 199 instead of 197. A rival's step counts a quarter of one's own: -189 + 197 / 4
    # beats -190 + 199 / 4.
    state = position({"c4": "rSs", "e8": "rSe", "d8": "bSs", "e7": "bSe"}, dice=(1, 6))
    assert "6: +E F4 U x bS:NW" in RULES.legal(state, RED)
    assert choices.bot_action(state, RED) == "6: +E F5"


def test_a_piece_with_no_move_for_the_die_chosen_is_asked_again_keeping_the_die() -> None:
    # Red's large on a2 is shut in (MR-T10's box); only the small on e4 can play the 6.
    spec = BOXED | {"a3": "bS^ bS^", "e4": "rSe"}
    state = position(spec, seats=4, finished={RED: 1}, dice=(6, 5))
    again = RULES.menu(state, RED, {"die": "6", "piece": "a2"})
    assert again == RULES.menu(state, RED, {"die": "6"})
    assert again.picked == (
        ("die", "6", "the 6"),
        ("piece", "e4", "the small Martian on e4, lying east"),
    )
