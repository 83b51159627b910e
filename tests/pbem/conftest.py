"""Fixtures for the pipe's tests: an app whose mail goes to the real SMTP sink."""

from __future__ import annotations

import hashlib
import itertools
import os
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import select

from pbem.log import dice
from pbem.models import Game
from pbem.play import start
from tests.conftest import make_app


@pytest.fixture(autouse=True)
def reproducible_seeds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dice seeds derived from the test's id, so a failure replays exactly.

    A test marked `real_seeds` keeps the secret generator; PBEM_TEST_RANDOM_SEEDS=1 gives
    every test fresh random seeds (worth a run now and then, to shake out luck).
    """
    if request.node.get_closest_marker("real_seeds") or os.environ.get("PBEM_TEST_RANDOM_SEEDS"):
        return
    counter = itertools.count()

    def seed() -> str:
        text = f"{request.node.nodeid}#{next(counter)}"
        return hashlib.sha256(text.encode()).hexdigest()

    def public_id(session: Any) -> str:
        while True:  # as the real one: skip an id already taken
            text = f"{request.node.nodeid}#game{next(counter)}"
            candidate = hashlib.sha256(text.encode()).hexdigest()[:10]
            if not session.scalar(select(Game.id).where(Game.public_id == candidate)):
                return candidate

    monkeypatch.setattr(dice, "new_seed", seed)
    # A game's own dice stream is named after its id, so the id must be reproducible too.
    monkeypatch.setattr(start, "new_public_id", public_id)


@pytest.fixture
def smtp_settings(settings: Any, smtp_sink: Any) -> Any:
    """The test settings with mail going to the SMTP sink."""
    return replace(settings, smtp_url=smtp_sink.url)


@pytest.fixture
def smtp_app(smtp_settings: Any) -> Iterator[Any]:
    """An app (on each database) whose mail goes to the SMTP sink."""
    app = make_app(smtp_settings)
    yield app
    app.extensions["pbem"].db.dispose()
