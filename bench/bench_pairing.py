"""Two-player Swiss pairing quality against FIDE's Dutch system (py4swiss), on the same inputs.

Usage: python bench/bench_pairing.py [--quick] [--seeds N] [--sizes 16,33,64,100]

For each field size and seed, an event is played twice with random results from the same
seeded stream (first seat wins 40%, draws 20%, second seat wins 40%; a bye scores a win):
once along pbem's pairings (`formats.plan` on the folded log, as the server pairs) and once
along those of py4swiss's Dutch engine (the reference; a bench-only extra, installed by
`pip install -e '.[bench]'`). Before every round of both, each side is asked to pair the
very same state (starting numbers = seeding order) and both answers are judged, so the two
sides are always compared on the same inputs. Counted over every round both could pair:

- rematches: pairs that had met before;
- cross-group pairs: pairs whose scores differed when paired, and the sum of those differences;
- three in a row: a player given the same seat (colour) a third time running;
- beyond 2: a player's colour difference (first seats minus second) going beyond +-2;
- byes up: a bye given to a player above the lowest score among those without a bye;
- rounds unpaired: rounds a side found no legal pairing for (FIDE's absolute rules leave
  some late rounds of small fields unpairable; the event then goes on along the other side's
  pairing, or ends when it was the unpairable side's own).

Then the rematch rate of a rolling Swiss (16 players, 6 games each, 2 at once, default
settings, random results), paired by the version before this one and by this one; a rematch
that remains is one nobody else could be paired instead of (named in its pair event).

Target: pbem no worse than the reference on every figure, and 0 rematches. `--quick` plays
16 and 33 players over 2 seeds (and the 9-player, 8-round case), for a smoke check.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import click

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.tournaments.core.fold import fold  # noqa: E402
from pbem.tournaments.core.formats import plan  # noqa: E402
from pbem.tournaments.core.model import Event  # noqa: E402

T0 = datetime(2026, 3, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Round:
    """One round as paired: (first seat, second seat) pairs, and the bye."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


@dataclass(frozen=True)
class Played:
    """A round as played: its pairing and the first seat's points in each game."""

    round: Round
    first: tuple[float, ...]


def outcome(rng: random.Random) -> float:
    """Return the first seat's points in a random game."""
    draw = rng.random()
    return 1.0 if draw < 0.4 else 0.5 if draw < 0.6 else 0.0


def pbem_pairing(n: int, rounds: int, past: list[Played]) -> Round | None:
    """Return pbem's pairing of the next round after these (players 1..n in seeding order)."""
    events: list[Event] = []

    def add(kind: str, payload: dict[str, Any]) -> None:
        events.append(Event(len(events), kind, payload, T0 + timedelta(minutes=len(events))))

    add("create", {"name": "Bench", "system": "swiss", "kind": "martian-dice",
                   "table_sizes": [2], "rounds": rounds, "director": "d"})
    for i in range(1, n + 1):
        add("register", {"player": str(i), "name": f"P{i}", "rating": None})
    add("start", {"entrants": [str(i) for i in range(1, n + 1)]})
    for r, played in enumerate(past, start=1):
        games = [f"r{r}g{k}" for k in range(len(played.round.pairs))]
        byes = [] if played.round.bye is None else [{"player": str(played.round.bye),
                                                      "points": 1.0}]
        add("pair", {"round": r, "tables": [{"game": g, "seats": [str(a), str(b)]} for g, (a, b)
                                            in zip(games, played.round.pairs, strict=True)],
                     "byes": byes, "inputs": "0" * 64, "algorithm": "bench/1"})
        for game, first in zip(games, played.first, strict=True):
            ranks = [1, 2] if first == 1 else [2, 1] if first == 0 else [1, 1]
            add("result", {"game": game, "ranks": ranks, "scores": None, "flags": [],
                           "finished_at": events[-1].at.isoformat(), "head": "ab" * 32})
    t = fold(events)
    due = plan(t, events[-1].at)
    if due is None:
        return None
    bye = int(due.byes[0].player) if due.byes else None
    return Round(tuple((int(a), int(b)) for a, b in due.tables), bye)


