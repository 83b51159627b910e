"""Card helpers of Martianopolis 500: the shuffle check's message and seat names."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.games.martianopolis.cards import check_permutation
from engine.games.martianopolis.state import seat_name


def test_a_shuffle_that_is_not_a_permutation_names_the_range_it_must_order() -> None:
    # Five cards: the shuffle must order 0..4, each once; 0..3 misses the last card.
    with pytest.raises(IllegalAction, match=r"^a shuffle must order 0\.\.4 exactly once each$"):
        check_permutation((0, 1, 2, 3), 5)


def test_a_seat_beyond_the_four_colours_is_named_by_its_number() -> None:
    assert [seat_name(s) for s in range(4)] == ["Red", "Yellow", "Green", "Blue"]
    assert seat_name(4) == "seat 4"
    assert seat_name(-1) == "seat -1"
