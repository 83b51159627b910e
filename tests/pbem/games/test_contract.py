"""Every registered game provides what the server needs, and a game that does not is named."""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine
from pbem.games import site as sites
from tests.pbem.games.contract import PROVIDES, shortcomings


@pytest.mark.parametrize("kind", engine.GAMES)
def test_every_registered_game_provides_each_piece_the_server_needs(kind):
    assert shortcomings(kind) == [], "\n".join(PROVIDES)


def test_a_game_missing_a_board_template_is_named_with_the_missing_template(
    monkeypatch, tmp_path
):
    real = sites.site_for("martian-frisby")
    for name in ("rulings.md", "notation.md", "rulebook.txt"):
        (tmp_path / name).write_text(real.read(name))
    (tmp_path / "templates").mkdir()
    for name in ("board.txt", "mail.html", "howto.txt"):
        (tmp_path / "templates" / name).write_text(real.template(name).read_text())
    broken = replace(real, folder=tmp_path)
    monkeypatch.setattr(sites, "_loaded", lambda entry: broken)

    found = shortcomings("martian-frisby")

    assert found == [f"martian-frisby: its folder {tmp_path} lacks templates/board.html"]


def test_a_game_whose_rulings_leave_out_an_option_is_named_with_the_option(monkeypatch, tmp_path):
    real = sites.site_for("martian-dice")
    for name in ("notation.md", "rulebook.txt"):
        (tmp_path / name).write_text(real.read(name))
    (tmp_path / "rulings.md").write_text(real.read("rulings.md").replace("`duel_retie`", "x"))
    (tmp_path / "templates").symlink_to(real.folder / "templates")
    monkeypatch.setattr(sites, "_loaded", lambda entry: replace(real, folder=tmp_path))

    assert shortcomings("martian-dice") == [
        "martian-dice: its rulings (rulings.md) do not name the option 'duel_retie'"
    ]


def test_a_game_registered_without_a_site_is_named(monkeypatch):
    entry = engine.Registration("martian-frisby", "engine.games.frisby")
    monkeypatch.setattr(sites, "registration", lambda kind: entry)

    assert shortcomings("martian-frisby") == [
        "martian-frisby registers no site (the server side: boards, help, rulings)"
    ]