def fide_pairing(n: int, rounds: int, past: list[Played]) -> Round | None:
    """Return py4swiss's Dutch pairing of the same round, or None when it finds none."""
    from py4swiss.engines import DutchEngine
    from py4swiss.engines.common import PairingError
    from py4swiss.trf import ParsedTrf
    from py4swiss.trf.codes import PlayerCode
    from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
    from py4swiss.trf.sections import PlayerSection, XSection

    token = {1.0: ResultToken.WIN, 0.5: ResultToken.DRAW, 0.0: ResultToken.LOSS}
    results: dict[int, list[RoundResult]] = {i: [] for i in range(1, n + 1)}
    points = dict.fromkeys(results, 0.0)
    for played in past:
        if played.round.bye is not None:
            results[played.round.bye].append(RoundResult(
                id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.PAIRING_ALLOCATED_BYE))
            points[played.round.bye] += 1
        for (a, b), first in zip(played.round.pairs, played.first, strict=True):
            results[a].append(RoundResult(id=b, color=ColorToken.WHITE, result=token[first]))
            results[b].append(RoundResult(id=a, color=ColorToken.BLACK, result=token[1 - first]))
            points[a] += first
            points[b] += 1 - first
    order = sorted(results, key=lambda i: (-points[i], i))
    trf = ParsedTrf(x_section=XSection(number_of_rounds=rounds), player_sections=[
        PlayerSection(code=PlayerCode.PLAYER, starting_number=i,
                      points_times_ten=round(10 * points[i]), rank=order.index(i) + 1,
                      results=results[i]) for i in results])
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except PairingError:
        return None
    pairs = tuple((p.white, p.black) for p in pairings if p.black != 0)
    return Round(pairs, next((p.white for p in pairings if p.black == 0), None))


@dataclass
class Figures:
    """What the pairings of a side did, summed over rounds."""

    rematches: int = 0
    cross_group: int = 0
    score_difference: float = 0.0
    three_in_a_row: int = 0
    beyond_2: int = 0
    byes_up: int = 0
    rounds_unpaired: int = 0  # rounds a side found no legal pairing for (not judged)

    def add(self, other: Figures) -> None:
        """Add other figures to these."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def judge(n: int, past: list[Played], proposed: Round) -> Figures:
    """Count a proposed round's rematches, score-group crossings, colour faults and bye."""
    met: Counter[frozenset[int]] = Counter()
    colours: dict[int, list[int]] = {i: [] for i in range(1, n + 1)}
    points = dict.fromkeys(colours, 0.0)
    had_bye: set[int] = set()
    for played in past:
        if played.round.bye is not None:
            had_bye.add(played.round.bye)
            points[played.round.bye] += 1
        for (a, b), first in zip(played.round.pairs, played.first, strict=True):
            met[frozenset((a, b))] += 1
            colours[a].append(1)
            colours[b].append(-1)
            points[a] += first
            points[b] += 1 - first
    found = Figures()
    for a, b in proposed.pairs:
        found.rematches += met[frozenset((a, b))] > 0
        if points[a] != points[b]:
            found.cross_group += 1
            found.score_difference += abs(points[a] - points[b])
        for player, colour in ((a, 1), (b, -1)):
            seq = colours[player]
            found.three_in_a_row += len(seq) > 1 and seq[-1] == seq[-2] == colour
            found.beyond_2 += abs(sum(seq) + colour) > 2
    if proposed.bye is not None:
        without = [p for p in points if p not in had_bye] or list(points)
        found.byes_up += points[proposed.bye] > min(points[p] for p in without)
    return found


def rolling_rate(algorithm: str, seeds: int, n: int = 16) -> tuple[int, int]:
    """Play rolling Swiss events (n players, 6 games each, 2 at once, default settings) with
    random results, paired by this version; return the rematches and the games."""
    from pbem.tournaments.core.fairness import fairness
    from pbem.tournaments.core.formats import is_over, unfinished

    rematches = games = 0
    for seed in range(1, seeds + 1):
        rng, events = random.Random(seed), list[Event]()

        def add(kind: str, payload: dict[str, Any], at: datetime,
                events: list[Event] = events) -> None:
            events.append(Event(len(events), kind, payload, at))

        now = T0
        add("create", {"name": "Bench", "system": "rolling-swiss", "kind": "martian-dice",
                       "table_sizes": [2], "games_per_player": 6, "max_concurrent": 2,
                       "director": "d"}, now)
        for i in range(1, n + 1):
            add("register", {"player": str(i), "name": f"P{i}", "rating": None}, now)
        add("start", {"entrants": [str(i) for i in range(1, n + 1)]}, now)
        while not is_over(t := fold(events)):
            now += timedelta(hours=1)
            due = plan(t, now, algorithm=algorithm)
            if due is not None:
                ids = [f"g{len(events)}-{k}" for k in range(len(due.tables))]
                add("pair", due.payload(ids), now)
                continue
            going = unfinished(t)
            table = going[rng.randrange(len(going))]
            add("result", {"game": table.game, "ranks": rng.choice([[1, 2], [2, 1], [1, 1]]),
                           "scores": None, "flags": [], "finished_at": now.isoformat(),
                           "head": "ab" * 32}, now)
        figures = fairness(t)
        rematches += figures.rematch_games
        games += len(t.tables)
    return rematches, games


