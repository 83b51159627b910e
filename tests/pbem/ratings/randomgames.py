"""Random finished games for the ratings tests: seats, shared places, timeouts, bots, statuses."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from pbem.ratings.core.games import RatedGame, Seat, Status

START = datetime(2025, 1, 1, tzinfo=UTC)
KINDS = ("martian-dice", "martian-race", "mars")
UNRATED = (Status.ABORTED, Status.NEVER_MOVED, Status.ANNULLED)


def random_game(rng: random.Random, number: int, players: list[str]) -> RatedGame:
    """One game: 2-5 seats, some bots, some ties and timeouts, now and then unrated."""
    seats = rng.randint(2, 5)
    chosen = rng.sample(players, seats)
    ranks = [rng.randint(1, seats) for _ in range(seats)]
    ranks = [1 + sum(o < r for o in ranks) for r in ranks]  # competition ranks, with ties
    # Games finish on whole hours so that some share a finish time (then the id decides);
    # gaps of up to a year and a half let idle growth reach its cap now and then.
    at = START + timedelta(hours=rng.choice([rng.randint(0, 24 * 90), rng.randint(0, 24 * 540)]))
    status = Status.RATED if rng.random() < 0.8 else rng.choice(UNRATED)
    result = []
    for player, rank in zip(chosen, ranks, strict=True):
        bot = rng.random() < 0.15
        aborted = status is Status.ABORTED and rng.random() < 0.5
        result.append(
            Seat(None if bot else player, None if aborted else rank, rng.random() < 0.1)
        )
    if any(s.rank is None for s in result):
        result = [Seat(s.player, None, s.timed_out) for s in result]
    return RatedGame(f"g{number:03d}", rng.choice(KINDS), at, tuple(result), status)


def random_games(seed: int, count: int, pool: int = 12) -> list[RatedGame]:
    """`count` random games among `pool` players, in no particular order."""
    rng = random.Random(seed)
    players = [f"p{i:02d}" for i in range(pool)]
    return [random_game(rng, n, players) for n in range(count)]
