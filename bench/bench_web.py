"""The web tier under load: gunicorn workers on PostgreSQL, moves against a static GET.

Usage: python bench/bench_web.py [--quick] [--workers W] [--threads T] [--sync] [--seconds S]
                                 [--postgres URL]

A fresh PostgreSQL database (created here and dropped afterwards, on the server named by
--postgres or PBEM_TEST_POSTGRES_URL) is migrated and given one Martian Frisby game per
client. gunicorn serves it on 127.0.0.1 with the repository's gunicorn.conf.py (threaded
workers; --workers, --threads and --sync override it). For K = 1, 8 and 32 concurrent
clients, each client plays its own game for S seconds through the JSON API, as a bot
would: `GET /api/play/<token>?words=0` for the seat whose turn it is (the seat the last
move's answer names as awaited), then `POST /api/play/<token>` with the first legal action
(only the POSTs are timed). The baseline is K clients doing `GET /healthz` on the same
server for the same time, in alternating blocks (3 in a quick run, else 5) so that other
jobs on the machine slow both alike. Each client keeps its HTTP/1.1 connection open while
the server does.
Printed per K: moves/s, static GETs/s, their ratio (target >= 0.25), p50 and p99 of a move
(target: p99 < 50 ms at K = 8), 5xx answers (target: none), whether every acknowledged move
is in the log afterwards, and the CPU each side used (these clients share the machine's
cores with the server and the database). Every client is bounded in time and talks to
127.0.0.1 only.
"""

from __future__ import annotations

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
        "PBEM_SECRET_KEY": "bench-web-" + secrets.token_hex(16),
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
    views: int = 0  # seat views fetched
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


class EmptyReply(ConnectionError):
    """The server closed a kept connection without answering."""


