"""State rebuild time for games of 100, 1,000 and 10,000 events, with and without snapshots.

Usage: python bench/bench_rebuild.py [--quick] [--repeat N] [--dir PATH]

The games are Martian Frisby with no turn limit, played through the service layer
(pbem.play.act.act, the same call a submission makes) with random legal moves that do not
win, so that they last as long as wanted; snapshots are written as the app writes them.
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
from sqlalchemy import func, select
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.bench_submit import services_on  # noqa: E402
from pbem.log import (
    snapshots,  # noqa: E402
    )
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


def time_rebuild(svc: Services, game_id: int, repeat: int) -> tuple[float, int, Any]:
    """The median seconds of snapshots.rebuild in a fresh session, the head and the state."""
    times = []
    state = None
    head = -1
    for _ in range(repeat):
        with svc.db.read() as session:
            game = session.get(Game, game_id)
            assert game is not None
            started = time.perf_counter()
            _, state = snapshots.rebuild(session, game)
            times.append(time.perf_counter() - started)
            head = game.head_seq
    return statistics.median(times), head, state


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
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the database goes (default: a temporary directory).",
)
def main(quick: bool, repeat: int | None, seed: int, folder: Path | None) -> None:
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
                cached, head, with_snapshots = time_rebuild(svc, game_id, repeat)
                count, newest = snapshots_of(svc, game_id)
                rows.append([head + 1, count, head - newest, cached])
                svc.write(lambda s, g=game_id: snapshots.drop_snapshots(s, s.get(Game, g)))
                replayed, _, without = time_rebuild(svc, game_id, repeat)
                if rules.dump(with_snapshots) != rules.dump(without):
                    raise SystemExit(f"game of {size}: the snapshot state differs from replay")
                rows[-1].append(replayed)
        finally:
            svc.db.dispose()
    report(rows, built, repeat)


def report(rows: list[list[Any]], built: float, repeat: int) -> None:
    """Print the table and the ratio of the longest game's rebuild to the shortest's."""
    click.echo(f"built {sum(r[0] for r in rows):,} events in {built:.1f}s; median of {repeat}")
    head = ("events", "snapshots", "replayed", "with snapshots", "replay all", "speedup")
    click.echo("{:>8}  {:>9}  {:>8}  {:>14}  {:>12}  {:>8}".format(*head))
    for events, kept, after, cached, replayed in rows:
        click.echo(
            f"{events:>8,}  {kept:>9}  {after:>8}  {cached * 1000:>11.2f} ms"
            f"  {replayed * 1000:>9.2f} ms  {replayed / cached:>7.1f}x"
        )
    first, last = rows[0], rows[-1]
    ratio = last[3] / first[3]
    flat = "OK" if ratio <= 1.5 else "NOT FLAT"
    click.echo(
        f"ratio {last[0]:,}-event / {first[0]:,}-event rebuild with snapshots: {ratio:.2f} "
        f"(target: flat, close to 1) {flat}"
    )
    click.echo(f"the same ratio without snapshots: {last[4] / first[4]:.1f}")
    click.echo("(replayed: events folded after the newest snapshot)")


if __name__ == "__main__":
    main()
