"""The short cuts of quick.py: the same state the full path gives, and an answer for common moves.

quick.simple_move and quick.rests promise to answer only when the full path (turns.py,
moves.usable) would give the same result. Each test here plays the same action twice, once as
the server does and once with the short cut switched off, and compares the two outcomes
(the new state, or the refusal and its message).
"""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

import pytest

from engine import Await, Finished, IllegalAction, InvalidAction, Played, step
from engine.games.mad_dog import RULES as DOG_RULES
from engine.games.mars import MarsState, Piece, parse_square, quick
from engine.games.mars.geometry import BOARD
from engine.games.mars.moves import usable
from engine.games.mars.state import to_pos
from engine.games.martian_race import RULES
from engine.testing import chance_event
from tests.engine.test_martian_race import position

RED, BLUE = 0, 1


def outcome(rules: Any, state: MarsState, seat: int, action: str) -> object:
    """The dumped state an action leads to, or its refusal with the message."""
    try:
        after = step(rules, state, Played(seat, action))
    except (IllegalAction, InvalidAction) as exc:
        return f"{type(exc).__name__}: {exc}"
    derived_data_is_right(after)
    return rules.dump(after)


def slow_outcome(rules: Any, state: MarsState, seat: int, action: str) -> object:
    """The same, with the short cut switched off: the full path alone."""
    with mock.patch.object(quick, "simple_move", return_value=None):
        return outcome(rules, state, seat, action)


def derived_data_is_right(state: MarsState) -> None:
    """The snapshot and the stacked flag a short cut leaves behind describe the new state."""
    snap = state.__dict__.get("_snap")
    fresh = to_pos(replace_snap(state))
    if snap is not None:
        assert snap.key() == fresh.key()
        assert (snap.dog_owner, snap.victims) == (fresh.dog_owner, fresh.victims)
    stacked = state.__dict__.get("_stacked")
    if stacked is not None:
        assert stacked == quick.stacked(fresh)


def replace_snap(state: MarsState) -> MarsState:
    """A copy of the state without its derived data."""
    copy = object.__new__(MarsState)
    copy.__dict__.update(
        {k: v for k, v in state.__dict__.items() if k not in ("_snap", "_stacked")}
    )
    return copy


def resting_reference(state: MarsState, seat: int) -> bool:
    """moves.usable's die-independent first test, written out from its rule."""
    pos = to_pos(replace_snap(state))
    for i in range(len(pos.status)):
        if pos.status[i] != BOARD or pos.owner[i] != seat:
            continue
        q = pos.square[i]
        alone = all(pos.owner[j] == seat for j in pos.at(q))
        gated = pos.params.gate_mask(pos.size[i]) & (1 << q)
        if alone and not gated and pos.dog_square != q:
            return True
    return pos.dog_owner == seat and pos.dog_square >= 0 and not pos.at(pos.dog_square)


def variants(action: str, dice: tuple[int, ...]) -> list[str]:
    """The action and near misses of it: another die, a step more, another last step."""
    head, _, tail = action.partition(": ")
    piece, _, rest = tail.partition(" ")
    steps, _, pushes = rest.partition(" ")
    pushes = f" {pushes}" if pushes else ""
    out = [action, f"{head}: {piece} {steps}F{pushes}"]
    out += [f"{d}: {tail}" for d in sorted(set(dice) | {6}) if str(d) != head]
    out += [f"{head}: {piece} {steps[:-1]}{letter}{pushes}" for letter in "NESWUF"]
    if pushes:
        out.append(f"{head}: {piece} {steps}")
    return out


FACINGS = {"^": 0, "n": 1, "e": 2, "s": 3, "w": 4}


