"""Martian Race and Mad Dog choices in stages: each stage short, together exactly legal()."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import Phase, assume, given, settings
from hypothesis import strategies as st

import engine
from engine.games.mars import moves
from engine.games.mars.choices import SHOWN, _piece_of
from engine.games.mars.state import to_pos

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
