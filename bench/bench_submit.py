"""Move submissions per second through the service layer, against `eventsourcing`.

Usage: python bench/bench_submit.py [--quick] [--submissions N] [--dir PATH]

The baseline is what a user would otherwise pick for the job: the `eventsourcing`
library's own loop (load the aggregate from its events, trigger one event, save) with its
SQLite persistence, for a game of the same length, in the same directory. Raw single-row
SQLite commits are printed as well, to show what an fsync costs on this disk. All sides
run on files in WAL mode with synchronous=FULL, so each pays one fsync per commit.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import click
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.config import load_settings  # noqa: E402
from pbem.db import migrate  # noqa: E402
from pbem.links import MoveGrant  # noqa: E402
from pbem.log.games import load  # noqa: E402
from pbem.play.act import submit  # noqa: E402
from pbem.play.start import start_game  # noqa: E402
from pbem.services import Services  # noqa: E402
from pbem.web.app import create_app  # noqa: E402

PLAYERS = [("south@example.org", "South"), ("north@example.org", "North")]


def services_on(folder: Path) -> Services:
    """The app's services on a fresh, migrated SQLite file in `folder`."""
    settings = load_settings(
        {"PBEM_INSTANCE_PATH": str(folder / "instance"),
         "PBEM_SECRET_KEY": "the benchmark key: 32 bytes or longer"}
    )
    settings = replace(settings, database_url=f"sqlite:///{folder / 'pbem.db'}")
    app = create_app({"SETTINGS": settings})
    svc: Services = app.extensions["pbem"]
    migrate.upgrade(svc.db.engine)
    return svc


def new_game(svc: Services) -> str:
    """Start a Martian Frisby game; return its public id."""
    loaded = svc.write(lambda s: start_game(s, svc.ctx, "martian-frisby", PLAYERS))
    return loaded.game.public_id


def next_move(svc: Services, public_id: str) -> tuple[MoveGrant, str] | None:
    """The awaited seat's grant and the house bot's move, or None when the game is over."""
    with svc.db.read() as session:
        loaded = load(session, public_id)
        awaited = loaded.awaited()
        if not awaited:
            return None
        seat = awaited[0]
        return loaded.grant(seat), loaded.rules.bot_action(loaded.state, seat)


@dataclass
class Spent:
    """Time spent inside timed blocks: wall clock, and this thread's CPU time."""

    wall: float = 0.0
    cpu: float = 0.0

    def __enter__(self) -> None:
        self._started = (time.perf_counter(), time.thread_time())

    def __exit__(self, *_: object) -> None:
        wall, cpu = self._started
        self.wall += time.perf_counter() - wall
        self.cpu += time.thread_time() - cpu

    def add(self, other: Spent) -> None:
        """Count another measurement's time too."""
        self.wall += other.wall
        self.cpu += other.cpu


class Player:
    """Plays bot moves through play.submit, one game after another."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.public_id = new_game(svc)
        self.games = 1

    def submit(self, count: int) -> Spent:
        """Submit `count` moves; return the time spent inside the submissions."""
        svc = self.svc
        spent = Spent()
        for _ in range(count):
            move = next_move(svc, self.public_id)
            while move is None:
                self.public_id = new_game(svc)
                self.games += 1
                move = next_move(svc, self.public_id)
            grant, action = move
            with spent:
                svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
        return spent


class Moves(Aggregate):
    """A game as a bare event-sourced aggregate: the moves, in order."""

    @event("Started")
    def __init__(self, kind: str, players: list[str]) -> None:
        self.kind = kind
        self.players = players
        self.moves: list[tuple[int, str]] = []

    @event("Moved")
    def move(self, seat: int, action: str) -> None:
        self.moves.append((seat, action))


class EventSourced:
    """The library's load, trigger, save loop on its SQLite persistence."""

    def __init__(self, path: Path, game_length: int) -> None:
        env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
        self.app: Application = Application(env=env)
        self.game_length = game_length
        self.new_game()

    def new_game(self) -> None:
        game = Moves("martian-frisby", ["South", "North"])
        self.app.save(game)
        self.game_id = game.id
        self.length = 0

    def submit(self, count: int) -> Spent:
        """Append `count` moves, one load-trigger-save each; return the time spent."""
        spent = Spent()
        with spent:
            self.play(count)
        return spent

    def play(self, count: int) -> None:
        """Append `count` moves, one load-trigger-save each."""
        for _ in range(count):
            if self.length == self.game_length:
                self.new_game()
            game = self.app.repository.get(self.game_id)
            game.move(self.length % 2, f"move {self.length}")
            self.app.save(game)
            self.length += 1

    def close(self) -> None:
        """Close the library's connections."""
        self.app.close()


