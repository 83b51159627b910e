"""How a rating is shown: the Elo-like number, the provisional mark and growth while idle.

The shown number is openskill's `ordinal()` (mu - 3 sigma, a skill the player very
probably has) on a scale where a new player shows 1000:

    display = round(25 * ((mu - 3 * sigma) + 1000 / 25))      i.e. 1000 + 25 * (mu - 3 sigma)

which is `PlackettLuceRating.ordinal(z=3, alpha=25, target=1000)`, rounded. A new player
(mu 25, sigma 25/3) shows exactly 1000; a settled player of average skill (sigma near 2.5)
shows about 1440, and 25 display points per unit of mu make a gap of 100 points between
settled players about the same odds as 100 Elo points.

A rating is provisional while sigma is at least 6.0: about a dozen two-player games, or
two dozen four-player games, with results as random as a coin.

While a player is idle in a pool, their uncertainty grows: before their next game in it,

    sigma = min(SIGMA, sqrt(sigma^2 + TAU_IDLE^2 * days_idle))

with TAU_IDLE = 0.29 per square root of a day, so a settled player (sigma 2.5) away for a
year comes back at sigma 6.08, provisional again; a month away only takes 2.5 to 2.96.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from .skill import SIGMA

Z = 3.0
SCALE = 25.0
NEW = 1000.0
PROVISIONAL_SIGMA = 6.0
TAU_IDLE = 0.29
DAY = timedelta(days=1)


def ordinal(mu: float, sigma: float) -> float:
    """Return the conservative skill mu - 3 sigma on the display scale, unrounded."""
    # The same expression as openskill's ordinal(z, alpha, target), so the figures agree
    # to the last bit with what openskill itself would show.
    return SCALE * ((mu - Z * sigma) + NEW / SCALE)


def display(mu: float, sigma: float) -> int:
    """Return the Elo-like number shown for a rating."""
    return round(SCALE * ((mu - Z * sigma) + NEW / SCALE))  # ordinal(), inlined: a hot path


def is_provisional(sigma: float) -> bool:
    """Tell whether a rating is still too uncertain to be taken at face value."""
    return sigma >= PROVISIONAL_SIGMA


def idle_days(last: datetime, now: datetime) -> float:
    """Return the days (fractional) from one moment to a later one."""
    return (now - last) / DAY


def grown(sigma: float, days: float) -> float:
    """Return sigma widened for the days a player was idle, never beyond a new player's."""
    if days <= 0.0:
        return sigma
    return min(SIGMA, math.sqrt(sigma * sigma + TAU_IDLE * TAU_IDLE * days))
