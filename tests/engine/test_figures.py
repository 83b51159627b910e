"""Numbers as people write them: the one way pages, mails and reports write a figure."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.figures import counted, figure


@pytest.mark.parametrize(("value", "written"), [
    (2 / 3, "0.67"), (1 / 12, "0.08"), (0.5, "0.5"), (3.0, "3"), (3, "3"), (4.25, "4.25"),
    (2160, "2,160"), (1234.5, "1,234.5"), (-0.001, "0"), (-2.5, "-2.5"), (0, "0"),
    (1e-9, "0"), (5 / 6, "0.83"),
])
def test_a_figure_is_written_with_at_most_two_decimals_and_thousands_with_commas(
    value, written
):
    assert figure(value) == written


@pytest.mark.parametrize(("value", "word", "written"), [
    (1, "point", "1 point"), (1.0, "point", "1 point"), (0, "point", "0 points"),
    (0.5, "point", "0.5 points"), (2 / 3, "point", "0.67 points"), (1, "game", "1 game"),
    (3, "game", "3 games"), (1.001, "point", "1 point"), (1, "match", "1 match"),
    (2, "match", "2 matches"),
])
def test_a_counted_noun_agrees_with_its_number_as_written(value, word, written):
    plural = "matches" if word == "match" else None
    assert counted(value, word, plural) == written


@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False))
def test_a_figure_reads_back_within_half_a_hundredth(value):
    text = figure(value)
    assert abs(float(text.replace(",", "")) - value) <= 0.005 + 1e-6 * abs(value)
    assert len(text.partition(".")[2]) <= 2
