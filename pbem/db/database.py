"""Database engines and transactions: SQLite in WAL mode with writers taking turns, or PostgreSQL.

SQLite releases before 3.51.3 can corrupt a WAL database when two connections write (or
checkpoint) at the same moment. So every write to a SQLite file takes its turn: first
among the threads of this process, then among processes, through an OS lock on a file
beside the database (`<database>.write-lock`). The lock is taken for one transaction at a
time, so `pbem serve`, `pbem send-mail`, `pbem tick` and the other commands may all write
the same file; they take turns. Each turn is waited for at most `write_wait` seconds;
after that the write fails with Busy (a 503 with Retry-After), never a hang.
"""

from __future__ import annotations

import fcntl
import os
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from ..errors import Busy, StaleTurn

WRITE_WAIT = 5.0  # seconds a write waits for its turn before giving up
NOTE = 256  # bytes of the lock file saying which process writes


class Database:
    """One database: a session factory for reads and one for writes, which take turns."""

    def __init__(self, url: str, *, write_wait: float = WRITE_WAIT, **engine_options: Any):
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.write_wait = write_wait
        if self.is_sqlite:
            engine_options.setdefault("connect_args", {"check_same_thread": False})
        self.engine: Engine = create_engine(url, **engine_options)
        self._lock: WriteLock | None = None
        if self.is_sqlite:
            _configure_sqlite(self.engine, write_wait)
            self._lock = WriteLock.of(self.engine.url.database)
        self._reader = sessionmaker(self.engine, expire_on_commit=False)
        writer = self.engine.execution_options(sqlite_begin="IMMEDIATE")
        self._writer = sessionmaker(writer, expire_on_commit=False)

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session for reading; it never commits."""
        with self._reader() as session:
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A session whose work commits at the end of the block, or rolls back on error."""
        with self.turn():
            try:
                with self._writer() as session, session.begin():
                    yield session
            except IntegrityError as e:
                # A key refused a write at commit: another writer got there first.
                raise StaleTurn(
                    "this turn was already played: another change landed at the same moment"
                ) from e
            except OperationalError as e:
                if self.is_sqlite and "locked" in str(e.orig):
                    # Something that does not take turns (a sqlite3 shell, say) holds the file.
                    raise Busy(
                        f"another program has held the database for over {self.write_wait:g} s"
                    ) from e
                raise

    def turn(self) -> Any:
        """Wait (bounded) for this database's turn to write; the work done inside is alone."""
        return self._lock.hold(self.write_wait) if self._lock else nullcontext()

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


class WriteLock:
    """The turn to write one SQLite file: a lock among threads, then an OS lock among processes.

    An OS lock (flock) is released by the kernel when its process dies, so a crashed writer
    never leaves the database locked, unlike a file that merely exists.
    """

    _known: weakref.WeakValueDictionary[str, WriteLock] = weakref.WeakValueDictionary()
    _known_lock = threading.Lock()

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._threads = threading.RLock()
        self._depth = 0  # nested writes of the thread that holds the turn
        self._file = _OpenFile()  # the lock file, kept open between turns
        weakref.finalize(self, self._file.close)

    @classmethod
    def of(cls, database: str | None) -> WriteLock:
        """The one lock of a database file in this process (a new one for an in-memory one)."""
        if not database or database == ":memory:":
            return cls(None)
        path = Path(database).resolve()
        with cls._known_lock:
            lock = cls._known.get(str(path))
            if lock is None:
                lock = cls(path.with_name(path.name + ".write-lock"))
                cls._known[str(path)] = lock
            return lock

    @contextmanager
    def hold(self, wait: float) -> Iterator[None]:
        """Hold the turn for the block, waiting at most `wait` seconds for it; Busy if not."""
        deadline = time.monotonic() + wait
        if not self._threads.acquire(timeout=max(wait, 0.0)):
            raise Busy(f"other writes of this process have held the database for over {wait:g} s")
        try:
            locked = self._depth == 0 and self.path is not None
            if locked:
                self._lock_file(deadline, wait)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if locked:
                    self._file.unlock()
        finally:
            self._threads.release()

    def _lock_file(self, deadline: float, wait: float) -> None:
        """Take the OS lock on the lock file, opened once per process and kept open."""
        assert self.path is not None
        pause = 0.001
        while True:
            fd = self._file.open(self.path)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise Busy(
                        f"another process ({self._holder()}) has been writing the database "
                        f"for over {wait:g} s"
                    ) from None
                time.sleep(pause)
                pause = min(pause * 2, 0.02)
                continue
            if self._still_the_file(fd):
                break
            # Someone removed or replaced the lock file: a lock on the old one locks out
            # nobody who opens the new one. Open the file that is there now.
            self._file.close()
        # Say who writes, for the message of a process that has to wait. A fixed-size note
        # overwrites the last one without truncating the file (a truncate costs a metadata
        # write on every turn).
        os.pwrite(fd, f"pid {os.getpid()}: {' '.join(sys.argv)}".encode()[:NOTE].ljust(NOTE), 0)

    def _still_the_file(self, fd: int) -> bool:
        """Whether the locked descriptor is still the file at the lock's path."""
        assert self.path is not None
        try:
            return os.path.samestat(os.fstat(fd), os.stat(self.path))
        except FileNotFoundError:
            return False

    def _holder(self) -> str:
        assert self.path is not None
        try:
            return self.path.read_text(errors="replace").strip() or "unknown"
        except OSError:
            return "unknown"


class _OpenFile:
    """A lock file's descriptor in this process; a forked child opens its own.

    A child must not use its parent's descriptor: an flock belongs to the open file, which
    the two would share, so each would think it held the turn alone.
    """

    def __init__(self) -> None:
        self.fd: int | None = None
        self.pid = 0

    def open(self, path: Path) -> int:
        """This process's descriptor of the file, opened on first use."""
        if self.fd is None or self.pid != os.getpid():
            self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            self.pid = os.getpid()
        return self.fd

    def unlock(self) -> None:
        """Release this process's lock on the file."""
        if self.fd is not None and self.pid == os.getpid():
            fcntl.flock(self.fd, fcntl.LOCK_UN)

    def close(self) -> None:
        """Close the file if this process opened it (which releases any lock on it)."""
        if self.fd is not None and self.pid == os.getpid():
            try:
                os.close(self.fd)
            except OSError:
                pass
        self.fd = None


def _configure_sqlite(engine: Engine, write_wait: float) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control from the driver so that BEGIN is ours to issue.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={int(write_wait * 1000)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")
