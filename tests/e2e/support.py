"""Helpers of the end-to-end tests: the server process, mails and their links."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import engine
from pbem.config import load_settings
from pbem.links import MoveGrant
from pbem.log import store
from pbem.log.games import load
from pbem.play.act import submit
from pbem.play.start import start_game
from pbem.web.app import create_app
from tests.smtp_sink import SmtpSink, free_port

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PBEM = Path(sys.executable).parent / "pbem"
STARTUP_TIMEOUT = 30.0
MAIL_TIMEOUT = 15.0
LINK = re.compile(r"https?://[^\s<>\"]+")
ACTING = ("move", "resign", "timeout")  # the events by which a seat acts
# Every mail of a game has one subject (one conversation): the body says what it is.
OPENINGS = {"invite": "in a new game of", "turn": "It is your move in", "result": " is over: "}


def in_ci() -> bool:
    """Whether this run is CI, where a missing browser is a failure and not a skip."""
    return os.environ.get("CI", "").lower() == "true"


@dataclass
class Server:
    """A running `pbem serve` process and what it takes to talk to it."""

    url: str
    env: dict[str, str]
    instance: Path
    database: Path
    sink: SmtpSink
    process: subprocess.Popen[bytes]
    log_path: Path

    def cli(self, *args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
        """Run a `pbem` command with the server's environment."""
        return subprocess.run(
            [str(PBEM), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def new_game(self, *players: str, kind: str = "martian-frisby") -> str:
        """Create a game with the CLI; return its public id."""
        args = ["new-game", kind]
        for player in players:
            args += ["--player", player]
        done = self.cli(*args)
        assert done.returncode == 0, done.stderr
        public_id, url = done.stdout.split()[:2]
        assert url == f"{self.url}/games/{public_id}"
        return public_id

    def get(self, path: str) -> bytes:
        """GET a path of the server (plain HTTP, no browser)."""
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            return bytes(response.read())

    def log(self, public_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The game's exported log: the header and the events."""
        lines = self.get(f"/games/{public_id}/log.jsonl").decode().splitlines()
        return json.loads(lines[0]), [json.loads(line) for line in lines[1:] if line]


def text_of(message: EmailMessage) -> str:
    """The text/plain part of a mail."""
    part = message.get_body(preferencelist=("plain",))
    assert part is not None, f"mail {message['Subject']!r} has no text part"
    return str(part.get_content())  # type: ignore[attr-defined]


def links_in(message: EmailMessage, path: str) -> list[str]:
    """Every link in the mail's text part whose path starts with `path`, in order."""
    return [url for url in LINK.findall(text_of(message)) if f"/{path.strip('/')}/" in url]


def link_in(message: EmailMessage, path: str) -> str:
    """The first link to `path` without a query (a turn mail's "play here" link)."""
    for url in links_in(message, path):
        if "?" not in url:
            return url
    raise AssertionError(f"no /{path}/ link in mail {message['Subject']!r}:\n{text_of(message)}")


def wait_for_mail(
    sink: SmtpSink,
    matches: Callable[[EmailMessage], bool],
    what: str,
    timeout: float = MAIL_TIMEOUT,
) -> EmailMessage:
    """The newest mail that matches, waiting (bounded) for it to arrive."""
    deadline = time.monotonic() + timeout
    while True:
        with sink.lock:
            found = [m for m in sink.messages if matches(m)]
        if found:
            return found[-1]
        if time.monotonic() > deadline:
            with sink.lock:
                subjects = [f"{m['To']}: {m['Subject']}" for m in sink.messages[-10:]]
            raise AssertionError(f"no mail {what} within {timeout}s; last mails: {subjects}")
        time.sleep(0.01)


def wait_until_up(process: subprocess.Popen[bytes], url: str, log_path: Path) -> None:
    """Poll the server (bounded) until it answers; fail early if it exits."""
    deadline = time.monotonic() + STARTUP_TIMEOUT
    last: Exception | None = None
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(
                f"pbem serve exited with {process.returncode}:\n{log_path.read_text()}"
            )
        try:
            with urllib.request.urlopen(url + "/", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
            last = e
        time.sleep(0.1)
    raise AssertionError(f"pbem serve did not answer within {STARTUP_TIMEOUT}s ({last})")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Terminate the process and reap it, killing it if it will not stop."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def rebuild(events: list[dict[str, Any]]) -> tuple[engine.Rules[Any], Any]:
    """The rules and the current state, folded from exported events."""
    log = [store.LogEntry(**event) for event in events]
    setup = store.Setup.from_payload(log[0].payload)
    rules = engine.rules_for(setup.kind)
    return rules, store.fold(rules, setup, log)


def last_actor(events: list[dict[str, Any]]) -> int | None:
    """The seat of the newest move, resignation or timeout."""
    return next((e["seat"] for e in reversed(events) if e["kind"] in ACTING), None)


def is_mail(game: str, purpose: str, to: str, head_hash: str | None = None) -> Any:
    """Match a game's invite, turn or result mail to one address (a turn mail: for a head)."""
    # A turn mail names the log head's hash (docs/architecture.md), which pins it to one position.

    def matches(message: EmailMessage) -> bool:
        if to not in str(message["To"]) or not str(message["Subject"]).endswith(f" {game}"):
            return False
        text = text_of(message)
        return OPENINGS[purpose] in text and (head_hash is None or head_hash in text)

    return matches


def turn_mail(server: Server, game: str, events: list[dict[str, Any]], seat: int, to: str) -> Any:
    """Wait for the mail that brings the seat's turn now."""
    # When a seat's decision follows its own (the opponent had no legal turn and passed),
    # no new mail is sent: the newest older link shows a fresh form instead.
    if last_actor(events) == seat:
        return wait_for_mail(server.sink, is_mail(game, "turn", to), f"a turn mail to {to}")
    head = events[-1]
    return wait_for_mail(
        server.sink,
        is_mail(game, "turn", to, head["hash"]),
        f"the turn mail to {to} after event {head['seq']}",
    )


def busy_game(
    server: Server,
    kind: str,
    players: tuple[str, ...],
    minimum: int,
    until: Callable[[Any], bool] = lambda view: True,
) -> tuple[str, str]:
    """A game played at random until its seat has `minimum` legal actions and its public
    view passes `until`: its id and the seat's move link.

    The moves are played in this process, on the server's database.
    """
    env = server.env | {"PBEM_SMTP_URL": ""}  # the server, not this process, sends the mail
    app = create_app({"SETTINGS": load_settings(env)})
    svc = app.extensions["pbem"]
    rng = random.Random(7)
    seated = [(p, None) for p in players]
    game = svc.write(lambda s: start_game(s, svc.ctx, kind, seated).game.public_id)
    try:
        for _ in range(3000):
            with svc.db.read() as s:
                loaded = load(s, game)
                seat = loaded.awaited()[0]
                legal = loaded.rules.legal(loaded.state, seat)
                grant = MoveGrant(game, seat, loaded.game.head_seq)
            if len(legal) >= minimum and until(loaded.rules.view(loaded.state, None)):
                return game, f"{server.url}/play/{svc.signer.move_token(grant)}"
            action = legal[rng.randrange(len(legal))]
            svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
    finally:
        svc.db.dispose()
    raise AssertionError(f"no {kind} position with {minimum} legal actions came up")


@contextmanager
def serving(sink: SmtpSink, root: Path, database_url: str | None = None) -> Iterator[Server]:
    """A real `pbem serve` on a free port, mail to the sink; SQLite in the instance unless a
    database URL is given (it creates its own tables there, as on a fresh server)."""
    instance = root / "instance"
    database = root / "pbem.db"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "FLASK_"))} | {
        "PBEM_INSTANCE_PATH": str(instance),
        "PBEM_DATABASE_URL": database_url or f"sqlite:///{database}",
        "PBEM_SECRET_KEY": "the end-to-end key: 32 bytes or longer",
        "PBEM_BASE_URL": url,
        "PBEM_MAIL_FROM": "pbem <pbem@example.org>",
        "PBEM_SMTP_URL": sink.url,
        "PYTHONUNBUFFERED": "1",
    }
    log_path = root / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(PBEM), "serve", "--host", "127.0.0.1", "--port", str(port), "--no-debug"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    try:
        wait_until_up(process, url, log_path)
        yield Server(url, env, instance, database, sink, process, log_path)
    finally:
        stop(process)
