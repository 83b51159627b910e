"""The short cut's contract of cost: it answers the common moves, cheaply, and passes its data on.

quick.simple_move exists so that the common move never reaches the full resolution, and a
state it makes carries its derived data (the snapshot `_snap` and the flag `_stacked`) so
that the next move rebuilds neither. Written against the surviving mutants of
engine/games/mars/quick.py that only cost time (docs/mutants/mars-shortcuts.md).

The cost is measured as the number of lines of quick.py that the short cut runs: the same
move in a two-seat and a four-seat game (the same pieces on the board, the other seats'
Martians in reserve) must run as many, since nothing in a common move needs a look at every
piece of the game. Martian Race's squares: Home a7, goals h2 (small), a2 (medium), h7 (large).
"""

from __future__ import annotations

import random
import sys
from typing import Any
from unittest import mock

import pytest

from engine import Await, Finished, Played, step
from engine.games.mad_dog import RULES as DOG_RULES
from engine.games.mars import MarsState, quick
from engine.games.mars import state as state_module
from engine.games.mars.geometry import BOARD, UP
from engine.games.mars.notation import MoveText, parse
from engine.games.mars.position import push_distance
from engine.games.mars.state import snapshot, to_pos
from engine.games.martian_race import RULES
from engine.testing import chance_event
from tests.engine.test_mad_dog import position
from tests.engine.test_mars_quick import (
    BLUE,
    RED,
    board,
    derived_data_is_right,
    fast_and_slow,
    replace_snap,
    resting_reference,
    slow_outcome,
)

QUICK_FILE = quick.__file__


class Traced:
    """What a call of quick.simple_move answered and how many lines of quick.py it ran."""

    def __init__(self) -> None:
        self.answers: list[object] = []
        self.lines: list[int] = []
        self.scans = 0  # the pieces' lists walked one by one (by enumerate) in quick.py


def traced_play(
    rules: Any, state: MarsState, action: str, *, seat: int = RED, no_rebuild: bool = False
) -> tuple[MarsState, Traced]:
    """Play the seat's action, tracing the short cut's own lines (and, if asked, forbidding a new
    snapshot: the short cut must read the one the state carries)."""
    real = quick.simple_move
    seen = Traced()

    def spy(*args: Any) -> object:
        count = 0

        def local(frame: Any, event: str, arg: Any) -> Any:
            nonlocal count
            if event == "line":
                count += 1
            return local

        def enter(frame: Any, event: str, arg: Any) -> Any:
            return local if frame.f_code.co_filename == QUICK_FILE else None

        pieces = len(args[1].pieces)

        def scan(items: Any) -> Any:
            seen.scans += len(items) == pieces  # not a push's path of a few letters
            return enumerate(items)

        old = sys.gettrace()
        sys.settrace(enter)
        try:
            with mock.patch.object(quick, "enumerate", scan, create=True):
                if no_rebuild:
                    with mock.patch.object(state_module, "Pos", side_effect=AssertionError):
                        answer = real(*args)
                else:
                    answer = real(*args)
        finally:
            sys.settrace(old)
        seen.answers.append(answer)
        seen.lines.append(count)
        return answer

    with mock.patch.object(quick, "simple_move", spy):
        after = step(rules, state, Played(seat, action))
    return after, seen


# Each: Red's pieces, the dice, and the move measured, one of the short cut's classes (in
# Mad Dog, where a push goes one square further, its own text), after a first move: a small
# on d1 steps east, a quick move that leaves its derived data behind.
CLASSES = [
    ("a plain step", {"c4": "rSe"}, (1, 3), "3: c4 FFF", None),
    ("a turn in place", {"c4": "rSe"}, (1, 3), "3: c4 NES", None),
    ("turning and stepping", {"c4": "rSe"}, (1, 5), "5: c4 FNFUW", None),
    ("an entry", {}, (1, 3), "3: +EFF", None),
    ("standing up, a lying piece left", {"c4": "rSe"}, (1, 3), "3: c4 FFU", None),
    ("a push", {"b4": "rSe", "e4": "bSn"}, (1, 3), "3: b4 FFF x bS:N", "3: b4 FFF x bS:NN"),
    (
        "a longer push",
        {"b4": "rMe", "e4": "bSn"},
        (1, 3),
        "3: b4 FFF x bS:NN",
        "3: b4 FFF x bS:NNN",
    ),
    (
        "two pieces pushed",
        {"b4": "rSe", "e4": "bSn bSs"},
        (1, 3),
        "3: b4 FFF x bSn:N x bSs:S",
        "3: b4 FFF x bSn:NN x bSs:SS",
    ),
]


def game(spec: dict[str, str], dice: tuple[int, ...], seats: int, rules: Any) -> MarsState:
    return position({**spec, "d1": "rSe"}, seats=seats, dice=dice, to_move=RED, rules=rules)


