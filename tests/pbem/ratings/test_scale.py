"""The shown number, the provisional mark and the growth of uncertainty while idle."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from pbem.ratings.core import scale
from pbem.ratings.core.skill import SIGMA


def test_idle_days_count_fractions_of_a_day():
    start = datetime(2026, 1, 1, tzinfo=UTC)
    assert scale.idle_days(start, start + timedelta(days=3, hours=12)) == 3.5


def test_a_settled_player_away_for_a_year_comes_back_provisional():
    sigma = scale.grown(2.5, 365)
    assert sigma == math.sqrt(2.5**2 + 0.29**2 * 365)
    assert sigma == pytest.approx(6.078, abs=1e-3)
    assert scale.is_provisional(sigma)


def test_a_month_away_widens_a_settled_rating_a_little():
    assert scale.grown(2.5, 30) == pytest.approx(2.962, abs=1e-3)
    assert not scale.is_provisional(scale.grown(2.5, 30))


def test_idle_growth_never_goes_beyond_a_new_players_uncertainty():
    assert scale.grown(2.5, 10_000) == SIGMA
    assert scale.grown(8.0, 100) == SIGMA


def test_no_idle_time_changes_nothing():
    assert scale.grown(3.1, 0.0) == 3.1
    # a first game of 50 seats leaves sigma at 8.3336, just above a new player's 8.3333 (tau
    # widens it before the game more than the game narrows it): no idle time, no cap either
    assert scale.grown(8.3336, 0.0) == 8.3336


def test_half_a_day_away_already_widens_a_rating():
    # sqrt(2.5^2 + 0.29^2 * 0.5) = sqrt(6.25 + 0.04205) = 2.50840...
    assert scale.grown(2.5, 0.5) == math.sqrt(2.5**2 + 0.29**2 * 0.5)
    assert scale.grown(2.5, 0.5) == pytest.approx(2.5084, abs=1e-4)


@pytest.mark.parametrize("sigma, provisional", [(SIGMA, True), (6.0, True), (5.999, False)])
def test_a_rating_is_provisional_while_sigma_is_at_least_six(sigma, provisional):
    assert scale.is_provisional(sigma) is provisional
