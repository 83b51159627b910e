"""The board of the Martian movement system: squares, neighbours, goal gates and positions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.games.mars import Piece, parse_square
from engine.games.mars.geometry import (
    NEIGHBOUR,
    STEPS,
    piece_value,
    square_name,
)
from engine.games.martian_race import RULES

# The compass as (file, rank) offsets, index 1..4 = N, E, S, W as in the facings.
OFFSETS = {1: (0, 1), 2: (1, 0), 3: (0, -1), 4: (-1, 0)}


@pytest.mark.parametrize(
    ("square", "name"), [(0, "a1"), (7, "h1"), (8, "a2"), (26, "c4"), (56, "a8"), (63, "h8")]
)
def test_squares_are_named_file_then_rank_from_a1(square, name):
    assert square_name(square) == name
    assert parse_square(name) == square
    assert parse_square(f"  {name.upper()} ") == square


@pytest.mark.parametrize("text", ["i1", "a9", "a0", "a", "a10", "", "1a", "c 4"])
def test_a_name_off_the_board_is_refused_quoting_it(text):
    with pytest.raises(ValueError) as caught:
        parse_square(text)
    assert str(caught.value) == f"{text.strip().lower()!r} is not a square a1..h8"


def test_each_square_knows_its_neighbour_each_way_and_the_edges():
    for square in range(64):
        file, rank = square % 8, square // 8
        assert NEIGHBOUR[square][0] == -1  # standing: no way to step
        for facing, (df, dr) in OFFSETS.items():
            f, r = file + df, rank + dr
            expected = r * 8 + f if 0 <= f < 8 and 0 <= r < 8 else -1
            assert NEIGHBOUR[square][facing] == expected, (square_name(square), facing)
        ways = [(letter, nxt, bit) for letter, nxt, bit in STEPS[square]]
        assert ways == [
            ("NESW"[facing - 1], NEIGHBOUR[square][facing], 1 << NEIGHBOUR[square][facing])
            for facing in (1, 2, 3, 4)
            if NEIGHBOUR[square][facing] >= 0
        ]
    assert len(STEPS[0]) == len(STEPS[63]) == 2 and len(STEPS[27]) == 4


def test_each_size_may_enter_only_its_own_goal_and_the_gates_can_be_opened():
    params = RULES.start(2).params
    h2, a2, h7 = (1 << parse_square(q) for q in ("h2", "a2", "h7"))
    assert params.specials == tuple(parse_square(q) for q in ("a7", "h2", "a2", "h7"))
    assert [params.target(size) for size in (0, 1, 2, 3)] == list(params.specials)
    assert params.gate_mask(1) == a2 | h7
    assert params.gate_mask(2) == h2 | h7
    assert params.gate_mask(3) == h2 | a2
    opened = RULES.start(2, {"goal_gates": False}).params
    assert [opened.gate_mask(size) for size in (1, 2, 3)] == [0, 0, 0]


def test_goal_gates_follow_the_goals_wherever_they_are():
    params = replace(RULES.start(2).params, goal1=1, goal2=2, goal3=3)
    assert [params.gate_mask(size) for size in (1, 2, 3)] == [0b1100, 0b1010, 0b0110]


def test_a_piece_value_is_made_once_and_a_piece_off_the_board_has_no_square():
    assert piece_value(0, 1, 1, 26, 2) is piece_value(0, 1, 1, 26, 2)
    assert piece_value(0, 1, 1, 26, 2) == Piece(0, 1, 1, 26, 2)
    assert Piece(1, 2, 0) == Piece(1, 2, 0, -1, -1)