class RawTable:
    """A trivial table on its own connection, at the same WAL and synchronous setting."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        self.rows = 0

    def commit(self, count: int) -> float:
        """Insert `count` rows, one INSERT and COMMIT each; return the seconds spent."""
        started = time.perf_counter()
        for _ in range(count):
            self.rows += 1
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute("INSERT INTO t (v) VALUES (?)", (f"row {self.rows}",))
            self.conn.execute("COMMIT")
        return time.perf_counter() - started

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()


@click.command()
@click.option("--quick", is_flag=True, help="A short run (200 submissions).")
@click.option("--submissions", "count", type=int, help="How many moves to submit.")
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the databases go (default: a temporary directory).",
)
def main(quick: bool, count: int | None, folder: Path | None) -> None:
    """Measure submissions/s against the eventsourcing loop (and raw commits/s)."""
    count = count or (200 if quick else 2000)
    blocks = 10
    with tempfile.TemporaryDirectory(prefix="pbem-bench-", dir=folder) as tmp:
        where = Path(tmp)
        svc = services_on(where)
        raw = RawTable(where / "raw.db")
        spent, es_spent, raw_spent = Spent(), Spent(), 0.0
        try:
            player = Player(svc)  # also warms up imports, templates and the connection
            length = game_length(svc)
            library = EventSourced(where / "eventsourcing.db", length)
            # Alternate blocks, so that a busy disk or CPU slows every side alike.
            with click.progressbar(range(blocks), label="submissions", file=sys.stderr) as bar:
                for block in bar:
                    size = count // blocks + (block < count % blocks)
                    raw_spent += raw.commit(size)
                    es_spent.add(library.submit(size))
                    spent.add(player.submit(size))
            library.close()
        finally:
            raw.close()
            svc.db.dispose()
    report(count, spent, player.games, es_spent, length, raw_spent)


def game_length(svc: Services) -> int:
    """The number of moves in one house-bot Martian Frisby game, played here and now."""
    public_id = new_game(svc)
    moves = 0
    while (move := next_move(svc, public_id)) is not None:
        grant, action = move
        svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
        moves += 1
    return moves


def verdict(met: bool) -> str:
    """OK, or say that the target is not met."""
    return "OK" if met else "BELOW TARGET"


def report(count: int, spent: Spent, games: int, library: Spent, length: int, raw: float) -> None:
    """Print the figures and the ratio against the target."""
    per_second = count / spent.wall
    library_per_second = count / library.wall
    ratio = per_second / library_per_second
    rows: list[tuple[str, Any]] = [
        ("submissions", f"{count} in {games} games"),
        ("submissions/s (play.submit in Services.write)", f"{per_second:,.0f}"),
        (f"eventsourcing/s (get, trigger, save; games of {length})", f"{library_per_second:,.0f}"),
        ("raw commits/s (sqlite3, one INSERT + COMMIT)", f"{count / raw:,.0f}"),
        ("mean submission", f"{spent.wall / count * 1000:.2f} ms"),
        ("mean eventsourcing round", f"{library.wall / count * 1000:.2f} ms"),
        ("mean raw commit", f"{raw / count * 1000:.2f} ms"),
        ("CPU per submission / per eventsourcing round",
         f"{spent.cpu / count * 1000:.2f} ms / {library.cpu / count * 1000:.2f} ms"),
        ("CPU ratio (steadier on a busy machine)", f"{library.cpu / spent.cpu:.2f}"),
        ("ratio to eventsourcing (target >= 1.0)", f"{ratio:.2f} {verdict(ratio >= 1)}"),
    ]
    width = max(len(name) for name, _ in rows)
    click.echo(f"SQLite {sqlite3.sqlite_version}, WAL, synchronous=FULL")
    for name, value in rows:
        click.echo(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
