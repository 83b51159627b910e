"""End-to-end fixtures: a real `pbem serve` process, a real SMTP sink, headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import CHROMIUM, CHROMIUM_ARGS, Server, in_ci, serving
from tests.smtp_sink import SmtpSink


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
    with serving(sink, tmp_path_factory.mktemp("pbem-e2e")) as running:
        yield running


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
