"""SQLite writers take turns, across threads and processes, and never wait without bound."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from pbem.db import Database, migrate
from pbem.db.database import WriteLock
from pbem.errors import Busy
from tests.conftest import make_app

from ..pipe import csrf_in, legal, start, token

LONGEST_HOLD = 60.0  # a process holding the write until its test block ends, at most
HOLD = 1.5  # how long the other writer holds the lock; a bounded wait ends well before


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'lock.db'}"
    db = Database(url)
    migrate.upgrade(db.engine)
    db.dispose()
    return url


@contextmanager
def writing_in_a_thread(db: Database, seconds: float = HOLD) -> Iterator[None]:
    """Another request of this process holds a write for a while."""
    inside, done = threading.Event(), threading.Event()

    def hold() -> None:
        with db.write() as s:
            s.execute(text("SELECT 1"))
            inside.set()
            done.wait(seconds)

    thread = threading.Thread(target=hold)
    thread.start()
    assert inside.wait(10)
    try:
        yield
    finally:
        done.set()
        thread.join(10)


@contextmanager
def writing_in_another_process(url: str, seconds: float | None = None) -> Iterator[int]:
    """Another pbem process (say `pbem tick`) in the middle of a write: it holds the write
    for `seconds`, or (None) until the block ends, however slow a loaded machine makes the
    block (at most a minute)."""
    hold = LONGEST_HOLD if seconds is None else seconds
    script = textwrap.dedent(f"""
        import select, sys
        from sqlalchemy import text
        from pbem.db import Database
        db = Database({url!r})
        with db.write() as s:
            s.execute(text("SELECT 1"))
            print("writing", flush=True)
            select.select([sys.stdin], [], [], {hold})
    """)
    with subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True, cwd=Path.cwd(),
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        try:
            assert process.stdout.readline().strip() == "writing"
            yield process.pid
        finally:
            try:
                process.stdin.write("done\n")
                process.stdin.flush()
            except BrokenPipeError:
                pass  # it let go already
            process.wait(30)


def timed_write(db: Database) -> tuple[float, BaseException | None]:
    started = time.monotonic()
    try:
        with db.write() as s:
            s.execute(text("SELECT 1"))
    except Busy as e:
        return time.monotonic() - started, e
    return time.monotonic() - started, None


def test_a_write_behind_another_of_this_process_gives_up_in_bounded_time(sqlite_url):
    db = Database(sqlite_url, write_wait=0.3)
    try:
        with writing_in_a_thread(db):
            waited, error = timed_write(db)
    finally:
        db.dispose()

    assert isinstance(error, Busy) and waited < 1.5
    assert error.status == 503 and error.retry_after > 0


def test_a_write_behind_another_process_gives_up_naming_it(sqlite_url):
    db = Database(sqlite_url, write_wait=0.5)
    try:
        with writing_in_another_process(sqlite_url) as pid:
            waited, error = timed_write(db)
    finally:
        db.dispose()

    assert isinstance(error, Busy) and waited < 2.0
    assert f"pid {pid}" in error.holder, "the operator learns who holds the database"
    assert "pid" not in str(error), "a person is told only to come back later"


def test_writers_in_two_processes_take_turns(sqlite_url):
    db = Database(sqlite_url, write_wait=10)
    try:
        with writing_in_another_process(sqlite_url, seconds=1.0):
            waited, error = timed_write(db)
    finally:
        db.dispose()

    assert error is None
    assert 0.3 < waited < 5, "it waited for the other process's write, then wrote"


def test_a_foreign_writer_holding_the_file_is_a_busy_in_bounded_time(sqlite_url):
    import sqlite3

    other = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    db = Database(sqlite_url, write_wait=0.5)
    try:
        waited, error = timed_write(db)
    finally:
        other.execute("ROLLBACK")
        other.close()
        db.dispose()

    assert isinstance(error, Busy) and waited < 3


@pytest.fixture
def slow_lock_app(settings: Any) -> Iterator[Any]:
    if not settings.database_url.startswith("sqlite"):
        pytest.skip("the write lock is SQLite's")
    app = make_app(replace(settings, write_wait=0.3))
    yield app
    app.extensions["pbem"].db.dispose()


def test_a_request_that_cannot_write_in_time_is_a_503_with_retry_after(slow_lock_app):
    app = slow_lock_app
    public_id = start(app)
    tok, action = token(app, public_id), legal(app, public_id)[0]
    client = app.test_client()

    with writing_in_a_thread(app.extensions["pbem"].db):
        started = time.monotonic()
        response = client.post(f"/api/play/{tok}", json={"action": action})
        waited = time.monotonic() - started

    assert response.status_code == 503 and waited < 1.5
    assert response.json["error"] == "busy"
    assert int(response.headers["Retry-After"]) > 0
    assert response.json["message"] == "the server is busy; try again in 5 seconds"
    again = client.post(f"/api/play/{tok}", json={"action": action})
    assert again.status_code == 200, "once the other write is over, the move lands"


def test_a_busy_answer_names_no_process_nor_command_line_but_the_log_does(
    slow_lock_app, caplog
):
    app = slow_lock_app
    public_id = start(app)
    tok, action = token(app, public_id), legal(app, public_id)[0]
    url = app.extensions["pbem"].settings.database_url
    client = app.test_client()

    with writing_in_another_process(url) as pid:
        api = client.post(f"/api/play/{tok}", json={"action": action})
        page = client.get(f"/play/{tok}")
        form = client.post(f"/play/{tok}", data={"action": action,
                                                  "csrf": csrf_in(page.get_data(as_text=True))})

    for response in (api, form):
        text = response.get_data(as_text=True)
        assert response.status_code == 503, text
        assert "busy" in text and "try again in 5 seconds" in text
        for leak in (f"pid {pid}", sys.executable, "import sys", "sqlalchemy"):
            assert leak not in text, leak
    logged = [r.getMessage() for r in caplog.records if "busy" in r.getMessage()]
    assert any(f"pid {pid}" in line for line in logged), "the server's log names the holder"


def test_commands_say_the_database_is_busy_instead_of_a_traceback(slow_lock_app):
    app = slow_lock_app
    start(app)
    runner = app.test_cli_runner()
    url = app.extensions["pbem"].settings.database_url

    with writing_in_another_process(url):
        results = {
            command: runner.invoke(args=[command]) for command in ("send-mail", "tick")
        }
        piped = runner.invoke(args=["ingest-mail"], input=b"To: pbem+x@localhost\r\n\r\nhi")

    for command, result in results.items():
        assert result.exit_code == 1, (command, result.output)
        assert "busy" in result.output and "pid " in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
    assert piped.exit_code == 75 and "busy" in piped.output, piped.output  # EX_TEMPFAIL


def test_a_lock_file_removed_between_turns_is_opened_anew(sqlite_url):
    db = Database(sqlite_url, write_wait=0.5)
    try:
        assert timed_write(db)[1] is None  # this process now keeps the lock file open
        lock_file = Path(sqlite_url.removeprefix("sqlite:///") + ".write-lock")
        lock_file.unlink()
        with writing_in_another_process(sqlite_url) as pid:
            waited, error = timed_write(db)
    finally:
        db.dispose()

    assert isinstance(error, Busy), "a lock on the removed file must not count as the turn"
    assert f"pid {pid}" in error.holder


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forking is POSIX")
def test_a_forked_child_does_not_share_its_parents_turn(tmp_path):
    lock = WriteLock.of(str(tmp_path / "fork.db"))
    with lock.hold(1.0):
        pass  # the parent has opened the lock file before the fork, as a server would
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child process
        try:
            with lock.hold(5.0):
                os.write(writer, b"in")
                time.sleep(1.0)
        finally:
            os._exit(0)
    try:
        os.close(writer)
        assert os.read(reader, 2) == b"in"
        with pytest.raises(Busy), lock.hold(0.3):
            pass
    finally:
        os.waitpid(child, 0)
        os.close(reader)
    with lock.hold(1.0):
        pass  # once the child is gone, the parent writes again
