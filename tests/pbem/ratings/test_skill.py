"""Plackett-Luce updates checked against the formulas of Weng and Lin (2011), worked by hand.

Algorithm 4 (Plackett-Luce) with ties, for one-player teams, as openskill applies it:

    sigma_i^2  <- sigma_i^2 + tau^2                      (openskill's per-game dynamics)
    c          =  sqrt(sum_i (sigma_i^2 + beta^2))
    C_q        =  sum over s with r(s) >= r(q) of exp(mu_s / c)
    A_q        =  |{s : r(s) = r(q)}|                     (how many share q's place)
    p_iq       =  exp(mu_i / c) / C_q
    Omega_i    =  sigma_i^2 / c   * sum over q with r(q) <= r(i) of ([q = i] - p_iq) / A_q
    Delta_i    =  gamma_i sigma_i^2 / c^2 * sum over q with r(q) <= r(i) of p_iq (1 - p_iq) / A_q
    gamma_i    =  sigma_i / c
    mu_i       <- mu_i + Omega_i
    sigma_i    <- sigma_i * sqrt(max(1 - Delta_i, kappa))
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest
from openskill.models import PlackettLuceRating

from pbem.ratings.core import fold, scale, skill
from pbem.ratings.core.games import OVERALL, RatedGame, Seat

TAU = 25 / 300
BETA = 25 / 6


def test_a_three_player_game_of_new_players_with_a_shared_second_place_rates_as_worked_by_hand():
    # Ann wins; Bob and Cat share second place. All three are new: mu 25, sigma 25/3.
    game = RatedGame(
        "g1", "martian-dice", datetime(2026, 1, 5, tzinfo=UTC),
        (Seat("ann", 1), Seat("bob", 2), Seat("cat", 2)),
    )
    ratings = fold.rebuild([game])

    var = (25 / 3) ** 2 + TAU**2  # 69.444444 + 0.006944
    assert var == pytest.approx(69.4513888889)
    c = math.sqrt(3 * (var + BETA**2))  # sqrt(3 * (69.451389 + 17.361111)) = sqrt(260.4375)
    assert c == pytest.approx(16.1380760935)
    # Equal mu: every exp(mu/c) is the same E, so C_ann = 3E (all rank >= 1) and
    # C_bob = C_cat = 2E (ranks >= 2); A_ann = 1, A_bob = A_cat = 2.
    # Ann (rank 1) sums over q = ann only: p = E/3E = 1/3.
    omega_sum_ann = (1 - 1 / 3) / 1  # 2/3
    delta_sum_ann = (1 / 3) * (2 / 3) / 1  # 2/9
    # Bob (rank 2) sums over q = ann (p = 1/3), bob (p = 1/2, himself), cat (p = 1/2):
    omega_sum_bob = -(1 / 3) / 1 + (1 - 1 / 2) / 2 - (1 / 2) / 2  # -1/3
    delta_sum_bob = (1 / 3) * (2 / 3) / 1 + 2 * ((1 / 2) * (1 / 2) / 2)  # 2/9 + 1/4 = 17/36
    assert omega_sum_bob == pytest.approx(-1 / 3)
    assert delta_sum_bob == pytest.approx(17 / 36)
    gamma = math.sqrt(var) / c  # 8.333750 / 16.138076 = 0.516403
    assert var / c == pytest.approx(4.30357302112)
    assert gamma == pytest.approx(0.516402943033)
    omega_ann = omega_sum_ann * var / c  # +2.869049
    omega_bob = omega_sum_bob * var / c  # -1.434524
    delta_ann = delta_sum_ann * var / c**2 * gamma  # 2/9 * 0.266672 * 0.516403 = 0.030602
    delta_bob = delta_sum_bob * var / c**2 * gamma  # 17/36 * 0.266672 * 0.516403 = 0.065030
    assert (omega_ann, omega_bob) == pytest.approx((2.86904868075, -1.43452434037))
    assert (delta_ann, delta_bob) == pytest.approx((0.0306022678676, 0.0650298192187))
    mu_ann, mu_bob = 25 + omega_ann, 25 + omega_bob  # 27.869049, 23.565476
    sigma_ann = math.sqrt(var) * math.sqrt(1 - delta_ann)  # 8.205243
    sigma_bob = math.sqrt(var) * math.sqrt(1 - delta_bob)  # 8.058224
    assert (mu_ann, mu_bob) == pytest.approx((27.8690486807, 23.5654756596))
    assert (sigma_ann, sigma_bob) == pytest.approx((8.20524337740, 8.05822422280))

    for pool in ("martian-dice", OVERALL):
        table = ratings.standings[pool]
        for player, mu, sigma in (
            ("ann", mu_ann, sigma_ann), ("bob", mu_bob, sigma_bob), ("cat", mu_bob, sigma_bob)
        ):
            assert table[player].mu == pytest.approx(mu, rel=1e-12)
            assert table[player].sigma == pytest.approx(sigma, rel=1e-12)
    # Shown: 1000 + 25 (mu - 3 sigma): Ann 1000 + 25 * 3.253318 = 1081, Bob 1000 - 25 * 0.609197
    assert ratings.standings[OVERALL]["ann"].display == 1081
    assert ratings.standings[OVERALL]["bob"].display == 985
    assert ratings.histories[OVERALL]["cat"].points[0].delta == 985 - 1000


def test_a_shared_place_between_different_ratings_rates_as_worked_by_hand():
    # Ann (mu 20, sigma 6) wins; Bob (30, 4) and Cat (25, 5) share second place.
    after = skill.Rater().rate([(20.0, 6.0), (30.0, 4.0), (25.0, 5.0)], [1, 2, 2])

    var = {"ann": 36 + TAU**2, "bob": 16 + TAU**2, "cat": 25 + TAU**2}
    mu = {"ann": 20.0, "bob": 30.0, "cat": 25.0}
    c = math.sqrt(sum(v + BETA**2 for v in var.values()))  # sqrt(77.10 + 3 * 17.36)
    assert c == pytest.approx(11.3624014481)
    e = {p: math.exp(m / c) for p, m in mu.items()}  # 5.813549, 14.017225, 9.027172
    assert (e["ann"], e["bob"], e["cat"]) == pytest.approx((5.81354933, 14.01722495, 9.02717169))
    c_ann = e["ann"] + e["bob"] + e["cat"]  # 28.857946: every seat ranks at or below first
    c_2nd = e["bob"] + e["cat"]  # 23.044397: the seats at or below second (C_bob = C_cat)
    # Ann (rank 1): q = ann only.
    p = e["ann"] / c_ann  # 0.201454
    omega_ann = (1 - p) * var["ann"] / c  # 0.798546 * 3.168976 = 2.530557
    delta_ann = p * (1 - p) * var["ann"] / c**2 * math.sqrt(var["ann"]) / c  # 0.023694
    # Bob (rank 2): q = ann (A 1), bob (A 2, himself), cat (A 2).
    pa, pb = e["bob"] / c_ann, e["bob"] / c_2nd  # 0.485738, 0.608278
    omega_bob = (-pa + (1 - pb) / 2 - pb / 2) * var["bob"] / c  # -0.594002 * 1.408734
    delta_bob = (pa * (1 - pa) + 2 * (pb * (1 - pb) / 2)) * var["bob"] / c**2 * (
        math.sqrt(var["bob"]) / c
    )  # 0.488074 * 0.123982 * 0.352117 = 0.021308
    # Cat (rank 2): q = ann, bob, cat (herself).
    pa, pc = e["cat"] / c_ann, e["cat"] / c_2nd  # 0.312814, 0.391722
    omega_cat = (-pa - pc / 2 + (1 - pc) / 2) * var["cat"] / c  # -0.204544 * 2.200830
    delta_cat = (pa * (1 - pa) + 2 * (pc * (1 - pc) / 2)) * var["cat"] / c**2 * (
        math.sqrt(var["cat"]) / c
    )  # 0.453239 * 0.193696 * 0.440118 = 0.038637
    assert (omega_ann, omega_bob, omega_cat) == pytest.approx(
        (2.53055666, -0.83680922, -0.45016995)
    )
    assert (delta_ann, delta_bob, delta_cat) == pytest.approx(
        (0.02369435, 0.02130776, 0.03863739)
    )
    expected = [
        (20 + omega_ann, math.sqrt(var["ann"]) * math.sqrt(1 - delta_ann)),  # 22.530557, 5.929063
        (30 + omega_bob, math.sqrt(var["bob"]) * math.sqrt(1 - delta_bob)),  # 29.163191, 3.958014
        (25 + omega_cat, math.sqrt(var["cat"]) * math.sqrt(1 - delta_cat)),  # 24.549830, 4.903136
    ]
    assert [m for m, _ in after] == pytest.approx([m for m, _ in expected], rel=1e-12)
    assert [s for _, s in after] == pytest.approx([s for _, s in expected], rel=1e-12)
    # The tied seats keep their own mu changes (-0.836809 and -0.450170): openskill 6.2's
    # averaging of a shared place's changes is a no-op (see pbem.ratings.core.skill).
    assert after[1][0] - 30 != pytest.approx(after[2][0] - 25)


def test_the_rater_does_not_depend_on_what_it_rated_before():
    rater = skill.Rater()
    first = rater.rate([(25.0, 8.0), (27.0, 3.0), (22.0, 5.0), (31.0, 2.0)], [2, 1, 4, 2])
    rater.rate([(10.0, 1.0), (40.0, 9.0)], [1, 2])
    again = rater.rate([(25.0, 8.0), (27.0, 3.0), (22.0, 5.0), (31.0, 2.0)], [2, 1, 4, 2])
    assert again == first == skill.Rater().rate(
        [(25.0, 8.0), (27.0, 3.0), (22.0, 5.0), (31.0, 2.0)], [2, 1, 4, 2]
    )


@pytest.mark.parametrize("mu, sigma", [(25.0, 25 / 3), (31.7, 2.4), (12.0, 7.9)])
def test_the_shown_rating_is_openskills_ordinal_on_the_display_scale(mu, sigma):
    ordinal = PlackettLuceRating(mu, sigma).ordinal(z=3, alpha=25, target=1000)
    assert scale.ordinal(mu, sigma) == ordinal
    assert ordinal == pytest.approx(1000 + 25 * (mu - 3 * sigma))
    assert scale.display(mu, sigma) == round(ordinal)


def test_a_new_player_shows_one_thousand():
    assert scale.display(skill.MU, skill.SIGMA) == 1000
