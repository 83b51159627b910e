"""A sixth game in its own package, installed here, plays end to end through the server.

Dice Race (this folder) is found only through its package's entry point: nothing outside
tests/toy_game/ names it. Installed into a fresh folder on sys.path the way pip installs a
package (its code beside a dist-info that lists its entry points), it keeps the engine's
and the server's contracts, and is played by move link and by reply mail, shown on every
page, audited, rated, and played as a duplicate Swiss.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

import engine
from engine.games import problems, refresh
from engine.testing import play_randomly
from pbem.log.games import load
from pbem.models import Tournament
from pbem.tournaments import simulate
from tests.engine.test_contract import check_every_step
from tests.pbem.games.contract import shortcomings
from tests.pbem.pipe import csrf_in, link_in, log, outbox, path_of, sign_in, svc_of

HERE = Path(__file__).parent
KIND = "dice-race"


def install(target: Path) -> None:
    """Install the package as pip does: its code, and a dist-info naming its entry points."""
    project = tomllib.loads((HERE / "pyproject.toml").read_text())["project"]
    shutil.copytree(HERE / "dice_race", target / "dice_race")
    info = target / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in points.items())
        for group, points in project["entry-points"].items()
    ))


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Dice Race installed on sys.path for this module's tests, and removed after them."""
    target = tmp_path_factory.mktemp("site-packages")
    install(target)
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    refresh()
    yield target
    sys.path.remove(str(target))
    for name in [m for m in sys.modules if m.split(".")[0] == "dice_race"]:
        del sys.modules[name]
    importlib.invalidate_caches()
    refresh()


def test_without_its_package_there_is_no_sixth_game():
    assert KIND not in engine.GAMES
    with pytest.raises(engine.UnknownGame, match="unknown game 'dice-race'"):
        engine.rules_for(KIND)


def test_the_installed_package_adds_a_game_that_keeps_the_engine_and_server_contracts(
    installed,
):
    assert list(engine.GAMES)[-1] == KIND and problems() == {}
    assert shortcomings(KIND) == []
    rules = engine.rules_for(KIND)
    for seats in rules.seats:
        played = play_randomly(rules, seats, random.Random(seats), {"length": 10},
                               resign_rate=0.05)
        assert played.finished
        check_every_step(rules, seats, {"length": 10}, played.events)


def reply(mail, line: str) -> bytes:
    """A player's answer to a turn mail, as a mail client writes it."""
    message = EmailMessage()
    message["From"] = mail.to_addr
    message["To"] = json.loads(mail.headers)["Reply-To"]
    message["Subject"] = "Re: " + mail.subject
    message["Message-ID"] = f"<reply.{mail.id}@player.example>"
    message.set_content(f"{line}\n\nOn Monday, pbem wrote:\n> It is your move")
    return bytes(message)


