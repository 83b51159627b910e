"""Tournament core: a rolling-Swiss pairing tick for 1,000 players, and a standings rebuild.

Usage: python bench/bench_tournament.py [--quick] [--repeat N] [--seed N]

(a) One rolling-Swiss tick of Martian Dice tables of 4 with 1,000 free players who have
played 3 games each: `formats.plan` on the folded log (history, points, table sizes,
the seating search, the inputs hash). The baseline, measured in the same run, is a bare
`networkx.max_weight_matching` on the graph the two-player pairing would build for the
same players in the same standing order (same nodes and edges). Target: at most 2x.

(b) A standings rebuild: `fold` of the whole log plus `standings` for 1,000 players and
5,000 results (tables of 4; then the same with two-player games). Target: under 100 ms.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import click
import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.tournaments.core import pairing  # noqa: E402
from pbem.tournaments.core.fold import fold  # noqa: E402
from pbem.tournaments.core.formats import plan  # noqa: E402
from pbem.tournaments.core.history import history  # noqa: E402
from pbem.tournaments.core.model import Event, Tournament  # noqa: E402
from pbem.tournaments.core.standings import standings  # noqa: E402

T0 = datetime(2026, 3, 1, tzinfo=UTC)


class Builder:
    """A tournament log written directly (no planning), for setting a benchmark up."""

    def __init__(self, create: dict[str, Any]) -> None:
        self.events: list[Event] = []
        self.now = T0
        self.games = 0
        self.add("create", {"name": "Bench", "kind": "martian-dice", "director": "d", **create})

    def add(self, kind: str, payload: dict[str, Any]) -> None:
        """Append an event a minute after the last one."""
        self.now += timedelta(minutes=1)
        self.events.append(Event(len(self.events), kind, payload, self.now))

    def entrants(self, players: list[str]) -> None:
        """Register and start these players."""
        for player in players:
            self.add("register", {"player": player, "name": player.upper(), "rating": None})
        self.add("start", {"entrants": players})

    def round(self, round_: int | None, players: list[str], size: int, rng: random.Random) -> None:
        """Pair random tables of `size` and give every game a random result."""
        rng.shuffle(players)
        tables = [players[i:i + size] for i in range(0, len(players) - size + 1, size)]
        games = []
        for seats in tables:
            self.games += 1
            games.append({"game": f"g{self.games}", "seats": list(seats)})
        self.add("pair", {"round": round_, "tables": games, "byes": [], "inputs": "0" * 64,
                          "algorithm": "bench/1"})
        for game in games:
            ranks = list(range(1, size + 1))
            rng.shuffle(ranks)
            self.add("result", {"game": game["game"], "ranks": ranks, "scores": None,
                                "flags": [], "finished_at": self.now.isoformat(),
                                "head": "ab" * 32})


def timed(action: Callable[[], Any], repeat: int) -> list[tuple[float, float]]:
    """Return the wall-clock and CPU seconds each of `repeat` calls took."""
    times = []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return times


def median(times: list[tuple[float, float]]) -> tuple[float, float]:
    """Return the median wall-clock and CPU seconds."""
    return statistics.median(w for w, _ in times), statistics.median(c for _, c in times)


def rolling_tick(players: int, seed: int) -> Tournament:
    """A rolling Swiss of tables of 4 after 3 games each, everyone free again."""
    rng = random.Random(seed)
    build = Builder({"system": "rolling-swiss", "table_sizes": [4], "games_per_player": 10,
                     "max_concurrent": 1, "pair_min_free": 4})
    field = [f"p{i:04d}" for i in range(players)]
    build.entrants(field)
    for _ in range(3):
        build.round(None, list(field), 4, rng)
    return fold(build.events)


def rebuild_log(players: int, results: int, size: int, seed: int) -> list[Event]:
    """A Swiss log with `results` finished games of `size` players."""
    rng = random.Random(seed)
    per_round = players // size
    rounds = -(-results // per_round)
    build = Builder({"system": "swiss", "table_sizes": [size], "rounds": rounds})
    field = [f"p{i:04d}" for i in range(players)]
    build.entrants(field)
    for r in range(rounds):
        build.round(r + 1, list(field), size, rng)
    return build.events


@click.command()
@click.option("--quick", is_flag=True, help="Fewer repetitions.")
@click.option("--repeat", type=int, help="Measurements per figure (the median is shown).")
@click.option("--seed", default=1, show_default=True, help="Seed of the random results.")
def main(quick: bool, repeat: int | None, seed: int) -> None:
    """Measure a pairing tick against bare matching, and a standings rebuild."""
    repeat = repeat or (3 if quick else 7)
    click.echo("building a rolling Swiss of 1,000 players after 3 games each...", err=True)
    t = rolling_tick(1000, seed)
    h = history(t)
    order = h.by_standing(t.active())
    graph = pairing.pairing_graph(order, h, pairing.WINDOW)
    gc.collect()
    ticks, matchings = [], []
    with click.progressbar(range(repeat), label="tick vs matching", file=sys.stderr) as bar:
        for _ in bar:  # alternate, so that a busy machine slows both alike
            ticks += timed(lambda: plan(t, t.created_at + timedelta(days=30)), 1)
            matchings += timed(lambda: nx.max_weight_matching(graph, maxcardinality=True), 1)
    tick, matching = median(ticks), median(matchings)
    p = plan(t, t.created_at + timedelta(days=30))
    assert p is not None
    rows = []
    full: list[int] = []
    gc.callbacks.append(lambda phase, info: full.append(1)
                        if phase == "stop" and info["generation"] == 2 else None)
    for size in (4, 2):
        events = rebuild_log(1000, 5000, size, seed)
        gc.collect()  # start each series from a settled heap; collection stays on while timing
        folds = timed(lambda ev=events: fold(ev), repeat)
        full.clear()
        rebuilds = timed(lambda ev=events: standings(fold(ev)), repeat)
        rows.append((size, len(events), median(folds), median(rebuilds), len(full)))
    report(tick, matching, graph, p.tables, rows, repeat)


def report(tick: tuple[float, float], matching: tuple[float, float], graph: Any, tables: Any,
           rows: list[Any], repeat: int) -> None:
    """Print the raw figures (wall-clock, then CPU) and the ratios against the targets."""
    ratio = tick[0] / matching[0]
    click.echo(f"(a) rolling-Swiss tick, 1,000 free players, tables of 4, median of {repeat}")
    click.echo(f"    plan(): {ms(tick)} for {len(tables)} tables")
    click.echo(f"    bare max_weight_matching: {ms(matching)} "
               f"({graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges)")
    verdict = "OK" if ratio <= 2 else "NOT MET"
    click.echo(f"    ratio tick / matching: {ratio:.2f} wall, {tick[1] / matching[1]:.2f} CPU "
               f"(target <= 2) {verdict}")
    click.echo("(b) standings rebuild (fold + standings), 1,000 players, 5,000 results")
    for size, events, folded, rebuilt, full in rows:
        verdict = "OK" if rebuilt[0] < 0.1 else "NOT MET"
        click.echo(f"    tables of {size}: {events:,} events, fold {ms(folded)}, "
                   f"fold + standings {ms(rebuilt)} (target < 100 ms) {verdict}; "
                   f"{full} full garbage collections in {repeat} rebuilds")
    click.echo("    (times are wall-clock / CPU; CPU is this process only)")


def ms(times: tuple[float, float]) -> str:
    """Write wall-clock / CPU seconds as milliseconds."""
    return f"{times[0] * 1000:.0f} / {times[1] * 1000:.0f} ms"


if __name__ == "__main__":
    main()
