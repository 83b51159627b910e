"""What a process keeps in memory for each database it talks to (tests and tools may open
several), forgotten with the database's engine."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from sqlalchemy import Engine
from sqlalchemy.orm import Session

T = TypeVar("T")


class PerDatabase(Generic[T]):
    """One T per database engine, made on first use."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._by_engine: weakref.WeakKeyDictionary[Engine, T] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def of(self, session: Session) -> T:
        """What is kept for the session's database."""
        engine = session.get_bind().engine
        with self._lock:
            kept = self._by_engine.get(engine)
            if kept is None:
                kept = self._by_engine[engine] = self._make()
            return kept

    def clear(self) -> None:
        """Forget what is kept for every database."""
        with self._lock:
            self._by_engine.clear()
