"""Database engines and transactions: SQLite in WAL mode with one writer, or PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from .errors import StaleTurn


class Database:
    """One database: a session factory for reads and a serialized one for writes."""

    def __init__(self, url: str, **engine_options: Any) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            engine_options.setdefault("connect_args", {"check_same_thread": False})
        self.engine: Engine = create_engine(url, **engine_options)
        if self.is_sqlite:
            _configure_sqlite(self.engine)
        # SQLite before 3.51.3 can corrupt a WAL database when several connections write at
        # once, so every write in this process takes this lock; other processes must not write.
        self._write_lock = threading.RLock()
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
        lock = self._write_lock if self.is_sqlite else None
        if lock is not None:
            lock.acquire()
        try:
            with self._writer() as session, session.begin():
                yield session
        except IntegrityError as e:
            # A key refused a write at commit: another writer got there first.
            raise StaleTurn(
                "this turn was already played: another change landed at the same moment"
            ) from e
        finally:
            if lock is not None:
                lock.release()

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control from the driver so that BEGIN is ours to issue.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")
