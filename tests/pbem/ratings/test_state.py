"""The records a fold produces: standings, points and histories kept by column."""

from __future__ import annotations

from dataclasses import astuple
from datetime import UTC, datetime, timedelta

import pytest

from pbem.ratings.core.state import History, Point, Standing

T0 = datetime(2026, 1, 1, tzinfo=UTC)
ROWS = [
    ("g1", T0, 27.1, 8.0, 1000, 1077, 1, 3),
    ("g2", T0 + timedelta(days=2), 26.4, 7.8, 1077, 1075, 2, 4),
    ("g3", T0 + timedelta(days=9), 28.0, 7.5, 1081, 1138, 1, 2),
]


def test_a_history_gives_back_the_points_it_was_made_from():
    history = History.from_rows(ROWS)
    assert len(history) == 3
    assert [astuple(p) for p in history.points] == ROWS
    assert history.game == ("g1", "g2", "g3")
    assert [p.delta for p in history.points] == [77, -2, 57]


def test_adding_points_one_by_one_gives_the_same_history():
    history = History()
    for row in ROWS:
        history = history.added(row)
    assert history == History.from_rows(ROWS)


def test_an_empty_history_has_no_points():
    assert History.from_rows([]) == History()
    assert len(History()) == 0 and History().points == ()


def test_a_row_with_a_field_missing_is_refused_rather_than_leaving_a_column_short():
    # Kept by column, a short row would leave `places` shorter than `game`: points then
    # could not be read back. The rows must all have every field.
    with pytest.raises(ValueError, match="zip"):
        History.from_rows([*ROWS, ROWS[0][:-1]])


def test_a_standing_shows_its_rating_and_whether_it_is_provisional():
    new = Standing("ann", "mars", 25.0, 25 / 3, 0, T0)
    settled = Standing("ann", "mars", 30.0, 2.5, 120, T0)
    assert (new.display, new.provisional) == (1000, True)
    assert (settled.display, settled.provisional) == (1562, False)


def test_a_point_says_how_much_the_game_moved_the_shown_rating():
    assert Point("g", T0, 24.0, 7.0, 1010, 985, 3, 3).delta == -25