@pytest.mark.parametrize("rules", [RULES, DOG_RULES], ids=["race", "mad-dog"])
@pytest.mark.parametrize(
    ("name", "spec", "dice", "action", "dog_action"), CLASSES, ids=[c[0] for c in CLASSES]
)
def test_a_common_move_after_a_quick_one_costs_the_same_whatever_the_number_of_pieces(
    rules, name, spec, dice, action, dog_action
):
    if rules is DOG_RULES and dog_action is not None:
        action = dog_action
    counts = []
    for seats in (2, 4):
        state, first = traced_play(rules, game(spec, dice, seats, rules), "1: d1 F")
        assert first.answers[0] is not None, "the first step is a common move too"
        after, second = traced_play(rules, state, action, no_rebuild=True)
        assert second.answers[0] is not None, name
        assert rules.dump(after) == slow_outcome(rules, state, RED, action), name
        counts.append(second.lines[0])
        # The piece is found by its square, and each pushed piece's arrival is seen to be
        # alone on its square, without a look at every piece (an entry takes the first
        # piece of the seat's reserve: the one scan it makes).
        assert second.scans == (1 if name == "an entry" else 0), name
    # Four seats have twice the pieces: a look at each would show in the count. A push
    # builds the pushed piece's masks and the stacked flag of the new position from every
    # piece; a move that pushes nothing needs neither.
    if " x " not in action:
        assert counts[0] == counts[1], (name, counts)


@pytest.mark.parametrize(
    ("spec", "dice", "action", "options"),
    [
        # Onto a square its own colour holds: no enemy there, nothing to push.
        ({"c4": "rSe", "f4": "rMe"}, (3, 5), "3: c4 F3", {}),
        # Standing up from lying east under quarter turns: a stand-up, not a turn.
        ({"c4": "rSe", "a1": "rSn"}, (3, 5), "3: c4 F2 U", {"turn_step": "quarter"}),
        # The last die: standing up needs no lying piece left for another die.
        ({"c4": "rSe"}, (3,), "3: c4 F2 U", {}),
        # Only resting is one per colour: a Red small passes Home, where another rests...
        ({"a7": "rSe", "a5": "rSn"}, (3, 5), "3: a5 F3", {"one_per_colour": "resting"}),
        # ... and steps onto a1.
        ({"a2": "rSs"}, (3, 5), "3: a2 F", {"one_per_colour": "resting"}),
        # A Blue small pushed onto a1.
        ({"c1": "rSw", "b1": "bSn"}, (3, 5), "3: c1 F x bS:W", {}),
        # A Blue small pushed over Blue's Home, where another Blue small rests, onto a8.
        (
            {"a4": "rMn", "a6": "bSe", "a7": "bSe"},
            (3, 5),
            "3: a4 F2 x bS:NN",
            {"one_per_colour": "resting"},
        ),
        # A standing Blue small pushed onto a free square.
        ({"b4": "rSe", "e4": "bS^"}, (3, 5), "3: b4 F3 x bS:N", {}),
        # A Blue small pushed onto a Blue medium: no enemy of Blue's there, nothing chains.
        ({"b4": "rSe", "e4": "bSn", "e5": "bMe"}, (3, 5), "3: b4 F3 x bS:N", {}),
    ],
)
def test_the_short_cut_answers_each_case_its_docstring_names(spec, dice, action, options):
    fast, answered = fast_and_slow(board(spec, dice, **options), action)
    assert isinstance(fast, dict), fast
    assert answered


@pytest.mark.parametrize(
    ("spec", "dice", "action", "stacked"),
    [
        ({"c4": "rSe"}, (3, 5), "3: c4 FFF", False),  # alone before and after
        ({"c4": "rSe", "f4": "rMe"}, (3, 5), "3: c4 FFF", True),  # joins its own medium
        ({"c4": "rSe rMe"}, (3, 5), "3: c4S FFF", False),  # leaves the stack
        ({"c4": "rSe rMe", "g8": "rLe rLe"}, (3, 5), "3: c4S FFF", True),  # another stays
        ({"c4": "rSe", "e4": "bSn"}, (3, 5), "3: c4 FF x bS:N", False),  # a push
        ({"c4": "rSe", "e4": "bSn", "e5": "bMe"}, (3, 5), "3: c4 FF x bS:N", True),
        ({}, (3,), "3: +EFF", False),  # the last die: the turn passes to Blue
    ],
)
def test_the_state_after_a_quick_move_carries_its_snapshot_and_stacked_flag(
    spec, dice, action, stacked
):
    state = position(spec, seats=2, dice=dice, to_move=RED, rules=RULES)
    after, seen = traced_play(RULES, state, action)
    assert seen.answers[0] is not None
    assert "_snap" in after.__dict__ and "_stacked" in after.__dict__
    fresh = to_pos(replace_snap(after))
    assert after.__dict__["_snap"].key() == fresh.key()
    assert after.__dict__["_stacked"] is stacked
    assert quick.stacked(fresh) is stacked
    derived_data_is_right(after)
    # Read back, the snapshot is the one the move left: nothing is built again.
    with mock.patch.object(state_module, "Pos", side_effect=AssertionError("rebuilt")):
        assert snapshot(after) is after.__dict__["_snap"]


