"""The luck report's cost: the first figure in a fresh process, each game after, /audit/dice.

Usage: python bench/bench_luck.py [--quick] [--processes N] [--games N] [--before REV]

One Martian Dice game (2 seats, the house bot for both) is played to its end on a scratch
SQLite file. Then:

1. Luck. N fresh processes (`--processes`, default 5) each import the luck module, time
   the first `game_luck` of that game (which builds the table of turn odds), then the
   median of 20 more (the table is built), and the median of 20 replays of the same events
   through the engine: the baseline, a cost every game page pays anyway. The median over
   the processes is printed. `--before REV` also times the luck module as it was at a git
   revision (the face-count search), in the same way, for a before/after figure.
2. /audit/dice. The finished game's rows are copied to `--games` finished and revealed
   games (default 1,000), each copy's dice added to the running totals as a reveal adds
   them. Timed: reading and parsing every revealed roll (the baseline: what the page did
   before the totals were kept), reading the totals and testing them (what the page does),
   counting every game again (`pbem db recount-dice`), one more game copied and counted,
   and the page itself. Each is the median of 5.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from sqlalchemy import insert, select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


import engine  # noqa: E402
from pbem.config import load_settings  # noqa: E402
from pbem.db import migrate  # noqa: E402
from pbem.log import store, tally  # noqa: E402
from pbem.log.games import load  # noqa: E402
from pbem.luck.core import luck  # noqa: E402
from pbem.models import Event, Game  # noqa: E402
from pbem.play.start import start_game  # noqa: E402
from pbem.services import Services  # noqa: E402
from pbem.tournaments import simulate  # noqa: E402
from pbem.web.app import create_app  # noqa: E402

REPEAT = 20


def scratch_app(folder: Path) -> Any:
    """An app on a fresh, migrated SQLite file in folder."""
    base = load_settings({"PBEM_INSTANCE_PATH": str(folder / "instance")})
    app = create_app({"SETTINGS": replace(base, database_url=f"sqlite:///{folder / 'pbem.db'}")})
    migrate.upgrade(app.extensions["pbem"].db.engine)
    return app


def finished_game(svc: Services) -> str:
    """Play a 2-seat Martian Dice game to its end; return its public id."""
    players = [("ann@example.org", "Ann"), ("bob@example.org", "Bob")]
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martian-dice", players).game.public_id
    )
    simulate.play_out(svc, public_id)
    return public_id


def game_file(svc: Services, public_id: str, path: Path) -> None:
    """Write the game's setup and engine events as JSON for a child process."""
    with svc.db.read() as session:
        loaded = load(session, public_id)
        events = [store.engine_event(e) for e in store.entries(session, loaded.game)]
        setup = loaded.setup
    rows = [
        ["roll", list(e.values)] if isinstance(e, engine.Rolled) else ["move", e.seat, e.action]
        for e in events
        if isinstance(e, engine.Rolled | engine.Played)
    ]
    path.write_text(json.dumps({"seats": setup.seats, "options": setup.options, "events": rows}))


def child(path: Path, source: Path | None) -> None:
    """In a fresh process: time the first luck figure, then later ones, then replays."""
    if source is None:
        module: Any = luck
    else:
        spec = importlib.util.spec_from_file_location("luck_before", source)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    game = json.loads(path.read_text())
    events = [
        engine.Rolled(tuple(row[1])) if row[0] == "roll" else engine.Played(row[1], row[2])
        for row in game["events"]
    ]
    rules = engine.rules_for("martian-dice")

    def figure() -> Any:
        return module.game_luck("martian-dice", game["seats"], game["options"], events)

    def replay() -> Any:
        return engine.replay(rules, game["seats"], game["options"], events)

    start = time.perf_counter()
    figure()
    first = time.perf_counter() - start
    print(json.dumps({"first": first, "each": median_time(figure), "replay": median_time(replay)}))


def median_time(work: Callable[[], Any], repeat: int = REPEAT) -> float:
    """The median wall time of work over repeat runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def fresh_processes(path: Path, processes: int, source: Path | None) -> dict[str, float]:
    """The median of each figure over that many fresh child processes."""
    found: list[dict[str, float]] = []
    for _ in range(processes):
        command = [sys.executable, __file__, "--child", str(path)]
        if source is not None:
            command += ["--source", str(source)]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        found.append(json.loads(out.strip().splitlines()[-1]))
    return {name: statistics.median(f[name] for f in found) for name in found[0]}


def copy_game(svc: Services, public_id: str, copies: int) -> None:
    """Add copies of a finished game's rows under new ids, their dice counted as a reveal does."""
    with svc.db.write() as session:
        game = session.execute(select(Game.__table__).where(Game.public_id == public_id)).one()
        events = session.execute(select(Event.__table__).where(Event.game_id == game.id)).all()
        top = max(session.scalars(select(Game.id)))
        for n in range(1, copies + 1):
            row = dict(game._mapping, id=top + n, public_id=f"copy{top + n:06d}")
            session.execute(insert(Game.__table__), [row])
            session.execute(
                insert(Event.__table__),
                [dict(e._mapping, game_id=top + n) for e in events],
            )
            tally.count_game(session, top + n)


