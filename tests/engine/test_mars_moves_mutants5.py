"""The short cuts of the legal-move search answer their cases without the full search.

moves.usable (may the seat spend this die?), moves.enables_fast (does a first move keep the
other die?) and moves.candidates (the legal moves) each answer the common case at once and
leave the rest to the full search: every piece's endpoints (moves.movers), a resolution of
the move's arrival (moves.landed, moves.enables). A server turn asks them for every move, so
the short cuts are part of the contract: here the full search is made to fail the test if it
is reached in a case a short cut covers, and the answer is checked against the full search's.

Written against the surviving mutants of engine/games/mars/moves.py that only cost time
(docs/mutants/mars-shortcuts.md). Martian Race's squares: Home a7, goals h2 (small), a2
(medium), h7 (large).
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from engine.games.mad_dog import RULES as DOG_RULES
from engine.games.mars import moves
from engine.games.mars.geometry import BOARD, DOG, UP
from engine.games.mars.resolution import Resolution
from engine.games.mars.state import MarsState, to_pos
from engine.games.martian_race import RULES
from tests.engine.test_mad_dog import position
from tests.engine.test_mars_moves import GAMES, enables_in_full, states_to_move

RED, BLUE = 0, 1


def fail(what: str) -> Any:
    def called(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{what} reached in a case its short cut covers")

    return called


def red(spec: dict[str, str], *, dog: tuple[int, str, str] | None = None, **kw: Any) -> MarsState:
    rules = DOG_RULES if dog else RULES
    return position(spec, seats=2, dice=(1, 2), to_move=RED, rules=rules, dog=dog, **kw)


# --- usable: a piece that may stay where it is, or the Dog alone, can always turn -------------


@pytest.mark.parametrize(
    ("spec", "dog", "finished"),
    [
        ({"c4": "rSe"}, None, {}),  # alone on its square
        ({"c4": "rSe rMn"}, None, {}),  # with its own colour
        ({"c4": "rSe", "h8": "bSn"}, None, {}),  # Blue's pieces elsewhere do not matter
        ({"c4": "bSe"}, (RED, "d4", "n"), {RED: 5}),  # the Dog alone, its runner finished
        ({"c4": "bSe"}, (RED, "a1", "n"), {RED: 5}),  # the same on a1, square 0
    ],
)
def test_usable_answers_a_turn_in_place_without_the_full_search(spec, dog, finished):
    pos = to_pos(red(spec, dog=dog, finished=finished))
    full = [any(True for _ in moves.movers(pos, RED, die, pos.masks())) for die in range(1, 7)]
    assert full == [True] * 6  # the full search agrees: every die can be spent
    with mock.patch.object(moves, "movers", fail("the endpoint search")):
        assert all(moves.usable(pos, RED, die) for die in range(1, 7))


def test_usable_searches_in_full_where_no_piece_may_stay():
    # Red's only small shares c4 with a Blue one: it must move, and only the search can tell.
    pos = to_pos(red({"c4": "rSe bSe"}))
    with mock.patch.object(moves, "movers", fail("the endpoint search")):
        with pytest.raises(AssertionError, match="endpoint search"):
            moves.usable(pos, RED, 1)
    assert moves.usable(pos, RED, 1)


# --- enables_fast: the other die is kept wherever the moved piece can turn ------------------


def covered(state: MarsState, cand: moves.Candidate, seat: int) -> bool:
    """Whether enables_fast's docstring cases answer the candidate without a resolution.

    The Dog always can turn. A move that pushes nothing keeps the other die unless its piece
    stands up on its own goal (and grows there). Without the Dog, a busy landing keeps it
    too unless the piece stands up on its goal with no other lying piece of the seat.
    """
    if cand.piece == DOG:
        return True
    pos = to_pos(state)
    on_goal = cand.facing == UP and cand.square == state.params.target(pos.size[cand.piece])
    if cand.res is None and cand.choice is None:
        return not on_goal
    if pos.dog_square >= 0:
        return False
    lying = any(
        s == BOARD and o == seat and f != UP and i != cand.piece
        for i, (s, o, f) in enumerate(zip(pos.status, pos.owner, pos.facing, strict=True))
    )
    return not on_goal or lying


def check_first_moves(state: MarsState, seat: int) -> int:
    """enables_fast for every covered first move: the full search's answer, without it."""
    pos = to_pos(state)
    other = {state.dice[0]: state.dice[-1], state.dice[-1]: state.dice[0]}
    count = 0
    for cand in list(moves.candidates(state, seat, state.dice)):
        if not covered(state, cand, seat):
            continue
        die = other[cand.die]
        full = enables_in_full(state, cand, seat, die)
        with (
            mock.patch.object(moves, "enables", fail("the full must-use search")),
            mock.patch.object(moves, "landed", fail("a resolution of the landing")),
        ):
            assert moves.enables_fast(state, pos, cand, seat, die) is full, cand.text
        count += 1
    return count