def board(
    spec: dict[str, str],
    dice: tuple[int, ...],
    rules: Any = RULES,
    dog: tuple[int, str, str] | None = None,
    **options: object,
) -> MarsState:
    """A two-seat state from {"c4": "rSe bM^"}, Red to move with these dice, the rest in reserve."""
    state = rules.start(2, options)
    pieces: list[Piece] = []
    for seat in (RED, BLUE):
        mine = [
            Piece(seat, " SML".index(t[1]), BOARD, parse_square(q), FACINGS[t[2]])
            for q, text in spec.items()
            for t in text.split()
            if "rb".index(t[0]) == seat
        ]
        mine += [Piece(seat, 1, 0)] * (state.params.martians - len(mine))
        pieces += mine
    fields = {"pieces": tuple(pieces), "to_move": RED, "roll": dice, "dice": dice}
    if dog is not None:
        fields["dog"] = (dog[0], parse_square(dog[1]), FACINGS[dog[2]])
    new = object.__new__(MarsState)
    new.__dict__.update({**state.__dict__, **fields})
    new.__dict__.pop("_snap", None)
    new.__dict__.pop("_stacked", None)
    return new


def fast_and_slow(state: MarsState, action: str, rules: Any = RULES) -> tuple[object, bool]:
    """An action's outcome (checked against the full path), and whether the short cut answered."""
    calls: list[object] = []
    real = quick.simple_move

    def spy(*args: Any) -> object:
        calls.append(result := real(*args))
        return result

    with mock.patch.object(quick, "simple_move", spy):
        fast = outcome(rules, state, RED, action)
    assert fast == slow_outcome(rules, state, RED, action)
    return fast, any(c is not None for c in calls)


@pytest.mark.parametrize(
    ("spec", "dice", "action"),
    [
        ({"c4": "rSe"}, (3, 5), "3: c4 FFF"),  # a plain walk
        ({"a2": "rSs"}, (3, 5), "3: a2 F"),  # onto the first square, a1
        ({"a2": "rSs", "c4": "rSe rMe"}, (3, 5), "3: a2 F"),  # the same, with a stack about
        ({"c4": "rSe"}, (3, 5), "5: c4 FNFUW"),  # turning, standing up and lying down again
        ({}, (3, 5), "5: +EFF"),  # an entry
        ({"c4": "rSe", "e4": "bSn"}, (3, 5), "3: c4 FF x bS:N"),  # a push at full distance
        ({"c4": "rMe", "e4": "bSn"}, (3, 5), "3: c4 FF x bS:NN"),  # a longer push
        ({"c4": "rSe", "e4": "bSn bSs"}, (3, 5), "3: c4 FF x bSn:N x bSs:S"),  # two pushed
        ({"c4": "rSe", "a1": "rSn"}, (3, 5), "3: c4 FFU"),  # standing, with a lying piece left
        ({"c4": "rSe rMe"}, (3, 5), "3: c4S FFF"),  # from a stack of its own colour
    ],
)
def test_the_short_cut_answers_the_common_moves_as_the_full_path_does(spec, dice, action):
    fast, answered = fast_and_slow(board(spec, dice), action)
    assert isinstance(fast, dict), fast
    assert answered


@pytest.mark.parametrize(
    ("spec", "dice", "action", "why"),
    [
        ({"h3": "rSs", "a1": "rSn"}, (3, 5), "3: h3 FU", "a small standing on h2 grows"),
        ({"c4": "rSe"}, (3, 5), "3: c4 FFU", "a standing arrival may strand the other die"),
        ({"c4": "rSe", "e4": "bSn", "e5": "rMw"}, (3, 5), "3: c4 FF x bS:N", "the push chains"),
        ({"c4": "rSe", "e4": "bSn"}, (3, 5), "3: c4 FF", "the push is not named"),
        ({"c4": "rSe", "e4": "bSn"}, (3, 5), "3: c4 FF x bS:NE", "a push of the wrong length"),
        ({"c4": "rSe rMe"}, (3, 5), "3: c4 F", "two kinds of piece on c4: the move names neither"),
        ({"c4": "rSe", "d4": "rMe"}, (3, 5), "3: e4 F", "nothing on e4"),
        ({"c4": "rSe", "e4": "bSn"}, (3, 5), "3: e4 F", "the piece on e4 is Blue's"),
        ({"c4": "rSe"}, (3, 5), "3: c4M F", "the piece on c4 is no medium"),
        ({"c4": "rSe"}, (3, 5), "3: c4Sn F", "the piece on c4 points east"),
    ],
)
def test_the_short_cut_leaves_to_the_full_path_what_it_cannot_prove(spec, dice, action, why):
    _, answered = fast_and_slow(board(spec, dice), action)
    assert not answered, why


