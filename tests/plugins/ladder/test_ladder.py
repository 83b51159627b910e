"""The ladder, a format from its own installed package, run end to end through the server.

The package beside this file is installed the way pip lays out a wheel (the code and a
`.dist-info` with its entry points) into a temporary directory on `sys.path`; the registry
finds it through the entry-point group `pbem.formats`. Nothing outside this folder names it.
"""

from __future__ import annotations

import shutil
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.tournaments import simulate
from pbem.tournaments.core import formats
from pbem.tournaments.core.contract import Format
from tests.pbem.pipe import csrf_in, sign_in, svc_of
from tests.pbem.tournaments.test_format_contract import names, playable, played

HERE = Path(__file__).parent
PLAYERS = ["Ann <ann@example.org>", "Bob <bob@example.org>", "Cy <cy@example.org>",
           "Di <di@example.org>"]


def install(target: Path) -> None:
    """Lay the package out as an installed distribution: its code and its .dist-info."""
    project = tomllib.loads((HERE / "pyproject.toml").read_text())["project"]
    shutil.copytree(HERE / "pbem_ladder", target / "pbem_ladder")
    info = target / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                   f"Version: {project['version']}\n")
    lines = [f"[{group}]" + "".join(f"\n{k} = {v}" for k, v in points.items())
             for group, points in project["entry-points"].items()]
    (info / "entry_points.txt").write_text("\n\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site-packages")
    install(target)
    return target


@pytest.fixture
def ladder(site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Format]:
    """The ladder installed and registered for one test, and forgotten after it."""
    monkeypatch.syspath_prepend(str(site))
    formats.discover()
    yield formats.format_for("ladder")
    monkeypatch.undo()
    sys.modules.pop("pbem_ladder", None)
    formats.discover()


def test_the_installed_ladder_is_registered_from_its_entry_point(ladder):
    assert type(ladder).__module__ == "pbem_ladder"
    assert ladder.system in [f.system for f in formats.formats()]
    assert formats.problems() == ()


def test_the_command_line_lists_the_ladder_and_creates_one_with_its_settings(runner, ladder):
    listed = runner.invoke(args=["tournament", "formats"])
    made = runner.invoke(args=["tournament", "create", "Club ladder", "--system", "ladder",
                               "--kind", "martian-dice", "--director", "dee@example.org",
                               "--setting", "reach=3", "--setting", "challenges=1"])
    refused = runner.invoke(args=["tournament", "create", "Club ladder", "--system", "ladder",
                                  "--kind", "martian-dice", "--director", "dee@example.org",
                                  "--setting", "reach=3", "--tables", "3,4"])

    assert "ladder: Ladder: challenge anyone up to k rungs above you" in listed.output
    assert "--reach (a whole number): how far up a player may challenge" in listed.output
    assert made.exit_code == 0, made.output
    assert refused.exit_code == 1 and "a ladder seats two players a game" in refused.output


def test_the_ladder_keeps_the_format_contract(ladder):
    lacking = names(ladder)
    shapes = playable(ladder)
    assert shapes == [(2,)], "a ladder seats two players a game"
    for seed in range(3):
        lacking += played(ladder, (2,), seed)
    assert not lacking, "; ".join(lacking)


def the_ladder_from(results: dict[str, Any]) -> list[str]:
    """The rules again, read from the results export alone: who stands on which rung."""
    rungs = [p["id"] for p in results["players"]]
    counted = [g for g in results["games"] if g["finished_at"] and "annulled" not in g["flags"]]
    for game in sorted(counted, key=lambda g: g["finished_at"]):
        challenger, defender = (s for s in sorted(game["seats"], key=lambda s: s["seat"]))
        if challenger["rank"] < defender["rank"]:
            high = rungs.index(defender["player"])
            rungs.insert(high, rungs.pop(rungs.index(challenger["player"])))
    return rungs


def test_a_ladder_is_created_entered_played_ranked_and_verified_through_the_server(
    app, client, runner, ladder
):
    sign_in(app, client, "dee@example.org")
    form = client.get("/tournaments/new").get_data(as_text=True)
    assert "Ladder: challenge anyone up to k rungs above you" in form
    assert 'name="reach"' in form and "Challenge up to (rungs above)" in form
    made = client.post("/tournaments/new", data={
        "name": "Autumn ladder", "system": "ladder", "kind": "martian-frisby", "reach": "2",
        "challenges": "2", "deadline_hours": "48", "timeout_policy": "forfeit", "rated": "on",
        "csrf": csrf_in(form)})
    assert made.status_code == 303, made.get_data(as_text=True)
    public_id = made.headers["Location"].rsplit("/", 1)[-1]

    entered = runner.invoke(args=["tournament", "register", public_id, *PLAYERS])
    assert entered.output.strip() == "4 players registered"
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    assert "Ladder of Martian Frisby" in home
    assert "challenge anyone up to 2 rungs above" in home and "2 challenges" in home
    director = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    started = client.post(f"/tournaments/{public_id}/director",
                          data={"action": "start", "csrf": csrf_in(director)})
    assert started.status_code == 303

    svc = svc_of(app)
    for game in simulate.games_until_done(svc, public_id):
        simulate.play_out(svc, game)

    results = client.get(f"/api/tournaments/{public_id}/results").get_json()
    standings = client.get(f"/tournaments/{public_id}/standings").get_data(as_text=True)
    verified = runner.invoke(args=["tournament", "verify", public_id])
    listed = client.get("/api/tournaments").get_json()
    ladder_now = the_ladder_from(results)
    challengers = [min(g["seats"], key=lambda s: s["seat"])["player"] for g in results["games"]]

    assert results["system"] == "ladder"
    assert all(g["finished_at"] and g["seats"][0]["rank"] for g in results["games"])
    assert [s["player"] for s in results["standings"]] == ladder_now
    assert all(challengers.count(p) == 2 for p in ladder_now[1:]), challengers
    assert "Order: the ladder, top rung first" in standings
    assert "rung 1: " in standings and "rung 4: " in standings
    names_in_order = [p["name"] for p in sorted(results["players"],
                                                 key=lambda p: ladder_now.index(p["id"]))]
    assert [standings.index(f">{n}</a>") for n in names_in_order] == sorted(
        standings.index(f">{n}</a>") for n in names_in_order)
    assert verified.exit_code == 0, verified.output
    assert "pairings re-derived alike" in verified.output
    assert next(t for t in listed if t["id"] == public_id)["status"] == "closed"
