"""The registry: built-in games, games of installed packages, and entry points that fail."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from engine.games import BUILT_IN, problems, refresh

POINTS = {
    "no-module": "no_such_module:GAME",
    "not-a-registration": "json:dumps",
    "martian-dice": "plugs:DUPLICATE",
    "misnamed": "plugs:OTHER",
}


@pytest.fixture
def broken_plugins(tmp_path: Path) -> Iterator[None]:
    """An installed package whose four entry points each fail in its own way."""
    (tmp_path / "plugs.py").write_text(
        "from engine import Registration\n"
        'DUPLICATE = Registration("martian-dice", "engine.games.martian_dice")\n'
        'OTHER = Registration("other", "engine.games.frisby")\n'
    )
    info = tmp_path / "plugs-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: plugs\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[pbem.games]\n" + "".join(f"{k} = {v}\n" for k, v in POINTS.items())
    )
    sys.path.insert(0, str(tmp_path))
    importlib.invalidate_caches()
    refresh()
    yield
    sys.path.remove(str(tmp_path))
    sys.modules.pop("plugs", None)
    importlib.invalidate_caches()
    refresh()


def test_the_built_in_games_come_first_in_their_order():
    assert tuple(engine.GAMES)[: len(BUILT_IN)] == tuple(r.kind for r in BUILT_IN)
    assert "martian-dice" in engine.GAMES and engine.GAMES[0] == "martian-frisby"


def test_each_broken_entry_point_is_left_out_and_says_why(broken_plugins):
    found = problems()

    assert tuple(engine.GAMES) == tuple(r.kind for r in BUILT_IN)
    assert "does not load" in found["no-module"]
    assert "is not an engine Registration" in found["not-a-registration"]
    assert "built in" in found["martian-dice"]
    assert "registers 'other'" in found["misnamed"]
    assert engine.rules_for("martian-dice").kind == "martian-dice"  # the built-in one


def test_asking_for_a_broken_plugins_game_names_the_reason(broken_plugins):
    with pytest.raises(engine.UnknownGame, match="no-module.*does not load"):
        engine.rules_for("no-module")


def test_a_built_in_game_is_found_without_reading_installed_packages(monkeypatch):
    refresh()
    monkeypatch.setattr("engine.games._versions", {})  # nothing cached: found afresh
    monkeypatch.setattr("engine.games._installed", lambda: pytest.fail("entry points read"))
    assert engine.rules_for("mad-dog").title == "Mad Dog"