def test_the_short_cut_leaves_the_dog_to_the_full_path():
    state = board({"c4": "rSe"}, (3, 5), rules=DOG_RULES, dog=(RED, "h8", "^"))
    _, answered = fast_and_slow(state, "3: c4 FFF", rules=DOG_RULES)
    assert not answered


@pytest.mark.parametrize(
    ("spec", "dog", "seat", "rests"),
    [
        ({"c4": "rSe"}, None, RED, True),
        ({"c4": "rSe"}, None, BLUE, False),
        ({"c4": "rSe bSn"}, None, RED, False),  # an enemy shares the square
        ({"c4": "rSe rMn"}, None, RED, True),  # its own colour does not count
        ({"a2": "rSe"}, None, RED, False),  # a small may not end on the third goal
        ({"h2": "rS^"}, None, RED, True),  # its own goal is open to it
        ({"c4": "rSe"}, (RED, "c4", "^"), RED, False),  # the Dog on its Mother: neither rests
        ({"c4": "bSe"}, (RED, "d4", "^"), RED, True),  # the Dog alone: it may turn
        ({"c4": "bSe"}, (RED, "c4", "^"), RED, False),
        ({"c4": "rSe"}, (BLUE, "c4", "^"), RED, False),  # the Dog shares its square
    ],
)
def test_a_seat_rests_when_one_of_its_pieces_may_stay_where_it_is(spec, dog, seat, rests):
    state = board(spec, (3, 5), rules=DOG_RULES if dog else RULES, dog=dog)
    assert quick.rests(state, seat) is rests
    assert resting_reference(state, seat) is rests
    if rests:
        assert all(usable(to_pos(state), seat, die) for die in range(1, 7))


def test_stacked_sees_two_pieces_of_one_colour_on_one_square_only():
    assert not quick.stacked(to_pos(board({"c4": "rSe bSe", "d4": "rSe"}, (3,))))
    assert quick.stacked(to_pos(board({"c4": "rSe rMe"}, (3,))))
    assert not quick.stacked(to_pos(board({"c4": "rSe", "c5": "rSe"}, (3,))))


GAMES = [
    (RULES, 2, {}),
    (RULES, 3, {"step_usage": "exact", "block_partial_min": 2, "block_total_min": 3}),
    (RULES, 4, {"turn_step": "quarter", "one_per_colour": "resting"}),
    (RULES, 3, {"push_formula": "MD", "growth_on_push_arrival": False, "goal_gates": False}),
    (RULES, 2, {"block_partial_min": 1, "block_total_min": 2}),
    (DOG_RULES, 2, {}),
]


@pytest.mark.parametrize(("rules", "seats", "options"), GAMES)
def test_the_short_cuts_give_what_the_full_path_gives(rules, seats, options):
    rng = random.Random(seats * 7 + len(options))
    state = rules.start(seats, {**options, "stall_rounds": 8})
    answered = 0
    for _ in range(120):
        pending = rules.pending(state)
        if isinstance(pending, Finished):
            break
        if not isinstance(pending, Await):
            event = chance_event(rng, pending)
            if state.chooser is None and state.roll is None:
                assert quick.rests(state, state.to_move) == resting_reference(
                    state, state.to_move
                )
            state = step(rules, state, event)
            continue
        seat = pending.seats[0]
        actions = rules.legal(state, seat)
        if pending.kind == "move" and len(state.dice) >= 1:
            for action in rng.sample(actions, min(3, len(actions))):
                for text in variants(action, state.dice):
                    fast = outcome(rules, state, seat, text)
                    assert fast == slow_outcome(rules, state, seat, text), text
                    answered += isinstance(fast, dict)
        state = step(rules, state, Played(seat, actions[rng.randrange(len(actions))]))
        derived_data_is_right(state)
    assert answered > 20


def test_the_short_cut_leaves_an_entry_with_nothing_in_reserve_to_the_full_path():
    state = position({"c4": "rSe"}, dice=(3, 5), finished={RED: 4})
    fast, answered = fast_and_slow(state, "3: +E")
    assert fast == "IllegalAction: you have no Martian in reserve to enter"
    assert not answered
