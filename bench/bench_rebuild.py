"""State rebuild time for games of 100, 1,000 and 10,000 events, with and without snapshots.

Usage: python bench/bench_rebuild.py [--quick] [--repeat N] [--intervals 5,10,...] [--dir PATH]

The games are Martian Frisby with no turn limit, played through the service layer
(pbem.play.act.act, the same call a submission makes) with random legal moves that do not
win, so that they last as long as wanted; snapshots are written as the app writes them.

Then the snapshot interval: on the 1,000-event game, a cold read with the newest snapshot
r events before the head, for every r below the largest interval, against a full replay;
an interval N leaves 0 to N-1 events after the newest snapshot, so its cold read is the
mean of those (a head anywhere between two snapshots) and at worst the one at r = N-1.
Its write cost per move is what one snapshot write costs, times the snapshots a move makes
(the game's events per move over N).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import click
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.bench_submit import services_on  # noqa: E402
from pbem.log import snapshots, store  # noqa: E402
from pbem.log.games import load  # noqa: E402
from pbem.models import Game, Snapshot  # noqa: E402
from pbem.play.act import act  # noqa: E402
from pbem.play.start import start_game  # noqa: E402
from pbem.services import Services  # noqa: E402

SIZES = (100, 1_000, 10_000)
QUICK_SIZES = (100, 1_000, 3_000)
PLAYERS = [("south@example.org", "South"), ("north@example.org", "North")]
BATCH = 250  # moves per transaction while building


def start(session: Session, svc: Services) -> int:
    """A Frisby game without a turn limit whose players want no mail; its row id."""
    loaded = start_game(session, svc.ctx, "martian-frisby", PLAYERS, options={"max_turns": 0})
    for seat in loaded.game.seats:
        seat.player.mail_pref = "none"
    return loaded.game.id


def non_winning(rules: engine.Rules[Any], state: Any, seat: int, rng: random.Random) -> str:
    """A random legal turn that does not end the game (any legal turn if all of them do)."""
    legal = list(rules.legal(state, seat))
    rng.shuffle(legal)
    for action in legal:
        after = engine.step(rules, state, engine.Played(seat, action))
        if not isinstance(rules.pending(after), engine.Finished):
            return action
    return legal[0]


def extend(session: Session, svc: Services, game_id: int, moves: int, rng: random.Random) -> int:
    """Play up to `moves` turns of a game through the service; return its event count."""
    game = session.get(Game, game_id)
    assert game is not None
    loaded = load(session, game.public_id, for_update=True)
    for _ in range(moves):
        awaited = loaded.awaited()
        if not awaited:
            break
        action = non_winning(loaded.rules, loaded.state, awaited[0], rng)
        act(session, svc.ctx, loaded, awaited[0], action, nonce=None)
    return loaded.game.head_seq + 1


def build(svc: Services, sizes: tuple[int, ...], seed: int) -> dict[int, int]:
    """Games of at least each size in events: size -> game row id."""
    rng = random.Random(seed)
    games: dict[int, int] = {}
    with click.progressbar(length=sum(sizes), label="building games", file=sys.stderr) as bar:
        for size in sizes:
            while size not in games:
                game_id = svc.write(lambda s: start(s, svc))
                events = 3
                bar.update(events)
                while events < size:
                    moves = min(BATCH, (size - events + 1) // 2)
                    grown = svc.write(lambda s, g=game_id, m=moves: extend(s, svc, g, m, rng))
                    if grown == events:
                        break  # the game ended early (only winning turns were left)
                    bar.update(min(grown, size) - min(events, size))
                    events = grown
                if events >= size:
                    games[size] = game_id
    return games


def time_rebuild(
    svc: Services, game_id: int, repeat: int, cpu: list[float] | None = None
) -> tuple[float, int, Any]:
    """The median seconds of snapshots.rebuild in a fresh session, the head and the state.

    The median CPU seconds (this thread's clock) are appended to `cpu` if given.
    """
    times, cpu_times = [], []
    state = None
    head = -1
    for _ in range(repeat):
        with svc.db.read() as session:
            game = session.get(Game, game_id)
            assert game is not None
            started, started_cpu = time.perf_counter(), time.thread_time()
            _, state = snapshots.rebuild(session, game)
            cpu_times.append(time.thread_time() - started_cpu)
            times.append(time.perf_counter() - started)
            head = game.head_seq
    if cpu is not None:
        cpu.append(statistics.median(cpu_times))
    return statistics.median(times), head, state


def only_snapshot(svc: Services, game_id: int, at: int | None, state: Any) -> None:
    """Leave the game one snapshot, of the state after event `at` (none if None)."""
    rules = engine.rules_for("martian-frisby")

    def write(session: Session) -> None:
        session.execute(delete(Snapshot).where(Snapshot.game_id == game_id))
        if at is not None:
            game = session.get(Game, game_id)
            assert game is not None
            snapshots.keep(session, game, at, rules, state)

    svc.write(write)


def states_of(svc: Services, game_id: int) -> tuple[dict[int, Any], int]:
    """The state after every event of a game (by seq), and how many moves it holds."""
    rules = engine.rules_for("martian-frisby")
    with svc.db.read() as session:
        game = session.get(Game, game_id)
        assert game is not None
        setup = store.load_setup(session, game)
        log = store.entries(session, game)
    state = rules.start(setup.seats, setup.options)
    states = {}
    for entry in log:
        state = store.fold(rules, setup, (entry,), state)
        states[entry.seq] = state
    return states, sum(entry.kind == "move" for entry in log)


def write_cost(svc: Services, game_id: int, state: Any, head: int, repeat: int) -> float:
    """The median CPU seconds of writing one snapshot (inside a write transaction)."""
    rules = engine.rules_for("martian-frisby")
    times = []
    for i in range(repeat):
        def write(session: Session, seq: int = head - i) -> None:
            game = session.get(Game, game_id)
            assert game is not None
            started = time.thread_time()
            snapshots.keep(session, game, seq, rules, state)
            session.flush()
            times.append(time.thread_time() - started)

        svc.write(write)
    return statistics.median(times)


def intervals_table(
    svc: Services, game_id: int, intervals: tuple[int, ...], repeat: int
) -> list[str]:
    """Cold reads by events after the newest snapshot, and what each interval implies."""
    states, moves = states_of(svc, game_id)
    head = max(states)
    only_snapshot(svc, game_id, None, None)
    full_cpu: list[float] = []
    full, _, _ = time_rebuild(svc, game_id, repeat, full_cpu)
    reads: list[tuple[float, float]] = []
    with click.progressbar(range(max(intervals)), label="cold reads", file=sys.stderr) as bar:
        for r in bar:
            only_snapshot(svc, game_id, head - r, states[head - r])
            cpu: list[float] = []
            wall, _, _ = time_rebuild(svc, game_id, repeat, cpu)
            reads.append((wall, cpu[0]))
    write = write_cost(svc, game_id, states[head], head, max(repeat, 15))
    per_move = (head + 1) / moves  # events a move makes (its dice with it)
    lines = [
        f"cold read of the {head + 1:,}-event game, full replay: {full * 1000:.2f} ms"
        f" ({full_cpu[0] * 1000:.2f} ms CPU); by events after the newest snapshot (r):"
        f" r=0 {reads[0][1] * 1000:.3f} ms CPU, r=1 {reads[1][1] * 1000:.3f},"
        f" r={len(reads) - 1} {reads[-1][1] * 1000:.3f}",
        f"one snapshot write: {write * 1000:.3f} ms CPU; {per_move:.2f} events a move",
        "{:>8}  {:>16}  {:>16}  {:>14}  {:>14}  {:>16}".format(
            "interval", "mean read (CPU)", "worst read (CPU)", "speedup mean",
            "speedup worst", "write per move"),
    ]
    for n in intervals:
        mean_wall = statistics.mean(wall for wall, _ in reads[:n])
        mean_cpu = statistics.mean(cpu for _, cpu in reads[:n])
        worst_wall, worst_cpu = reads[n - 1]
        lines.append(
            f"{n:>8}  {mean_cpu * 1000:>13.3f} ms  {worst_cpu * 1000:>13.3f} ms"
            f"  {full / mean_wall:>5.1f}x / {full_cpu[0] / mean_cpu:>4.1f}x"
            f"  {full / worst_wall:>5.1f}x / {full_cpu[0] / worst_cpu:>4.1f}x"
            f"  {write * per_move / n * 1000:>13.3f} ms"
        )
    lines.append("(speedups: wall / CPU; the app writes every "
                 f"{snapshots.SNAPSHOT_EVERY} events)")
    return lines


def snapshots_of(svc: Services, game_id: int) -> tuple[int, int]:
    """How many snapshots a game has, and the seq of the newest."""
    with svc.db.read() as session:
        query = select(func.count(), func.max(Snapshot.seq)).where(Snapshot.game_id == game_id)
        count, newest = session.execute(query).one()
        return int(count), int(newest or 0)


@click.command()
@click.option("--quick", is_flag=True, help="Games of 100, 1,000 and 3,000 events.")
@click.option("--repeat", type=int, help="Rebuilds per measurement (the median is shown).")
@click.option("--seed", default=1, show_default=True, help="Seed of the random moves.")
@click.option(
    "--intervals",
    default="5,10,25,50,100",
    show_default=True,
    help="Snapshot intervals to weigh on the 1,000-event game.",
)
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the database goes (default: a temporary directory).",
)
def main(
    quick: bool, repeat: int | None, seed: int, intervals: str, folder: Path | None
) -> None:
    """Measure rebuild times with snapshots against the same rebuild without them."""
    sizes = QUICK_SIZES if quick else SIZES
    repeat = repeat or (5 if quick else 21)
    rules = engine.rules_for("martian-frisby")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-", dir=folder) as tmp:
        svc = services_on(Path(tmp))
        try:
            started = time.perf_counter()
            games = build(svc, sizes, seed)
            built = time.perf_counter() - started
            rows = []
            for size, game_id in games.items():
                cpu: list[float] = []
                cached, head, with_snapshots = time_rebuild(svc, game_id, repeat, cpu)
                count, newest = snapshots_of(svc, game_id)
                rows.append([head + 1, count, head - newest, cached])
                svc.write(lambda s, g=game_id: snapshots.drop_snapshots(s, s.get(Game, g)))
                replayed, _, without = time_rebuild(svc, game_id, repeat, cpu)
                if rules.dump(with_snapshots) != rules.dump(without):
                    raise SystemExit(f"game of {size}: the snapshot state differs from replay")
                rows[-1].extend([replayed, *cpu])
            weighed = tuple(int(n) for n in intervals.split(","))
            table = intervals_table(svc, games[1_000], weighed, repeat)
        finally:
            svc.db.dispose()
    report(rows, built, repeat)
    for line in table:
        click.echo(line)


def report(rows: list[list[Any]], built: float, repeat: int) -> None:
    """Print the table and the ratio of the longest game's rebuild to the shortest's."""
    click.echo(f"built {sum(r[0] for r in rows):,} events in {built:.1f}s; median of {repeat}")
    head = ("events", "snapshots", "replayed", "with snapshots", "replay all", "speedup",
            "CPU: with", "replay all", "speedup")
    click.echo("{:>8}  {:>9}  {:>8}  {:>14}  {:>12}  {:>8}  {:>10}  {:>12}  {:>8}".format(*head))
    for events, kept, after, cached, replayed, cached_cpu, replayed_cpu in rows:
        click.echo(
            f"{events:>8,}  {kept:>9}  {after:>8}  {cached * 1000:>11.2f} ms"
            f"  {replayed * 1000:>9.2f} ms  {replayed / cached:>7.1f}x"
            f"  {cached_cpu * 1000:>7.2f} ms  {replayed_cpu * 1000:>9.2f} ms"
            f"  {replayed_cpu / cached_cpu:>7.1f}x"
        )
    first, last = rows[0], rows[-1]
    ratio = last[5] / first[5]
    flat = "OK" if ratio <= 1.5 else "NOT FLAT"
    click.echo(
        f"ratio {last[0]:,}-event / {first[0]:,}-event rebuild with snapshots (CPU): {ratio:.2f} "
        f"(target: flat, close to 1) {flat}"
    )
    click.echo(f"the same ratio without snapshots: {last[6] / first[6]:.1f}")
    click.echo("(replayed: events folded after the newest snapshot)")


if __name__ == "__main__":
    main()
