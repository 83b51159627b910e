"""Draining the outbox into a local SMTP server, against raw smtplib in the same run.

Usage: python bench/bench_mail.py [--quick] [--games G] [--dir PATH] [--dkim]

1. Drain: the mails of a round start (G two-player Martian Race games: invitations and
   first turn mails, text and HTML with the board) wait in the outbox of a SQLite file;
   `outbox.deliver_due` sends them all over SMTP to an aiosmtpd server on 127.0.0.1,
   leasing and marking each row as the server does, each with its own VERP return path
   (and, with --dkim, a DKIM signature made with a 2048-bit RSA key). The baseline is
   `smtplib` sending the same messages, already built, over one connection to the same
   server. Printed: mails per second of each and the ratio (target >= 0.6), and whether
   every mail arrived exactly once.
2. Queueing: the round start itself, G games started and their mails queued in one
   `Services.write`; printed is its time.
"""

from __future__ import annotations

import smtplib
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_submit import services_on  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from pbem.mail import outbox, outgoing  # noqa: E402
from pbem.mail.transport import SmtpTransport  # noqa: E402
from pbem.mail.wire import build_message  # noqa: E402
from pbem.models import Outbox  # noqa: E402
from pbem.play.start import start_game  # noqa: E402
from pbem.services import Services  # noqa: E402
from tests.smtp_sink import SmtpSink, free_port  # noqa: E402


class Sink:
    """The test suite's aiosmtpd sink in a process of its own, as a real SMTP server is.

    (In this process its parsing would take turns with the sender for the interpreter.)
    It writes each arriving Message-ID on a line of a file, which `ids` reads.
    """

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"smtp://127.0.0.1:{self.port}"
        self.file = folder / "arrived.txt"
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--sink", str(self.port), str(self.file)]
        )
        for _ in range(200):  # at most 20 s for it to listen
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("the SMTP sink did not start")

    def ids(self) -> list[str]:
        """The Message-IDs that arrived so far."""
        return self.file.read_text().split() if self.file.exists() else []

    def clear(self) -> None:
        self.file.write_text("")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def serve_sink(port: int, file: Path) -> None:
    """Run the sink until terminated, writing each Message-ID as it arrives."""
    sink = SmtpSink(port).start()
    written = 0
    try:
        while True:
            time.sleep(0.05)
            with sink.lock:
                new = sink.messages[written:]
                written += len(new)
            if new:
                with file.open("a") as out:
                    out.writelines(f"{m['Message-ID']}\n" for m in new)
    finally:
        sink.stop()


def start_round(svc: Services, games: int) -> float:
    """Start `games` two-player Martian Race games in one write, as a tournament round
    start does (each queues its invitations and its first turn mail); return the seconds."""

    def start(session: Session) -> None:
        for i in range(games):
            players = [(f"p{n}@example.org", f"P{n}") for n in (2 * i, 2 * i + 1)]
            start_game(session, svc.ctx, "martian-race", players)

    started = time.perf_counter()
    svc.write(start)
    return time.perf_counter() - started


def prepared(svc: Services) -> list[object]:
    """Every queued mail, built as the sender builds it."""
    with svc.db.read() as session:
        rows = list(session.query(Outbox).order_by(Outbox.id))
        return [build_message(row, svc.settings.mail_from) for row in rows]


def send_raw(sink: Sink, messages: list[object]) -> float:
    """Send built messages over one smtplib connection; return the seconds."""
    started = time.perf_counter()
    with smtplib.SMTP("127.0.0.1", sink.port, timeout=30) as client:
        for message in messages:
            client.send_message(message)  # type: ignore[arg-type]
    return time.perf_counter() - started


def drain(svc: Services, sink: Sink) -> float:
    """Deliver the whole outbox through the server's sender, as `pbem send-mail` does (its
    return paths, its DKIM key if set up); return the seconds."""
    out = outgoing.for_settings(svc.settings, svc.signer)
    started = time.perf_counter()
    while outbox.pending_count(svc.db):
        outbox.deliver_due(svc.db, SmtpTransport(sink.url), out)
    return time.perf_counter() - started


def with_dkim(svc: Services, folder: Path) -> None:
    """Sign every mail with a fresh 2048-bit RSA key, as a DKIM-configured server does."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    path = folder / "dkim.pem"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    svc.settings = replace(svc.settings, dkim_selector="bench", dkim_key=path)


def arrived_once(sink: Sink, count: int) -> tuple[int, int]:
    """How many distinct Message-IDs arrived, and how many arrived more than once."""
    for _ in range(200):  # the sink writes every 50 ms: wait (at most 20 s) for the last
        if len(sink.ids()) >= count:
            break
        time.sleep(0.1)
    seen = Counter(sink.ids())
    return len(seen), sum(1 for n in seen.values() if n > 1)


@click.command()
@click.option("--quick", is_flag=True, help="A short run (60 games).")
@click.option("--games", "games", type=int, help="How many games the round starts.")
@click.option("--dkim", is_flag=True, help="Sign every mail with DKIM (RSA 2048).")
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the database goes (default: a temporary directory).",
)
def main(quick: bool, games: int | None, folder: Path | None, dkim: bool) -> None:
    """Measure outbox draining against raw smtplib."""
    games = games or (60 if quick else 300)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-", dir=folder) as tmp:
        svc = services_on(Path(tmp))
        if dkim:
            with_dkim(svc, Path(tmp))
        sink = Sink(Path(tmp))
        try:
            queued = start_round(svc, games)
            messages = prepared(svc)
            count = len(messages)
            raw = send_raw(sink, messages)
            raw_arrived = arrived_once(sink, count)
            sink.clear()
            spent = drain(svc, sink)
            arrived = arrived_once(sink, count)
        finally:
            sink.stop()
            svc.db.dispose()
    ratio = raw / spent
    rows = [
        ("round start", f"{games} Martian Race games, {count} mails (text + HTML)"),
        ("start them in one transaction", f"{queued:.2f} s, {queued / count * 1000:.1f} ms a mail"),
        ("raw smtplib, one connection", f"{count / raw:,.0f} mails/s"),
        ("outbox.deliver_due" + (", DKIM" if dkim else ""), f"{count / spent:,.0f} mails/s"),
        ("arrived (distinct, twice): raw", f"{raw_arrived[0]}, {raw_arrived[1]}"),
        ("arrived (distinct, twice): outbox", f"{arrived[0]}, {arrived[1]}"),
        ("ratio (target >= 0.6)", f"{ratio:.2f} {'OK' if ratio >= 0.6 else 'BELOW TARGET'}"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        click.echo(f"{name:<{width}}  {value}")
    if arrived != (count, 0):
        raise SystemExit("the outbox lost or repeated mails")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--sink"]:
        serve_sink(int(sys.argv[2]), Path(sys.argv[3]))
    else:
        main()
