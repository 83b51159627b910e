"""Fixtures of the log's tests: genuine exports of finished games."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from pbem.config import load_settings
from pbem.db import Database, migrate
from pbem.log.games import load
from pbem.play.act import submit
from pbem.play.start import start_game
from tests.conftest import TEST_KEY, make_app

from ..pipe import resign_until_over


def play_to_the_end(app: Any, kind: str, players: list[tuple[str, str]], **kw: Any) -> str:
    """A game played with its first legal actions until someone resigns; its export."""
    svc = app.extensions["pbem"]
    public_id = svc.write(lambda s: start_game(s, svc.ctx, kind, players, **kw).game.public_id)
    for _ in range(6):
        with svc.db.read() as s:
            loaded = load(s, public_id)
            seat = loaded.awaited()[0]
            grant, action = loaded.grant(seat), loaded.rules.legal(loaded.state, seat)[0]
        svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
    resign_until_over(app, public_id)
    return app.test_client().get(f"/games/{public_id}/log.jsonl").get_data(as_text=True)


@pytest.fixture(scope="session")
def finished_exports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Genuine exports of finished games, made once for the run on their own server."""
    root = tmp_path_factory.mktemp("forged")
    url = f"sqlite:///{root / 'source.db'}"
    db = Database(url)
    migrate.upgrade(db.engine)
    db.dispose()
    settings = load_settings({"PBEM_INSTANCE_PATH": str(root), "PBEM_SECRET_KEY": TEST_KEY})
    app = make_app(replace(settings, database_url=url))
    try:
        yield {
            "frisby": play_to_the_end(
                app, "martian-frisby", [("ann@example.org", "Ann"), ("bob@example.org", "Bob")]
            ),
            "martianopolis": play_to_the_end(
                app,
                "martianopolis-500",
                [("r@example.org", "Rae"), ("y@example.org", "Yul"), ("b@example.org", "Bo")],
            ),
        }
    finally:
        app.extensions["pbem"].db.dispose()