def test_a_game_is_played_by_link_and_by_mail_and_shown_audited_and_rated(
    installed, app, client, runner
):
    sign_in(app, client, "ann@example.org")
    form = client.get("/games/new").get_data(as_text=True)
    assert "Dice Race" in form and f'value="{KIND}"' in form
    made = client.post("/games/new", data={
        "kind": KIND, f"preset_{KIND}": "sprint", "csrf": csrf_in(form),
        "email0": "ann@example.org", "name0": "Ann", "email1": "bob@example.org", "name1": "Bob",
    })
    assert made.status_code == 302, made.get_data(as_text=True)
    public_id = made.headers["Location"].rsplit("/", 1)[-1]

    # Mail: the invitations, then Red's turn with the game's own text board and help.
    assert len(outbox(app, purpose="invite")) == 2
    (turn,) = outbox(app, purpose="turn")
    assert "[..........] 0 of 10" in turn.body_text and "Dice: " in turn.body_text
    assert "Write the die you move by" in turn.body_text
    assert "; you can play your whole turn in" in turn.body_text
    assert "of 10</td>" in turn.body_html and "Dice Race" in turn.subject

    # Red plays by the mailed link: the page shows the game's board and a button per die.
    page = client.get(path_of(link_in(turn.body_text, "play")))
    body = page.get_data(as_text=True)
    assert page.status_code == 200 and 'class="dice-race"' in body
    with svc_of(app).db.read() as s:
        loaded = load(s, public_id)
        first = loaded.rules.legal(loaded.state, 0)[0]
    played = client.post(path_of(link_in(turn.body_text, "play")),
                         data={"choice": first, "csrf": csrf_in(body)})
    assert played.status_code == 303

    # Blue plays by replying to the turn mail.
    blue = outbox(app, purpose="turn", to_addr="bob@example.org")[-1]
    with svc_of(app).db.read() as s:
        loaded = load(s, public_id)
        die = loaded.rules.legal(loaded.state, 1)[-1]
    answer = runner.invoke(args=["ingest-mail"], input=reply(blue, f"move {die}"))
    assert answer.exit_code == 0 and answer.output.startswith("reply, played"), answer.output
    moves = [e for e in log(app, public_id) if e.kind == "move"]
    assert [(e.seat, e.payload["action"]) for e in moves] == [(0, first), (1, die)]

    simulate.play_out(svc_of(app), public_id)
    assert len(outbox(app, purpose="result")) == 2

    game = client.get(f"/games/{public_id}").get_data(as_text=True)
    assert "reached the finish" in game and "Overshooting" in game  # its outcome and rulings
    assert "the larger of each turn&#39;s two dice against 4.47" in game  # its luck model
    history = client.get(f"/games/{public_id}/history").get_data(as_text=True)
    assert f"Red moves {first}, from 0 to {first}" in history
    audit = client.get(f"/games/{public_id}/audit").get_data(as_text=True)
    assert "✔" in audit and "✘" not in audit
    assert runner.invoke(args=["verify", public_id]).exit_code == 0
    shown = runner.invoke(args=["show", public_id])
    assert shown.exit_code == 0 and "of 10" in shown.output and "reached the finish" in shown.output
    rules_page = client.get(f"/rules/{KIND}").get_data(as_text=True)
    assert "A tiny race for 2 to 4 players" in rules_page and "move your rider" in rules_page
    ratings = client.get(f"/ratings?kind={KIND}").get_data(as_text=True)
    assert "Bob" in ratings and ratings.count("(provisional)</span></td><td>1</td>") == 2


def test_a_duplicate_swiss_of_it_runs_to_its_end_with_its_boards(installed, app, client, runner):
    done = runner.invoke(args=["tournament", "simulate", "swiss", KIND, "--players", "4",
                               "--rounds", "2", "--duplicate"])
    assert done.exit_code == 0, done.output
    assert "4 games" in done.output

    with svc_of(app).db.read() as s:
        public_id = s.scalars(select(Tournament.public_id)).one()
    home = client.get(f"/tournaments/{public_id}")
    assert home.status_code == 200 and KIND in home.get_data(as_text=True)
    board = client.get(f"/tournaments/{public_id}/boards/1").get_data(as_text=True)
    assert "Seat 1" in board and "MP</strong>" in board and "Faces:" not in board


@pytest.mark.slow
def test_pip_installs_the_package_with_the_entry_point_the_fast_tests_write(tmp_path):
    """The quick install above writes what pip writes: checked with pip itself (slow)."""
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target"]
    subprocess.run([*pip, str(tmp_path / "pip"), str(HERE)], check=True)
    install(tmp_path / "quick")
    (found,) = (tmp_path / "pip").glob("*.dist-info")
    (written,) = (tmp_path / "quick").glob("*.dist-info")
    assert found.name == written.name
    assert (found / "entry_points.txt").read_text().split() == (
        written / "entry_points.txt").read_text().split()
    listed = subprocess.run(
        [sys.executable, "-c", "import engine; print(list(engine.GAMES))"],
        env={**os.environ, "PYTHONPATH": str(tmp_path / "pip")},
        check=True, capture_output=True, text=True,
    )
    assert "'dice-race'" in listed.stdout
