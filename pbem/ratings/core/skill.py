"""The one place that calls openskill: a typed Plackett-Luce rater for one-player teams.

Every seat is a team of one. The model keeps openskill's defaults (mu 25, sigma 25/3,
beta 25/6, kappa 0.0001, and tau 25/300: before each game openskill itself widens every
sigma to sqrt(sigma^2 + tau^2), which keeps ratings able to move). Ties are given as equal
ranks, and the update is Weng and Lin's Algorithm 4 with its tie counts A_q. (openskill
6.2 also means to give the seats of a shared place the average of their mu changes, but
it compares each updated rating with itself, so that step changes nothing; the tests pin
the figures, so a release that starts averaging will show up there.)
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0


class Rater:
    """Rate games with one model object and reusable input ratings (openskill copies them)."""

    __slots__ = ("_model", "_scratch")

    def __init__(self) -> None:
        self._model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)
        self._scratch: list[PlackettLuceRating] = []

    def rate(
        self, priors: Sequence[tuple[float, float]], ranks: Sequence[float]
    ) -> list[tuple[float, float]]:
        """Return each seat's (mu, sigma) after a game, from its (mu, sigma) before and rank."""
        scratch = self._scratch
        while len(scratch) < len(priors):
            scratch.append(self._model.rating())
        teams = []
        for (mu, sigma), rating in zip(priors, scratch, strict=False):
            # rate() deep-copies its input, so the scratch objects are never changed by it;
            # reusing them spares a uuid4 per seat that a fresh rating object would draw.
            rating.mu = mu
            rating.sigma = sigma
            teams.append([rating])
        rated = self._model.rate(teams, ranks=list(ranks))
        return [(team[0].mu, team[0].sigma) for team in rated]
