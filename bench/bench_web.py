"""The web tier under load: gunicorn workers on PostgreSQL, moves against a static GET.

Usage: python bench/bench_web.py [--quick] [--workers W] [--seconds S] [--postgres URL]

A fresh PostgreSQL database (created here and dropped afterwards, on the server named by
--postgres or PBEM_TEST_POSTGRES_URL) is migrated and given one Martian Frisby game per
client. `gunicorn -w W wsgi:app` serves it on 127.0.0.1. For K = 1, 8 and 32 concurrent
clients, each client plays its own game for S seconds through the JSON API, as a bot
would: `GET /api/play/<token>` for the seat whose turn it is, then `POST /api/play/<token>`
with the first legal action (only the POSTs are timed). The baseline is K clients doing
`GET /healthz` on the same server for the same time. Printed per K: moves/s, static
GETs/s, their ratio (target >= 0.25), p50 and p99 of a move (target: p99 < 50 ms at K = 8),
5xx answers (target: none), and whether every acknowledged move is in the log afterwards.
Every client is bounded in time and talks to 127.0.0.1 only.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.config import load_settings  # noqa: E402
from pbem.db import migrate  # noqa: E402
from pbem.models import Event, Game  # noqa: E402
from pbem.play.start import start_game  # noqa: E402
from pbem.services import Services  # noqa: E402
from pbem.web.app import create_app  # noqa: E402

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Database:
    """A PostgreSQL database of its own, dropped on close."""

    def __init__(self, server_url: str) -> None:
        self.server = make_url(server_url)
        self.name = f"pbem_bench_{os.getpid()}_{secrets.token_hex(3)}"
        self.admin = create_engine(self.server, isolation_level="AUTOCOMMIT")
        with self.admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{self.name}"'))
        self.url = self.server.set(database=self.name).render_as_string(hide_password=False)

    def close(self) -> None:
        """Drop the database (its connections first)."""
        with self.admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        self.admin.dispose()


def environment(db_url: str, instance: Path, port: int) -> dict[str, str]:
    """The PBEM_* settings shared by this process and the gunicorn workers."""
    return {
        "PBEM_DATABASE_URL": db_url,
        "PBEM_SECRET_KEY": "bench-web-" + secrets.token_hex(8),
        "PBEM_INSTANCE_PATH": str(instance),
        "PBEM_BASE_URL": f"http://127.0.0.1:{port}",
    }


def prepare(env: dict[str, str], games: int) -> tuple[Services, list[dict[int, str]]]:
    """Migrate, start `games` two-player games; each game's move tokens by seat."""
    app = create_app({"SETTINGS": load_settings(env)})
    svc: Services = app.extensions["pbem"]
    migrate.upgrade(svc.db.engine)
    tokens = []
    with click.progressbar(range(games), label="starting games", file=sys.stderr) as bar:
        for i in bar:
            players = [(f"s{i}@example.org", f"South {i}"), (f"n{i}@example.org", f"North {i}")]
            loaded = svc.write(lambda s, p=players: start_game(s, svc.ctx, "martian-frisby", p))
            tokens.append({seat: svc.signer.move_token(loaded.grant(seat)) for seat in (0, 1)})
    return svc, tokens


@dataclass
class Tally:
    """What the clients of one run saw."""

    latencies: list[float] = field(default_factory=list)
    done: int = 0
    server_errors: int = 0
    other: dict[int, int] = field(default_factory=dict)
    acknowledged: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def status(self, code: int) -> None:
        with self.lock:
            if code >= 500:
                self.server_errors += 1
            elif code >= 400:
                self.other[code] = self.other.get(code, 0) + 1


def call(port: int, method: str, path: str, payload: Any = None) -> tuple[int, Any]:
    """One request on a new connection (gunicorn's sync workers close after each)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        body = json.dumps(payload) if payload is not None else None
        headers = {"Content-Type": "application/json"} if body else {}
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        parsed = json.loads(data) if response.getheader("Content-Type", "").startswith(
            "application/json"
        ) else data
        return response.status, parsed
    finally:
        conn.close()


def play(port: int, pool: queue.Queue[dict[int, str]], until: float, tally: Tally) -> None:
    """Play games from the pool through the API, one after another, until the time is up."""
    while time.perf_counter() < until:
        try:
            tokens = pool.get_nowait()
        except queue.Empty:
            return
        play_one(port, tokens, until, tally)


def play_one(port: int, tokens: dict[int, str], until: float, tally: Tally) -> None:
    """Play one game until the time is up or the game ends."""
    while time.perf_counter() < until:
        turn = None
        for seat, token in tokens.items():
            code, seen = call(port, "GET", f"/api/play/{token}")
            tally.status(code)
            if code == 200 and seen["your_turn"] and seen["choices"]:
                turn = (seat, seen["token"], seen["choices"][0]["action"], seen["game"]["id"])
                break
        if turn is None:
            return  # the game is over (or the server refuses): this client stops
        seat, token, action, game = turn
        started = time.perf_counter()
        code, answer = call(port, "POST", f"/api/play/{token}", {"action": action})
        elapsed = time.perf_counter() - started
        tally.status(code)
        if code == 200 and "played" in answer:
            with tally.lock:
                tally.latencies.append(elapsed)
                tally.done += 1
                tally.acknowledged[game] = tally.acknowledged.get(game, 0) + 1
            tokens[seat] = answer["token"]


def fetch_static(port: int, until: float, tally: Tally) -> None:
    """GET /healthz until the time is up."""
    while time.perf_counter() < until:
        code, _ = call(port, "GET", "/healthz")
        tally.status(code)
        if code == 200:
            with tally.lock:
                tally.done += 1


def run(clients: list[Any], seconds: float) -> tuple[Tally, float]:
    """Run each client in its own thread for `seconds`; the tally and the wall time."""
    tally = Tally()
    until = time.perf_counter() + seconds
    threads = [threading.Thread(target=c, args=(until, tally)) for c in clients]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 60)
    return tally, time.perf_counter() - started


def moves_in_logs(svc: Services) -> dict[str, int]:
    """Each game's move events, counted in the database."""
    with svc.db.read() as session:
        query = (
            select(Game.public_id, func.count(Event.seq))
            .join(Event, Event.game_id == Game.id)
            .where(Event.kind == "move")
            .group_by(Game.public_id)
        )
        return {public_id: int(n) for public_id, n in session.execute(query)}


