"""`pbem fetch-mail` against a real dovecot: each new mail taken in exactly once and moved,
also when the fetcher is killed (kill -9) mid-run or the server drops the connection."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest

from pbem.models import InboundMail
from tests.conftest import IN_CI, TEST_KEY, make_app
from tests.dovecot import DOVECOT, Dovecot
from tests.tcp_proxy import Proxy

from ..pipe import legal, log, outbox, start, svc_of

ANN, BOB = "ann@example.org", "bob@example.org"


@pytest.fixture
def dovecot() -> Any:
    if not DOVECOT.exists():
        if IN_CI:
            pytest.fail(f"{DOVECOT} is missing: .ci/run installs dovecot-imapd")
        pytest.skip(f"the IMAP tests need Debian's dovecot-imapd ({DOVECOT} is missing)")
    server = Dovecot().start()
    yield server
    server.stop()


@pytest.fixture
def imap_app(settings: Any, dovecot: Dovecot) -> Any:
    app = make_app(replace(settings, imap_url=dovecot.url))
    yield app
    app.extensions["pbem"].db.dispose()


def reply_mail(app: Any, public_id: str, move: str | None = None) -> bytes:
    """A player's reply to the newest turn mail of a game, with a legal move."""
    turn = [m for m in outbox(app, purpose="turn") if m.game_id is not None][-1]
    message = EmailMessage()
    message["From"] = turn.to_addr
    message["To"] = json.loads(turn.headers)["Reply-To"]
    message["Subject"] = "Re: " + turn.subject
    message["Message-ID"] = make_msgid(domain="player.example")
    message.set_content((move or legal(app, public_id)[0]) + "\n\n> quoted\n")
    return bytes(message)