def test_the_dogs_runner_rests_with_the_dog_alone_on_a1():
    # Red has finished every Martian and runs the Dog, alone on a1 (square 0): it may turn
    # there with any die, and rests says so without the full search.
    state = position({"c4": "bSe"}, seats=2, to_move=RED, finished={RED: 5}, dog=(RED, "a1", "n"))
    assert state.dog == (RED, 0, 1)
    assert resting_reference(state, RED) is True
    assert quick.rests(state, RED) is True
    assert quick.rests(state, BLUE) is True  # Blue's small rests on c4


# --- random play: every move of the short cut's classes is answered --------------------------


def simple_by_rule(rules: Any, state: MarsState, seat: int, text: str) -> str | None:
    """The class of a legal move that quick.simple_move's docstring says it answers, or None.

    Read off the full path's outcome: no Dog; nothing grows, finishes or is destroyed; the
    pieces that move are the mover and one piece per push clause, each pushed its full
    distance and not onto its goal standing; no push left to answer; and with two dice, a
    standing arrival leaves a lying piece of the seat to spend the other die.
    """
    move = parse(text, state.seats)
    assert isinstance(move, MoveText)
    if state.dog is not None:
        return None
    with mock.patch.object(quick, "simple_move", return_value=None):
        after_state = step(rules, state, Played(seat, text))
    if after_state.chooser is not None or after_state.dog is not None:
        return None
    before, after = to_pos(replace_snap(state)), to_pos(replace_snap(after_state))
    moved = [
        i
        for i in range(len(before.status))
        if (before.status[i], before.size[i], before.square[i], before.facing[i])
        != (after.status[i], after.size[i], after.square[i], after.facing[i])
    ]
    if any(before.size[i] != after.size[i] or after.status[i] != BOARD for i in moved):
        return None  # something grew, finished or was destroyed
    if not moved:
        return "a turn back to where it started"
    mover = [i for i in moved if after.owner[i] == seat]
    pushed = [i for i in moved if after.owner[i] != seat]
    if len(mover) != 1 or len(pushed) != len(move.pushes):
        return None  # a push chained on
    size, standing = after.size[mover[0]], after.facing[mover[0]] == UP
    params = state.params
    for clause in move.pushes:
        i = next(
            i for i in pushed if (after.owner[i], after.size[i]) == (clause.colour, clause.size)
        )
        full = push_distance(params, size, standing, after.size[i], after.facing[i] == UP)
        if len(clause.path) != full:
            return None
        if after.facing[i] == UP and after.square[i] == params.target(after.size[i]):
            return None
    lying = any(
        s == BOARD and o == seat and f != UP
        for s, o, f in zip(after.status, after.owner, after.facing, strict=True)
    )
    if len(state.dice) == 2 and standing and not lying:
        return None  # the must-use rule needs the full search
    if move.pushes:
        return "a push" if len(move.pushes) == 1 else "pushes"
    if move.piece == "+":
        return "an entry"
    if before.square[mover[0]] == after.square[mover[0]]:
        return "a turn in place"
    if standing:
        return "a standing arrival"
    return "a step onto its own colour" if len(after.at(after.square[mover[0]])) > 1 else "a step"


RANDOM_GAMES = [
    (RULES, 2, {}),
    (RULES, 3, {"step_usage": "exact", "block_partial_min": 2, "block_total_min": 3}),
    (RULES, 4, {"turn_step": "quarter", "one_per_colour": "resting"}),
    (RULES, 3, {"push_formula": "MD", "growth_on_push_arrival": False, "goal_gates": False}),
    (DOG_RULES, 2, {}),
    (DOG_RULES, 3, {}),
]


@pytest.mark.parametrize(("rules", "seats", "options"), RANDOM_GAMES)
def test_every_move_of_the_short_cuts_classes_in_random_play_is_answered_quickly(
    rules, seats, options
):
    rng = random.Random(seats * 31 + len(options))
    state = rules.start(seats, {**options, "stall_rounds": 8})
    met: dict[str, int] = {}
    for _ in range(150):
        pending = rules.pending(state)
        if isinstance(pending, Finished):
            break
        if not isinstance(pending, Await):
            state = step(rules, state, chance_event(rng, pending))
            continue
        seat = pending.seats[0]
        actions = rules.legal(state, seat)
        if pending.kind == "move":
            for action in rng.sample(actions, min(8, len(actions))):
                kind = simple_by_rule(rules, state, seat, action)
                if kind is None:
                    continue
                after, seen = traced_play(rules, state, action, seat=seat)
                assert seen.answers and seen.answers[0] is not None, (kind, action)
                assert rules.dump(after) == slow_outcome(rules, state, seat, action), action
                derived_data_is_right(after)
                met[kind] = met.get(kind, 0) + 1
        state = step(rules, state, Played(seat, actions[rng.randrange(len(actions))]))
    print(met)
    assert {"a step", "a turn in place", "an entry"} <= met.keys(), met
