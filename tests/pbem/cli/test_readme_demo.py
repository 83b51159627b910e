"""The README's three commands give a fresh server a duplicate event with all its pages."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from pbem.config import load_settings
from pbem.web.app import create_app

from ...conftest import TEST_KEY, PbemCliRunner

README = Path(__file__).resolve().parents[3] / "README.md"


def readme_commands() -> list[list[str]]:
    """The `pbem` commands of the README's block that starts with `pbem db upgrade`."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(), flags=re.S)
    block = next(b for b in blocks if b.startswith("pbem db upgrade"))
    return [shlex.split(line)[1:] for line in block.splitlines() if line.startswith("pbem ")]


def links(page: str, pattern: str) -> list[str]:
    return re.findall(rf'href="({pattern})"', page)


def test_the_readme_commands_give_a_fresh_server_a_duplicate_event_to_show(tmp_path):
    commands = readme_commands()
    assert [c[:2] for c in commands] == [["db", "upgrade"], ["tournament", "simulate"],
                                         ["serve"]]
    settings = load_settings({"PBEM_INSTANCE_PATH": str(tmp_path / "instance"),
                              "PBEM_SECRET_KEY": TEST_KEY})
    app = create_app({"SETTINGS": settings, "TESTING": True})
    app.test_cli_runner_class = PbemCliRunner
    runner, client = app.test_cli_runner(), app.test_client()
    try:
        for args in commands[:-1]:  # `pbem serve` serves what the test client fetches here
            result = runner.invoke(args=args)
            assert result.exit_code == 0, (args, result.output)

        leaderboard = client.get("/ratings?kind=martian-dice").get_data(as_text=True)
        players = links(leaderboard, r"/players/\d+")
        assert len(players) == 8
        card = client.get(players[0]).get_data(as_text=True)
        assert "<svg" in card and "Running total" in card

        event = links(client.get("/tournaments/").get_data(as_text=True), r"/tournaments/t\w+")[0]
        boards = links(client.get(event).get_data(as_text=True), rf"{event}/boards/\d+")
        assert sorted(set(boards)) == [f"{event}/boards/{n}" for n in (1, 2, 3)]
        board = client.get(boards[0]).get_data(as_text=True)
        assert "Matchpoints" in board and "Luck" in board
        game = links(board, r"/games/[0-9a-f]{10}")[0]
        assert "<h2>Luck</h2>" in client.get(game).get_data(as_text=True)
        assert "6-sided dice:" in client.get("/audit/dice").get_data(as_text=True)
        luck = client.get(f"/api{game}/luck")
        assert luck.status_code == 200 and len(luck.get_json()["seats"]) == 2
    finally:
        app.extensions["pbem"].db.dispose()
