"""gunicorn.conf.py: threaded workers, one per core unless the environment says otherwise."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest

CONF = Path(__file__).resolve().parents[3] / "gunicorn.conf.py"


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    for name in ("WEB_CONCURRENCY", "PBEM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(CONF))


def test_by_default_one_threaded_worker_per_core_keeps_connections(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 2)

    conf = settings(monkeypatch)

    assert (conf["worker_class"], conf["workers"], conf["threads"]) == ("gthread", 2, 4)
    assert conf["keepalive"] > 0


def test_an_unknown_core_count_still_starts_one_worker(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: None)

    assert settings(monkeypatch)["workers"] == 1


def test_the_environment_sets_the_workers_and_threads(monkeypatch):
    conf = settings(monkeypatch, WEB_CONCURRENCY="3", PBEM_THREADS="8")

    assert (conf["workers"], conf["threads"]) == (3, 8)
