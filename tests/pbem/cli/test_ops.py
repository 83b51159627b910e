"""Running a server: `pbem serve` delivers mail and ticks deadlines in its own thread."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

from pbem import clock
from pbem.cli import ops
from pbem.log.games import load
from tests.smtp_sink import free_port

from ..pipe import log, outbox, start, svc_of


def timeouts(app: Any, public_id: str) -> list[Any]:
    """The game's timeout events."""
    return [e for e in log(app, public_id) if e.kind == "timeout"]


def backdate(app: Any, public_id: str, hours: int) -> None:
    """Move the opening of the game's open decision `hours` into the past."""

    def earlier(s: Any) -> None:
        game = load(s, public_id).game
        game.await_since = clock.as_utc(game.await_since) - timedelta(hours=hours)

    svc_of(app).write(earlier)


def overdue(app: Any, hours: int) -> str:
    """A game (with a one-hour deadline) whose first decision was opened `hours` ago."""
    public_id = start(app, deadline_hours=1)
    backdate(app, public_id, hours)
    return public_id


def test_pbem_serve_times_out_an_overdue_decision_and_mails_the_next_one(
    smtp_app, smtp_sink, monkeypatch
):
    public_id = overdue(smtp_app, hours=2)
    queued = len(outbox(smtp_app))  # two invitations and the first turn mail, not sent yet
    assert queued == 3 and smtp_sink.messages == []
    served: dict[str, Any] = {}

    def serve_until_timed_out(host: str, port: int, app: Any, **kw: Any) -> None:
        # Stands in for the web server: returns once the mail thread has done its work.
        served.update(host=host, port=port, threaded=kw.get("threaded"))
        give_up = time.monotonic() + 30
        while time.monotonic() < give_up:
            if timeouts(smtp_app, public_id):
                smtp_sink.wait_for(queued + 1, timeout=max(give_up - time.monotonic(), 1))
                return
            time.sleep(0.05)

    monkeypatch.setattr(ops, "run_simple", serve_until_timed_out)
    monkeypatch.delenv("PBEM_BASE_URL", raising=False)  # links then name where it listens
    port = free_port()

    result = smtp_app.test_cli_runner().invoke(
        args=["serve", "--host", "127.0.0.1", "--port", str(port), "--no-debug"]
    )
    for thread in threading.enumerate():
        if thread.name == "pbem-mail":
            thread.join(timeout=10)
            assert not thread.is_alive(), "the mail thread stops with the server"

    assert result.exit_code == 0, result.output
    assert served == {"host": "127.0.0.1", "port": port, "threaded": True}
    assert [e.payload["policy"] for e in timeouts(smtp_app, public_id)] == ["bot"]
    turn = smtp_sink.wait_for(queued + 1)[-1]
    text = turn.get_body(("plain",)).get_content()
    assert "It is your move" in text and "A reminder" not in text
    assert f"http://127.0.0.1:{port}/play/" in turn.get_body(("plain",)).get_content()


def test_the_mail_loop_keeps_checking_deadlines_after_its_first_pass(smtp_app, smtp_sink):
    public_id = start(smtp_app, deadline_hours=1)
    stop = threading.Event()
    failures: list[BaseException] = []

    def loop() -> None:
        try:
            with smtp_app.app_context():
                ops.deliver_forever(0.02, stop, tick_every=3)
        except BaseException as e:  # reported in the test's thread
            failures.append(e)

    sender = threading.Thread(target=loop)
    sender.start()
    try:
        smtp_sink.wait_for(3)  # the loop has made its first pass, with nothing overdue
        assert not timeouts(smtp_app, public_id)
        backdate(smtp_app, public_id, hours=2)
        give_up = time.monotonic() + 20
        while time.monotonic() < give_up and not timeouts(smtp_app, public_id):
            time.sleep(0.05)
    finally:
        stop.set()
        sender.join(timeout=10)

    assert not failures and not sender.is_alive()
    assert len(timeouts(smtp_app, public_id)) == 1
