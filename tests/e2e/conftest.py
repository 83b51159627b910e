"""End-to-end fixtures: a real `pbem serve` process, a real SMTP sink, headless Chromium."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PBEM,
    Server,
    in_ci,
    stop,
    wait_until_up,
)
from tests.smtp_sink import SmtpSink, free_port


@pytest.fixture(scope="module")
def chromium_path() -> Path:
    """The system Chromium; a skip without it, except in CI where it is a failure."""
    if not CHROMIUM.exists():
        message = f"the end-to-end browser tests need Chromium at {CHROMIUM}"
        if in_ci():
            pytest.fail(f"{message} (CI=true: install the chromium package)")
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(scope="module")
def sink() -> Iterator[SmtpSink]:
    """A real SMTP server on 127.0.0.1 that keeps every mail the server sends."""
    sink = SmtpSink().start()
    try:
        yield sink
    finally:
        sink.stop()


@pytest.fixture(scope="module")
def server(sink: SmtpSink, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real `pbem serve` on a free port, SQLite in a temporary instance, mail to the sink."""
    root = tmp_path_factory.mktemp("pbem-e2e")
    instance = root / "instance"
    database = root / "pbem.db"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "FLASK_"))} | {
        "PBEM_INSTANCE_PATH": str(instance),
        "PBEM_DATABASE_URL": f"sqlite:///{database}",
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


@pytest.fixture(scope="module")
def browser(chromium_path: Path) -> Iterator[Any]:
    """Headless Chromium, shared by the tests of a module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