def plain_mail(sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "pbem@localhost", "commands"
    message["Message-ID"] = make_msgid(domain="player.example")
    message.set_content(body)
    return bytes(message)


def moves(app: Any, public_id: str) -> list[str]:
    return [e.payload["action"] for e in log(app, public_id) if e.kind == "move"]


def test_each_new_mail_is_taken_in_once_and_moved_to_the_processed_folder(imap_app, dovecot):
    public_id = start(imap_app, players=((ANN, "Ann"), (BOB, "Bob")))
    move = legal(imap_app, public_id)[0]
    dovecot.deliver(reply_mail(imap_app, public_id, move))
    dovecot.deliver(plain_mail(ANN, "help\n"))
    dovecot.deliver(plain_mail("stranger@example.net", "games\n"))
    runner = imap_app.test_cli_runner()

    first = runner.invoke(args=["fetch-mail"])

    assert first.exit_code == 0, first.output
    assert moves(imap_app, public_id) == [move]
    (help_answer,) = outbox(imap_app, purpose="command")
    assert help_answer.to_addr == ANN and "resign GAME" in help_answer.body_text
    assert "commands from stranger@example.net, no player: not answered" in first.output
    assert dovecot.count() == 0 and dovecot.count("Processed") == 3
    second = runner.invoke(args=["fetch-mail"])
    assert second.exit_code == 0 and "fetched" not in second.output
    with svc_of(imap_app).db.read() as s:
        kinds = sorted(m.kind for m in s.query(InboundMail))
    assert kinds == ["command", "command", "reply"]


def pbem(settings: Any, dovecot_url: str, *args: str) -> subprocess.Popen[str]:
    """`pbem ARGS` in a process of its own, on the test's database and mailbox."""
    env = {
        **os.environ,
        "PBEM_DATABASE_URL": settings.database_url,
        "PBEM_SECRET_KEY": TEST_KEY,
        "PBEM_INSTANCE_PATH": str(settings.instance_path),
        "PBEM_BASE_URL": settings.base_url,
        "PBEM_IMAP_URL": dovecot_url,
        "PBEM_WRITE_WAIT": "60",
    }
    return subprocess.Popen(
        [sys.executable, "-c", "from pbem.cli import main; main()", *args],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        cwd=Path(__file__).resolve().parents[3],
    )


def kill_9(process: subprocess.Popen[str]) -> None:
    """kill -9, as a crash or an OOM killer would."""
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    assert process.returncode == -signal.SIGKILL
    if process.stdout is not None:
        process.stdout.close()


def wait_for_line(process: subprocess.Popen[str], words: str, timeout: float = 30) -> str:
    """Read the process's output until a line holds `words`."""
    deadline = time.monotonic() + timeout
    seen = []
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            break
        seen.append(line)
        if words in line:
            return line
    kill_9(process)
    raise AssertionError(f"no line with {words!r} in: {''.join(seen)}")


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_fetcher_killed_between_fetch_and_commit_loses_nothing_and_plays_once(
    imap_app, dovecot, settings
):
    public_id = start(imap_app)
    move = legal(imap_app, public_id)[0]
    dovecot.deliver(reply_mail(imap_app, public_id, move))
    db = svc_of(imap_app).db
    with db.turn():  # the fetcher fetches, then waits for its turn to write: it is killed there
        fetcher = pbem(settings, dovecot.url, "fetch-mail")
        wait_for_line(fetcher, "fetched")
        kill_9(fetcher)
    assert moves(imap_app, public_id) == [] and dovecot.count() == 1

    again = imap_app.test_cli_runner().invoke(args=["fetch-mail"])

    assert again.exit_code == 0, again.output
    assert moves(imap_app, public_id) == [move]
    assert dovecot.count() == 0 and dovecot.count("Processed") == 1


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_fetcher_killed_after_its_commit_and_before_the_move_does_not_play_again(
    imap_app, dovecot, settings
):
    public_id = start(imap_app)
    move = legal(imap_app, public_id)[0]
    dovecot.deliver(reply_mail(imap_app, public_id, move))
    # The mark goes out after the commit: the proxy holds the line still from then on.
    proxy = Proxy(dovecot.port, stall_on=b"STORE", tls=dovecot.tls_proxy_contexts())
    url = dovecot.via(proxy.port)
    try:
        fetcher = pbem(settings, url, "fetch-mail")
        assert proxy.stalled.wait(30), "the fetcher never marked the mail"
        kill_9(fetcher)
    finally:
        proxy.stop()
    assert moves(imap_app, public_id) == [move] and dovecot.count() == 1

    again = imap_app.test_cli_runner().invoke(args=["fetch-mail"])

    assert again.exit_code == 0, again.output
    assert "duplicate, ignored: this mail came in before" in again.output
    assert moves(imap_app, public_id) == [move]
    assert dovecot.count() == 0 and dovecot.count("Processed") == 1


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_an_imap_server_dropping_the_connection_mid_fetch_loses_no_mail(imap_app, dovecot):
    public_id = start(imap_app)
    move = legal(imap_app, public_id)[0]
    dovecot.deliver(reply_mail(imap_app, public_id, move))
    proxy = Proxy(dovecot.port, cut_on=b"FETCH (", tls=dovecot.tls_proxy_contexts())
    dropped = replace(svc_of(imap_app).settings, imap_url=dovecot.via(proxy.port))
    svc_of(imap_app).settings = dropped
    try:
        first = imap_app.test_cli_runner().invoke(args=["fetch-mail"])
    finally:
        proxy.stop()
    assert proxy.cut.is_set()
    assert first.exit_code == 75 and "nothing was lost" in first.output
    assert moves(imap_app, public_id) == [] and dovecot.count() == 1

    svc_of(imap_app).settings = replace(dropped, imap_url=dovecot.url)
    again = imap_app.test_cli_runner().invoke(args=["fetch-mail"])

    assert again.exit_code == 0, again.output
    assert moves(imap_app, public_id) == [move] and dovecot.count("Processed") == 1


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_mailbox_of_ten_thousand_old_mails_is_moved_unread_and_new_mail_taken_in(
    imap_app, dovecot
):
    public_id = start(imap_app)
    move = legal(imap_app, public_id)[0]
    long_ago = time.time() - 90 * 86400
    old = plain_mail(ANN, "resign " + public_id + "\n")  # acted on, it would resign Ann
    for n in range(10_000):
        dovecot.deliver(old.replace(b"commands", f"commands {n}".encode()), mtime=long_ago,
                        name=f"{int(long_ago)}.{n}.old")
    dovecot.deliver(reply_mail(imap_app, public_id, move))

    result = imap_app.test_cli_runner().invoke(args=["fetch-mail"])

    assert result.exit_code == 0, result.output
    assert "10000 mails older than 30 days" in result.output
    assert len(result.output.splitlines()) < 10  # one line for the old, a few for the new
    assert moves(imap_app, public_id) == [move]
    assert outbox(imap_app, purpose="command") == []
    assert dovecot.count() == 0 and dovecot.count("Processed") == 10_001


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_fetch_loop_waits_with_idle_and_takes_in_a_mail_as_it_arrives(
    imap_app, dovecot, settings
):
    public_id = start(imap_app)
    move = legal(imap_app, public_id)[0]
    fetcher = pbem(settings, dovecot.url, "fetch-mail", "--loop", "--interval", "120")
    try:
        time.sleep(1.0)  # it connected and waits (IDLE) for new mail
        dovecot.deliver(reply_mail(imap_app, public_id, move))
        wait_for_line(fetcher, "reply, played", timeout=20)  # long before the interval
        deadline = time.monotonic() + 10
        while dovecot.count("Processed") < 1 and time.monotonic() < deadline:
            time.sleep(0.05)  # (the move follows the commit)
    finally:
        kill_9(fetcher)
    assert moves(imap_app, public_id) == [move]
    assert dovecot.count() == 0 and dovecot.count("Processed") == 1