def wait_until_up(port: int, server: subprocess.Popen[bytes]) -> None:
    """Poll /healthz (at most 30 s); fail if the server died."""
    for _ in range(300):
        if server.poll() is not None:
            raise SystemExit(f"gunicorn stopped with {server.returncode}")
        try:
            if call(port, "GET", "/healthz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit("gunicorn did not answer on /healthz within 30 s")


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


@click.command()
@click.option("--quick", is_flag=True, help="Short runs (3 s per K instead of 10).")
@click.option("--workers", type=int, default=4, show_default=True, help="gunicorn workers.")
@click.option("--seconds", type=float, help="How long each K runs.")
@click.option("--postgres", help="A PostgreSQL server URL (default: PBEM_TEST_POSTGRES_URL).")
def main(quick: bool, workers: int, seconds: float | None, postgres: str | None) -> None:
    """Measure moves through gunicorn on PostgreSQL against a static GET."""
    seconds = seconds or (3.0 if quick else 10.0)
    server_url = postgres or os.environ.get("PBEM_TEST_POSTGRES_URL") or DEFAULT_POSTGRES
    levels = (1, 8, 32)
    database = Database(server_url)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="pbem-bench-web-") as tmp:
        env = environment(database.url, Path(tmp), port)
        # Enough games that no client runs out (a bot game of Martian Frisby is ~30 moves).
        svc, tokens = prepare(env, int(40 * seconds) + 2 * sum(levels))
        pool: queue.Queue[dict[int, str]] = queue.Queue()
        for game in tokens:
            pool.put(game)
        command = [
            sys.executable, "-m", "gunicorn", "-w", str(workers), "-b", f"127.0.0.1:{port}",
            "--log-level", "warning", "wsgi:app",
        ]  # fmt: skip
        server = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **env})
        try:
            wait_until_up(port, server)
            rows = []
            with click.progressbar(levels, label="load levels", file=sys.stderr) as bar:
                for k in bar:
                    moves, moves_wall = run(
                        [lambda u, t: play(port, pool, u, t) for _ in range(k)], seconds
                    )
                    static, static_wall = run(
                        [lambda u, t: fetch_static(port, u, t) for _ in range(k)], seconds
                    )
                    rows.append((k, moves, moves_wall, static, static_wall))
            logged = moves_in_logs(svc)
        finally:
            server.terminate()
            server.wait(timeout=30)
            svc.db.dispose()
            database.close()
    report(rows, logged, workers)


def report(rows: list[Any], logged: dict[str, int], workers: int) -> None:
    """Print one line per K and whether every acknowledged move is in its log."""
    click.echo(f"gunicorn -w {workers} (sync workers), PostgreSQL, 127.0.0.1")
    click.echo("   K   moves/s  static/s  ratio   p50 ms   p99 ms   5xx  4xx  moves in log")
    for k, moves, moves_wall, static, static_wall in rows:
        ratio = (moves.done / moves_wall) / (static.done / static_wall)
        acknowledged = sum(moves.acknowledged.values())
        missing = sum(
            max(0, n - logged.get(game, 0)) for game, n in moves.acknowledged.items()
        )
        p50 = statistics.median(moves.latencies) * 1000 if moves.latencies else float("nan")
        p99 = percentile(moves.latencies, 99) if moves.latencies else float("nan")
        click.echo(
            f"{k:>4} {moves.done / moves_wall:>9.1f} {static.done / static_wall:>9.1f} "
            f"{ratio:>6.2f} {p50:>8.1f} {p99:>8.1f} {moves.server_errors + static.server_errors:>5}"
            f" {sum(moves.other.values()):>4}  {acknowledged - missing}/{acknowledged}"
        )
    click.echo("targets: ratio >= 0.25; p99 < 50 ms at K = 8; no 5xx; every move in its log")


if __name__ == "__main__":
    main()