class Client:
    """One client's HTTP/1.1 connection to 127.0.0.1, kept open while the server keeps it.

    Lighter than `http.client` (which parses headers with the email package), so that the
    clients take less of the CPU they share with the server.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.reader: Any = None

    def close(self) -> None:
        """Close the connection, if open."""
        if self.sock is not None:
            self.reader.close()
            self.sock.close()
            self.sock = self.reader = None

    def call(self, method: str, path: str, payload: Any = None) -> tuple[int, Any]:
        """One request; its status and its body (parsed when it is JSON)."""
        body = json.dumps(payload).encode() if payload is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if payload is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        request = head.encode() + b"\r\n" + body
        if self.sock is not None:
            try:
                return self._exchange(request)
            except (EmptyReply, BrokenPipeError, ConnectionResetError):
                # The server closed the idle connection before reading: nothing was done.
                self.close()
        return self._exchange(request)

    def _exchange(self, request: bytes) -> tuple[int, Any]:
        if self.sock is None:
            self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.reader = self.sock.makefile("rb")
        try:
            self.sock.sendall(request)
            status = self.reader.readline()
            if not status:
                raise EmptyReply("the server closed the connection")
            length, keep, is_json = None, True, False
            while (line := self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"connection":
                    keep = value.strip().lower() != b"close"
                elif name == b"content-type":
                    is_json = value.strip().startswith(b"application/json")
                elif name == b"transfer-encoding":
                    raise SystemExit("chunked answers are not expected from this app")
            data = self.reader.read(length) if length is not None else self.reader.read()
        except BaseException:
            self.close()
            raise
        if length is None or not keep:
            self.close()
        return int(status[9:12]), json.loads(data) if is_json else data


def play(port: int, pool: queue.Queue[dict[int, str]], until: float, tally: Tally) -> None:
    """Play games from the pool through the API, one after another, until the time is up."""
    client = Client(port)
    try:
        while time.perf_counter() < until:
            try:
                tokens = pool.get_nowait()
            except queue.Empty:
                return
            if not play_one(client, tokens, until, tally):
                pool.put(tokens)  # unfinished: a client of the next block goes on with it
    finally:
        client.close()


def play_one(client: Client, tokens: dict[int, str], until: float, tally: Tally) -> bool:
    """Play one game until the time is up (False) or the game ends (True).

    The seats the last move's answer says are awaited are asked first (`tokens` keeps them
    first, for whoever goes on with the game), as a bot holding both seats would; the other
    seats only if those may not act.
    """
    while time.perf_counter() < until:
        turn = None
        for seat in list(tokens):
            code, seen = client.call("GET", f"/api/play/{tokens[seat]}?words=0")
            tally.status(code)
            with tally.lock:
                tally.views += 1
            if code == 200 and seen["your_turn"] and seen["choices"]:
                turn = (seat, seen["token"], seen["choices"][0]["action"], seen["game"]["id"])
                break
        if turn is None:
            return True  # the game is over (or the server refuses): on to the next
        seat, token, action, game = turn
        started = time.perf_counter()
        code, answer = client.call("POST", f"/api/play/{token}", {"action": action})
        elapsed = time.perf_counter() - started
        tally.status(code)
        if code == 200 and "played" in answer:
            with tally.lock:
                tally.latencies.append(elapsed)
                tally.done += 1
                tally.acknowledged[game] = tally.acknowledged.get(game, 0) + 1
            tokens[seat] = answer["token"]
            awaited = answer["game"]["position"]["awaited"]
            for waiting in [s for s in tokens if s not in awaited]:
                tokens[waiting] = tokens.pop(waiting)  # the awaited seats first, here or later
    return False


def fetch_static(port: int, until: float, tally: Tally) -> None:
    """GET /healthz until the time is up."""
    client = Client(port)
    try:
        while time.perf_counter() < until:
            code, _ = client.call("GET", "/healthz")
            tally.status(code)
            if code == 200:
                with tally.lock:
                    tally.done += 1
    finally:
        client.close()


TICKS = os.sysconf("SC_CLK_TCK")


Times = dict[tuple[str, int], float]  # CPU seconds by (side, pid)
SIDES = ("client", "server", "database", "machine")


def process_times(server: int) -> Times:
    """CPU seconds so far of each gunicorn and PostgreSQL process, this one and the machine."""
    times: Times = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # it ended meanwhile
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        seconds = (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime
        pid = int(entry.name)
        if pid == server or int(fields[1]) == server:
            times["server", pid] = seconds
        elif comm == "postgres":
            times["database", pid] = seconds
    with open("/proc/stat") as f:
        cpu = [int(n) for n in f.readline().split()[1:]]
    times["machine", 0] = (sum(cpu) - cpu[3] - cpu[4]) / TICKS  # all but idle and iowait
    times["client", 0] = time.process_time()
    return times


def cpu_used(before: Times, after: Times) -> dict[str, float]:
    """CPU seconds each side used between two readings (a process that ended is left out)."""
    used = dict.fromkeys(SIDES, 0.0)
    for (side, pid), seconds in after.items():
        used[side] += seconds - before.get((side, pid), 0.0)
    return used


@dataclass
class Run:
    """Timed runs of one kind: what their clients saw, their wall time, the CPU each side used."""

    tally: Tally = field(default_factory=Tally)
    wall: float = 0.0
    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))

    @property
    def rate(self) -> float:
        """Successful requests (or moves) per second."""
        return self.tally.done / self.wall

    def add(self, clients: list[Any], seconds: float, server: int) -> None:
        """Run each client in its own thread for `seconds`; count what it saw and cost."""
        before = process_times(server)
        until = time.perf_counter() + seconds
        threads = [threading.Thread(target=c, args=(until, self.tally)) for c in clients]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=seconds + 60)
        self.wall += time.perf_counter() - started
        for side, used in cpu_used(before, process_times(server)).items():
            self.cpu[side] += used


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
        client = Client(port)
        try:
            if client.call("GET", "/healthz")[0] == 200:
                return
        except OSError:
            pass
        finally:
            client.close()
        time.sleep(0.1)
    raise SystemExit("gunicorn did not answer on /healthz within 30 s")


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


@click.command()
@click.option("--quick", is_flag=True, help="Short runs (3 s per K instead of 10).")
@click.option("--workers", type=int, help="gunicorn workers (default: gunicorn.conf.py's).")
@click.option("--threads", type=int, help="Threads per worker (default: gunicorn.conf.py's).")
@click.option("--sync", is_flag=True, help="Sync workers instead of gunicorn.conf.py's threads.")
@click.option("--seconds", type=float, help="How long each K runs.")
@click.option("--postgres", help="A PostgreSQL server URL (default: PBEM_TEST_POSTGRES_URL).")
def main(
    quick: bool,
    workers: int | None,
    threads: int | None,
    sync: bool,
    seconds: float | None,
    postgres: str | None,
) -> None:
    """Measure moves through gunicorn on PostgreSQL against a static GET."""
    seconds = seconds or (3.0 if quick else 10.0)
    blocks = 3 if quick else 5
    server_url = postgres or os.environ.get("PBEM_TEST_POSTGRES_URL") or DEFAULT_POSTGRES
    levels = (1, 8, 32)
    database = Database(server_url)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="pbem-bench-web-") as tmp:
        env = environment(database.url, Path(tmp), port)
        # Enough games that no client runs out (a game always playing the first choice
        # lasts hundreds of moves).
        svc, tokens = prepare(env, int(40 * seconds) + 2 * sum(levels))
        pool: queue.Queue[dict[int, str]] = queue.Queue()
        for game in tokens:
            pool.put(game)
        options = ["-c", "gunicorn.conf.py", "-b", f"127.0.0.1:{port}"]
        options += ["-w", str(workers)] if workers else []
        options += ["--threads", str(threads)] if threads else []
        options += ["-k", "sync"] if sync else []
        command = [sys.executable, "-m", "gunicorn", *options, "--log-level", "warning"]
        command.append("wsgi:app")
        server = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **env})
        try:
            wait_until_up(port, server)
            rows = []
            with click.progressbar(levels, label="load levels", file=sys.stderr) as bar:
                for k in bar:
                    moves, static = Run(), Run()
                    for _ in range(blocks):  # alternating, so that other jobs slow both alike
                        moves.add(
                            [lambda u, t: play(port, pool, u, t) for _ in range(k)],
                            seconds / blocks,
                            server.pid,
                        )
                        static.add(
                            [lambda u, t: fetch_static(port, u, t) for _ in range(k)],
                            seconds / blocks,
                            server.pid,
                        )
                    rows.append((k, moves, static))
            logged = moves_in_logs(svc)
        finally:
            server.terminate()
            server.wait(timeout=30)
            svc.db.dispose()
            database.close()
    report(rows, logged, " ".join(["gunicorn", *options[2:], "wsgi:app"]))


def report(rows: list[tuple[int, Run, Run]], logged: dict[str, int], served: str) -> None:
    """Print one line per K, whether every acknowledged move is in its log, and the CPU used."""
    click.echo(f"{served} (with gunicorn.conf.py), PostgreSQL, 127.0.0.1")
    click.echo("   K   moves/s  static/s  ratio   p50 ms   p99 ms   5xx  4xx  moves in log")
    for k, moves, static in rows:
        acknowledged = sum(moves.tally.acknowledged.values())
        missing = sum(
            max(0, n - logged.get(game, 0)) for game, n in moves.tally.acknowledged.items()
        )
        latencies = moves.tally.latencies
        p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
        p99 = percentile(latencies, 99) if latencies else float("nan")
        errors = moves.tally.server_errors + static.tally.server_errors
        click.echo(
            f"{k:>4} {moves.rate:>9.1f} {static.rate:>9.1f} {moves.rate / static.rate:>6.2f}"
            f" {p50:>8.1f} {p99:>8.1f} {errors:>5} {sum(moves.tally.other.values()):>4}"
            f"  {acknowledged - missing}/{acknowledged}"
            f"  ({moves.tally.views / max(moves.tally.done, 1):.2f} seat views a move)"
        )
    click.echo("targets: ratio >= 0.25; p99 < 50 ms at K = 8; no 5xx; every move in its log")
    click.echo("CPU per move and per static GET, ms (of 2 cores: client, gunicorn, PostgreSQL,")
    click.echo("everything else on the machine), and the clients' share of the machine's CPU:")
    for k, moves, static in rows:
        parts = []
        for name, r in (("move", moves), ("static", static)):
            done = max(r.tally.done, 1)
            other = r.cpu["machine"] - r.cpu["client"] - r.cpu["server"] - r.cpu["database"]
            sides = (r.cpu["client"], r.cpu["server"], r.cpu["database"], other)
            share = r.cpu["client"] / max(r.cpu["machine"], 1e-9)
            figures = " / ".join(f"{1000 * c / done:.2f}" for c in sides)
            parts.append(f"{name} {figures} (client {share:.0%})")
        click.echo(f"{k:>4}  " + ";  ".join(parts))


if __name__ == "__main__":
    main()
