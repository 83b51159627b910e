"""Martianopolis 500: a racer's possible moves (paths.py)."""

from __future__ import annotations

import pytest

from tests.engine.test_martianopolis import P1, Paths, Racer, S


def test_a_path_to_an_end_out_of_reach_is_refused_naming_the_end():
    # S on b10 with 5 points on an empty track: 5 squares at most, never 6.
    paths = Paths(frozenset(), Racer(P1, S, 1, 10), 5, 241)
    assert paths.path_to(("exact", 1, 5)) == ("F",) * 5
    with pytest.raises(ValueError, match=r"\('exact', 1, 6\) is not reachable"):
        paths.path_to(("exact", 1, 6))