SIDES: dict[str, Callable[[int, int, list[Played]], Round | None]] = {
    "pbem": pbem_pairing, "FIDE Dutch": fide_pairing}


def measure(n: int, rounds: int, seeds: int) -> tuple[dict[str, Figures], dict[str, float]]:
    """Play each seed twice, once along each side's pairings; at every round ask both sides
    to pair the same state and judge both answers. Return the figures and seconds per side."""
    totals = {side: Figures() for side in SIDES}
    seconds = dict.fromkeys(SIDES, 0.0)
    for seed in range(1, seeds + 1):
        for driver in SIDES:
            rng, past = random.Random(seed), []
            for _ in range(rounds):
                proposals = {}
                for side, pair in SIDES.items():
                    started = time.perf_counter()
                    proposals[side] = pair(n, rounds, past)
                    seconds[side] += time.perf_counter() - started
                    totals[side].rounds_unpaired += proposals[side] is None
                if all(proposals.values()):  # judged where both sides could pair
                    for side, found in proposals.items():
                        assert found is not None
                        totals[side].add(judge(n, past, found))
                chosen = proposals[driver]
                if chosen is None:
                    break
                past.append(Played(chosen, tuple(outcome(rng) for _ in chosen.pairs)))
    return totals, seconds


@click.command()
@click.option("--quick", is_flag=True, help="16 and 33 players, 2 seeds: a smoke check.")
@click.option("--seeds", type=int, help="Events per field size (default 5, quick 2).")
@click.option("--sizes", help="Field sizes, comma-separated (default 16,33,64,100).")
def main(quick: bool, seeds: int | None, sizes: str | None) -> None:
    """Print pbem's pairing figures beside FIDE Dutch's, per field size."""
    if importlib.util.find_spec("py4swiss") is None:
        del SIDES["FIDE Dutch"]
        click.echo("py4swiss is not installed (pip install -e '.[bench]'): pbem's figures "
                   "only, nothing to compare them with", err=True)
    seeds = seeds or (2 if quick else 5)
    fields_ = [int(s) for s in sizes.split(",")] if sizes else (
        [16, 33] if quick else [16, 33, 64, 100])
    cases = [(n, n.bit_length() + 2) for n in fields_] + [(9, 8)]
    worse = []
    click.echo("| players | rounds | side | rematches | cross-group pairs | score difference | "
               "three in a row | beyond 2 | byes up | rounds unpaired | seconds |")
    click.echo("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, rounds in cases:
        totals, seconds = measure(n, rounds, seeds)
        ours, theirs = totals["pbem"], totals.get("FIDE Dutch", totals["pbem"])
        for name, f in totals.items():
            took = seconds[name]
            click.echo(f"| {n} | {rounds} | {name} | {f.rematches} | {f.cross_group} | "
                       f"{f.score_difference:g} | {f.three_in_a_row} | {f.beyond_2} | "
                       f"{f.byes_up} | {f.rounds_unpaired} | {took:.1f} |")
        worse += [f"{n} players: {f.name} {getattr(ours, f.name):g} against "
                  f"{getattr(theirs, f.name):g}" for f in fields(Figures)
                  if getattr(ours, f.name) > getattr(theirs, f.name)]
        if ours.rematches:
            worse.append(f"{n} players: {ours.rematches} rematches")
    click.echo("\n| rolling Swiss, 16 players, 6 games, 2 at once | rematches | games | rate |")
    click.echo("|---|---:|---:|---:|")
    for version in (1, 2):
        again, played = rolling_rate(f"pbem-rolling-swiss-pairs/{version}", seeds)
        click.echo(f"| pairing version {version} | {again} | {played} | {again / played:.0%} |")
    click.echo(f"\n{seeds} seeds per size. " + (
        "Target met: no figure worse than FIDE Dutch, no rematch." if not worse
        else "Worse than the reference: " + "; ".join(worse)))


if __name__ == "__main__":
    main()