@pytest.mark.parametrize(
    ("spec", "dice", "text"),
    [
        ({"c4": "rSe"}, (3, 1), "3: c4 F2 U"),  # stands up on e4, not its goal
        ({"f2": "rSe"}, (2, 1), "2: f2 F2"),  # lies on h2, its goal: it does not grow
        ({"b4": "rSe", "e4": "bSn"}, (4, 1), "4: b4 F3 U x bS:NN"),  # stands up pushing
        ({"f2": "rSe", "h2": "bSn"}, (2, 1), "2: f2 F2 x bS:N"),  # lies on its goal, pushing
        # Stands up on h2 pushing Blue's small away, and grows; a lying small of Red's on c4
        # can spend the 1 turning.
        ({"h5": "rSs", "h2": "bSe", "c4": "rSe"}, (4, 1), "4: h5 F3 U x bS:NN"),
    ],
)
def test_a_first_move_that_leaves_a_piece_free_to_turn_keeps_the_other_die_at_once(
    spec, dice, text
):
    state = position(spec, seats=2, dice=dice, to_move=RED, rules=RULES, finished={RED: 2})
    listed = {c.text: c for c in moves.candidates(state, RED, dice)}
    assert text in listed, sorted(listed)
    cand = listed[text]
    assert covered(state, cand, RED)
    pos = to_pos(state)
    assert enables_in_full(state, cand, RED, dice[1]) is True
    with (
        mock.patch.object(moves, "enables", fail("the full must-use search")),
        mock.patch.object(moves, "landed", fail("a resolution of the landing")),
    ):
        assert moves.enables_fast(state, pos, cand, RED, dice[1]) is True


@pytest.mark.parametrize(("rules", "seats", "options"), GAMES)
def test_the_must_use_short_cuts_answer_random_play_without_the_full_search(rules, seats, options):
    checked = 0
    for state, seat in states_to_move(rules, seats, options, seats + 20, 6):
        if len(state.dice) == 2:
            checked += check_first_moves(state, seat)
    assert checked > 20


# --- candidates: a free landing needs no resolution, a busy one is worked out once ----------


def test_landings_on_free_squares_and_on_its_own_colour_need_no_resolution():
    # Red's small on c4 and medium on d4; Blue's only piece on the board is far off on h8.
    state = position(
        {"c4": "rSe", "d4": "rMe", "h8": "bSn"}, seats=2, dice=(1, 2), to_move=RED, rules=RULES
    )
    with mock.patch.object(moves, "landed", fail("a resolution of the landing")):
        listed = list(moves.candidates(state, RED, state.dice))
    assert "1: c4 F" in [c.text for c in listed]  # onto its own medium
    assert all(c.res is None and c.choice is None for c in listed)


def test_the_movers_push_choices_are_worked_out_once_per_landing_and_stance():
    # Red's small reaches Blue's on e4 with the 2 (FF) and with the 3 (FF, then a turn): the
    # same landing, lying both times, so the same push choices.
    state = position({"c4": "rSe", "e4": "bSn"}, seats=2, dice=(2, 3), to_move=RED, rules=RULES)
    calls: list[tuple[int, int, bool]] = []
    real = moves.landed

    def spy(state: Any, pos: Any, piece: int, square: int, facing: int, before: Any) -> Any:
        calls.append((piece, square, facing == UP))
        return real(state, pos, piece, square, facing, before)

    with mock.patch.object(moves, "landed", spy):
        listed = list(moves.candidates(state, RED, state.dice))
    busy = [c for c in listed if c.res is not None or c.choice is not None]
    keys = {(c.piece, c.square, c.facing == UP) for c in busy}
    assert len({c.die for c in busy if c.square == 28}) == 2  # both dice land on e4
    assert sorted(calls) == sorted(keys)


# --- enables: a resolution already run is not run again --------------------------------------


def test_a_resolution_that_has_run_is_not_run_again_to_settle_the_must_use_rule():
    # Blue has won and its Dog stands on a1; Red's small steps onto it and is destroyed, a
    # move whose resolution the listing ran to its end. Whether the 2 can still be played is
    # read off that resolution (Red's small on h5 can spend it), without running it again.
    state = position(
        {"a2": "rSs", "h5": "rSn", "h8": "gSn"},
        seats=3,
        dice=(1, 2),
        to_move=RED,
        rules=DOG_RULES,
        finished={BLUE: 4, RED: 2},
        dog=(BLUE, "a1", "n"),
    )
    cand = next(c for c in moves.candidates(state, RED, state.dice) if c.text == "1: a2 F")
    assert cand.res is not None and cand.done is True
    pos = to_pos(state)
    with mock.patch.object(Resolution, "run", fail("running the resolution")):
        assert moves.enables(cand.res, cand.done, RED, 2, state.winner) is True
        assert moves.enables_fast(state, pos, cand, RED, 2) is True
