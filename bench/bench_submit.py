"""Move submissions per second through the service layer, against raw SQLite commits.

Usage: python bench/bench_submit.py [--quick] [--submissions N] [--dir PATH]

Both sides run on a file database in the same directory, in WAL mode with
synchronous=FULL (as pbem configures SQLite), so both pay one fsync per commit.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

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
        {"PBEM_INSTANCE_PATH": str(folder / "instance"), "PBEM_SECRET_KEY": "bench"}
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


class Player:
    """Plays bot moves through play.submit, one game after another."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.public_id = new_game(svc)
        self.games = 1

    def submit(self, count: int) -> float:
        """Submit `count` moves; return the seconds spent inside the submissions."""
        svc = self.svc
        spent = 0.0
        for _ in range(count):
            move = next_move(svc, self.public_id)
            while move is None:
                self.public_id = new_game(svc)
                self.games += 1
                move = next_move(svc, self.public_id)
            grant, action = move
            started = time.perf_counter()
            svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
            spent += time.perf_counter() - started
        return spent


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
    """Measure submissions/s against raw single-row commits/s."""
    count = count or (200 if quick else 2000)
    blocks = 10
    with tempfile.TemporaryDirectory(prefix="pbem-bench-", dir=folder) as tmp:
        where = Path(tmp)
        svc = services_on(where)
        raw = RawTable(where / "raw.db")
        spent = raw_spent = 0.0
        try:
            player = Player(svc)  # also warms up imports, templates and the connection
            # Alternate blocks, so that a busy disk or CPU slows both sides alike.
            with click.progressbar(range(blocks), label="submissions", file=sys.stderr) as bar:
                for block in bar:
                    size = count // blocks + (block < count % blocks)
                    raw_spent += raw.commit(size)
                    spent += player.submit(size)
        finally:
            raw.close()
            svc.db.dispose()
    report(count, spent, player.games, raw_spent)


def report(count: int, spent: float, games: int, raw: float) -> None:
    """Print the figures and the ratio against the target."""
    per_second = count / spent
    raw_per_second = count / raw
    ratio = per_second / raw_per_second
    rows: list[tuple[str, Any]] = [
        ("submissions", f"{count} in {games} games"),
        ("submissions/s (play.submit in Services.write)", f"{per_second:,.0f}"),
        ("raw commits/s (sqlite3, one INSERT + COMMIT)", f"{raw_per_second:,.0f}"),
        ("mean submission", f"{spent / count * 1000:.2f} ms"),
        ("mean raw commit", f"{raw / count * 1000:.2f} ms"),
        ("ratio (target >= 0.5)", f"{ratio:.2f} {'OK' if ratio >= 0.5 else 'BELOW TARGET'}"),
    ]
    width = max(len(name) for name, _ in rows)
    click.echo(f"SQLite {sqlite3.sqlite_version}, WAL, synchronous=FULL")
    for name, value in rows:
        click.echo(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
