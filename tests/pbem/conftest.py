"""Fixtures for the pipe's tests: an app whose mail goes to the real SMTP sink."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from pbem import create_app


@pytest.fixture
def smtp_settings(settings: Any, smtp_sink: Any) -> Any:
    """The test settings with mail going to the SMTP sink."""
    return replace(settings, smtp_url=smtp_sink.url)


@pytest.fixture
def smtp_app(smtp_settings: Any) -> Iterator[Any]:
    """An app (on each database) whose mail goes to the SMTP sink."""
    app = create_app({"SETTINGS": smtp_settings, "TESTING": True})
    yield app
    app.extensions["pbem"].db.dispose()