def full_read(svc: Services) -> tuple[luck.Fairness, ...]:
    """The baseline: read and parse every roll and shuffle of every revealed game."""
    with svc.db.read() as session:
        revealed = select(Event.game_id).where(Event.kind == "reveal")
        query = select(Event.kind, Event.payload).where(
            Event.kind.in_(("roll", "shuffle")), Event.game_id.in_(revealed)
        )
        rolls, shuffles = [], []
        for kind, text in session.execute(query):
            payload = json.loads(text)
            if kind == "roll":
                rolls.append((int(payload["sides"]), [int(v) for v in payload["values"]]))
            else:
                shuffles.append([int(v) for v in payload["order"]])
    return luck.fairness(rolls, shuffles)


def audit(svc: Services, app: Any, public_id: str, games: int) -> list[tuple[str, float]]:
    """Time the fairness counts over that many revealed games."""
    copy_game(svc, public_id, games - 1)
    client = app.test_client()

    def kept() -> Any:
        with svc.db.read() as session:
            return luck.fairness_of(*tally.by_size(tally.read(session)))

    def recount() -> Any:
        with svc.db.write() as session:
            return tally.recount(session)

    assert kept() == full_read(svc)
    baseline = median_time(lambda: full_read(svc), 5)
    read = median_time(kept, 5)
    again = median_time(recount, 5)
    page = median_time(lambda: client.get("/audit/dice"), 5)
    healthz = median_time(lambda: client.get("/healthz"), 5)
    one_more = []
    for _ in range(5):
        start = time.perf_counter()
        copy_game(svc, public_id, 1)
        one_more.append(time.perf_counter() - start)
    assert kept() == full_read(svc)
    return [
        (f"baseline: read and parse every revealed roll ({games:,} games)", baseline),
        ("the totals read and tested (what the page does)", read),
        ("pbem db recount-dice (every game read again)", again),
        ("one more game copied and counted, as a reveal counts it", statistics.median(one_more)),
        ("GET /audit/dice", page),
        ("GET /healthz, for scale", healthz),
    ]


def luck_source(revision: str) -> str:
    """The luck module at a git revision (pbem/ratings/luck.py before it moved)."""
    for path in ("pbem/luck/core/luck.py", "pbem/ratings/luck.py"):
        shown = subprocess.run(["git", "show", f"{revision}:{path}"], cwd=ROOT,
                               capture_output=True, text=True)
        if shown.returncode == 0:
            return shown.stdout
    raise click.ClickException(f"no luck module at {revision}")


@click.command()
@click.option("--quick", is_flag=True, help="3 processes and 200 games.")
@click.option("--processes", default=5, show_default=True)
@click.option("--games", default=1000, show_default=True)
@click.option("--before", "before", default=None, help="Also time luck.py at this git revision.")
@click.option("--child", "child_path", type=click.Path(path_type=Path), hidden=True)
@click.option("--source", type=click.Path(path_type=Path), hidden=True)
def main(
    quick: bool,
    processes: int,
    games: int,
    before: str | None,
    child_path: Path | None,
    source: Path | None,
) -> None:
    """Time the luck figures and the fairness counts."""
    if child_path is not None:
        child(child_path, source)
        return
    if quick:
        processes, games = 3, 200
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        app = scratch_app(folder)
        svc: Services = app.extensions["pbem"]
        public_id = finished_game(svc)
        path = folder / "game.json"
        game_file(svc, public_id, path)
        runs = [("now", None)]
        if before is not None:
            old = folder / "luck_before.py"
            old.write_text(luck_source(before))
            runs.insert(0, (f"at {before}", old))
        click.echo(f"Martian Dice luck, one game of {len(json.loads(path.read_text())['events'])}"
                   f" events, median of {processes} fresh processes:")
        for label, src in runs:
            f = fresh_processes(path, processes, src)
            click.echo(
                f"  {label:>12}: first figure {f['first'] * 1000:8.1f} ms"
                f" ({f['first'] / f['replay']:7.0f} x replay),"
                f" each after {f['each'] * 1000:6.2f} ms ({f['each'] / f['replay']:4.1f} x replay),"
                f" replay {f['replay'] * 1000:.2f} ms"
            )
        click.echo(f"/audit/dice over {games:,} finished games (median of 5):")
        for label, seconds in audit(svc, app, public_id, games):
            click.echo(f"  {label:<58} {seconds * 1000:9.2f} ms")


if __name__ == "__main__":
    main()
