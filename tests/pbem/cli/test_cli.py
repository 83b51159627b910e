"""The `pbem` command: new-game, show, play, export, verify, import and db upgrade."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, select, update

import engine
from pbem.db import Database, migrate
from pbem.models import Event, Game, RatedGameRow
from pbem.play import director
from tests.conftest import make_app

from ..pipe import (
    BASE,
    PLAYERS,
    awaited,
    game_row,
    illegal,
    legal,
    loaded,
    log,
    move,
    start,
    svc_of,
    token,
)


def run(runner: Any, *args: str) -> Any:
    return runner.invoke(args=list(args))


def finished_game(app: Any) -> str:
    """A game played to its end (a draw after four half-turns), with the seed revealed."""
    public_id = start(app, options={"max_turns": 4})
    while game_row(app, public_id).status == "active":
        move(app, public_id)
    assert log(app, public_id)[-1].kind == "reveal"
    return public_id


@pytest.fixture
def source_app(settings: Any, tmp_path: Path) -> Iterator[Any]:
    """Another server, on its own SQLite database, to export games from."""
    url = f"sqlite:///{tmp_path / 'source.db'}"
    db = Database(url)
    migrate.upgrade(db.engine)
    db.dispose()
    app = make_app(replace(settings, database_url=url))
    yield app
    app.extensions["pbem"].db.dispose()


def test_new_game_prints_the_id_and_url_and_mails_the_players(app, runner):
    result = run(
        runner,
        "new-game",
        "martian-frisby",
        "--player",
        "Ann <ann@example.org>",
        "--player",
        "bob@example.org",
        "--option",
        "max_turns=40",
    )

    assert result.exit_code == 0, result.output
    public_id, url = result.output.split()
    assert url == f"{BASE}/games/{public_id}"
    setup = log(app, public_id)[0].payload
    assert setup["players"][0] == "Ann" and re.fullmatch(r"Player \d+", setup["players"][1])
    assert setup["options"]["max_turns"] == 40
    assert len(loaded(app, public_id).awaited()) == 1


def test_new_game_with_mirror_starts_two_games_on_one_stream_with_the_seats_swapped(app, runner):
    players = ["--player", "Ann <ann@example.org>", "--player", "Bob <bob@example.org>"]
    result = run(runner, "new-game", "martian-frisby", *players, "--mirror")

    assert result.exit_code == 0, result.output
    first, _, second, _ = result.output.split()
    setups = [log(app, game)[0].payload for game in (first, second)]
    assert [s["players"] for s in setups] == [["Ann", "Bob"], ["Bob", "Ann"]]
    assert [s["dice_scheme"] for s in setups] == [2, 2]
    assert run(runner, "new-game", "martian-frisby", *players, "--dice-scheme", "3").exit_code


BAD_NEW_GAMES = [
    (["chess", "--player", "a@example.org", "--player", "b@example.org"], "chess"),
    (["martian-frisby", "--player", "a@example.org"], "2 players"),
    (
        ["martian-frisby", "--player", "a@x.org", "--player", "b@x.org", "--option", "x"],
        "KEY=VALUE",
    ),
    (
        ["martian-frisby", "--player", "a@x.org", "--player", "b@x.org"]
        + ["--option", "max_turns=many"],
        "max_turns",
    ),
]


def test_new_game_refuses_bad_arguments_with_a_message(app, runner):
    for args, words in BAD_NEW_GAMES:
        result = run(runner, "new-game", *args)

        assert result.exit_code != 0, args
        assert words in result.output, args
    with app.extensions["pbem"].db.read() as s:
        assert s.scalars(select(Game)).first() is None


def test_show_prints_the_position_and_who_must_act(app, runner):
    public_id = start(app)
    game = game_row(app, public_id)

    result = run(runner, "show", public_id)

    assert result.exit_code == 0, result.output
    assert f"Martian Frisby {public_id} (active), event {game.head_seq}" in result.output
    assert game.head_hash[:16] in result.output
    seats = [line.split(maxsplit=1) for line in result.output.splitlines()[1:3]]
    assert seats == [["South", f"{PLAYERS[0][1]} <{PLAYERS[0][0]}>"],
                     ["North", f"{PLAYERS[1][1]} <{PLAYERS[1][0]}>"]]  # who sits where
    assert "S1 S2 S3" in result.output and "N1 N2 N3" in result.output
    name = ("South", "North")[awaited(app, public_id)]
    assert f"the game waits for {name} (move)" in result.output


def test_show_of_an_unknown_game_fails(app, runner):
    result = run(runner, "show", "nosuchgame")

    assert result.exit_code == 1
    assert "there is no game 'nosuchgame'" in result.output


def test_play_acts_with_a_token_or_a_whole_link(app, runner):
    public_id = start(app)
    first = legal(app, public_id)[0]

    result = run(runner, "play", token(app, public_id), *first.split())

    assert result.exit_code == 0, result.output
    assert result.output.startswith(("South moves", "North moves"))
    second = legal(app, public_id)[0]
    link = f"{BASE}/play/{token(app, public_id)}"
    assert run(runner, "play", link, second).exit_code == 0
    moves = [e.payload["action"] for e in log(app, public_id) if e.kind == "move"]
    assert moves == [first, second]


def test_play_refuses_an_illegal_move_and_a_stale_token(app, runner):
    public_id = start(app)
    old = token(app, public_id)
    bad = run(runner, "play", old, illegal(app, public_id))
    assert bad.exit_code == 1 and "Error:" in bad.output
    assert run(runner, "play", old, legal(app, public_id)[0]).exit_code == 0
    before = log(app, public_id)

    stale = run(runner, "play", old, legal(app, public_id)[0])

    assert stale.exit_code == 1
    assert "already played" in stale.output
    assert log(app, public_id) == before


def test_export_writes_the_log_that_verify_accepts(app, runner, tmp_path):
    public_id = start(app)
    move(app, public_id)
    path = tmp_path / f"{public_id}.jsonl"

    exported = run(runner, "export", public_id, "-o", str(path))
    checked = run(runner, "verify", str(path))

    assert exported.exit_code == 0, exported.output
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0] == {
        "format": "pbem-log",
        "version": 2,
        "game": public_id,
        "kind": "martian-frisby",
        "rules_version": engine.rules_for("martian-frisby").version,
        "stream": public_id,
    }
    assert lines[1:] == [e.to_json() for e in log(app, public_id)]
    assert checked.exit_code == 0, checked.output
    assert f"OK: {len(lines) - 1} events, hash chain intact" in checked.output
    assert "seed not revealed yet" in checked.output
    assert run(runner, "export", public_id).output == path.read_text()


def test_verify_of_a_finished_game_checks_every_roll_against_the_seed(app, runner):
    public_id = finished_game(app)

    result = run(runner, "verify", public_id)

    assert result.exit_code == 0, result.output
    assert "every chance event matches the revealed seed" in result.output


def test_verify_names_the_seq_of_an_event_altered_in_the_database(app, runner):
    public_id = start(app)
    move(app, public_id)
    target = next(e for e in log(app, public_id) if e.kind == "move")
    with app.extensions["pbem"].db.write() as s:
        s.execute(
            update(Event)
            .where(Event.game_id == game_row(app, public_id).id, Event.seq == target.seq)
            .values(payload=json.dumps({"action": "a1-a2 b1-b2"}))
        )

    result = run(runner, "verify", public_id)

    assert result.exit_code == 1
    assert f"FAILED at seq {target.seq} (move)" in result.output


def test_verify_names_the_seq_of_a_roll_edited_in_an_export(app, runner, tmp_path):
    public_id = finished_game(app)
    path = tmp_path / "game.jsonl"
    run(runner, "export", public_id, "-o", str(path))
    lines = path.read_text().splitlines()
    events = [json.loads(line) for line in lines[1:]]
    roll = next(e for e in events if e["kind"] == "roll" and e["seq"] > 2)
    roll["payload"]["values"] = [7 - v for v in roll["payload"]["values"]]
    lines[roll["seq"] + 1] = json.dumps(roll)
    path.write_text("\n".join(lines) + "\n")

    result = run(runner, "verify", str(path))

    assert result.exit_code == 1
    assert f"FAILED at seq {roll['seq']} (roll)" in result.output


def test_an_exported_finished_game_imports_into_a_fresh_database(source_app, app, runner, tmp_path):
    public_id = finished_game(source_app)
    path = tmp_path / "finished.jsonl"
    exported = source_app.test_cli_runner().invoke(args=["export", public_id, "-o", str(path)])
    assert exported.exit_code == 0, exported.output

    imported = run(runner, "import", str(path))

    assert imported.exit_code == 0, imported.output
    assert imported.output.strip() == public_id
    assert log(app, public_id) == log(source_app, public_id)
    here, there = game_row(app, public_id), game_row(source_app, public_id)
    assert (here.head_seq, here.head_hash, here.status, here.chances) == (
        there.head_seq,
        there.head_hash,
        "finished",
        there.chances,
    )
    assert loaded(app, public_id).state == loaded(source_app, public_id).state
    assert "every chance event matches" in run(runner, "verify", public_id).output
    again = run(runner, "import", str(path))
    assert again.exit_code == 1 and "already exists" in again.output


def test_import_refuses_a_game_that_is_not_finished(app, runner, tmp_path):
    public_id = start(app)
    path = tmp_path / "open.jsonl"
    run(runner, "export", public_id, "-o", str(path))

    result = run(runner, "import", str(path))

    assert result.exit_code == 1
    assert "only finished games" in result.output


def test_import_refuses_a_tampered_log_naming_the_seq(source_app, app, runner, tmp_path):
    public_id = finished_game(source_app)
    path = tmp_path / "tampered.jsonl"
    source_app.test_cli_runner().invoke(args=["export", public_id, "-o", str(path)])
    lines = path.read_text().splitlines()
    event = json.loads(lines[4])
    event["at"] = "2001-01-01T00:00:00.000000+00:00"
    lines[4] = json.dumps(event)
    path.write_text("\n".join(lines) + "\n")

    result = run(runner, "import", str(path))

    assert result.exit_code == 1
    assert f"seq {event['seq']}" in result.output
    with app.extensions["pbem"].db.read() as s:
        assert s.scalars(select(Game)).first() is None


def test_db_upgrade_can_run_again_and_changes_nothing(app, runner):
    public_id = start(app)
    before = log(app, public_id)

    first = run(runner, "db", "upgrade")
    second = run(runner, "db", "upgrade")

    assert first.exit_code == second.exit_code == 0, first.output + second.output
    assert "database at head" in second.output
    assert log(app, public_id) == before


def test_the_web_export_and_the_cli_export_are_the_same_file(app, runner, client):
    public_id = finished_game(app)

    page = client.get(f"/games/{public_id}/log.jsonl")

    assert page.status_code == 200
    assert page.mimetype == "application/x-ndjson"
    assert page.get_data(as_text=True) == run(runner, "export", public_id).output


def test_verify_notices_events_cut_from_the_end_of_the_log(app, runner):
    public_id = start(app)
    move(app, public_id)
    last = log(app, public_id)[-1]
    with app.extensions["pbem"].db.write() as s:
        s.execute(
            delete(Event).where(Event.game_id == game_row(app, public_id).id, Event.seq == last.seq)
        )

    result = run(runner, "verify", public_id)

    # The chain that is left is intact, but the game's head (and every mail) knew more.
    assert result.exit_code == 1
    assert f"FAILED at seq {last.seq}" in result.output


def test_pbem_fuzz_plays_random_games_and_reports_them(runner):
    result = runner.invoke(
        args=["fuzz", "martian-dice", "--games", "6", "--seats", "3", "--jobs", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "6 games, 6 ended cleanly" in result.output


def test_pbem_fuzz_names_a_bad_option(runner):
    result = runner.invoke(args=["fuzz", "martian-frisby", "--option", "colour=red"])
    assert result.exit_code != 0
    assert "unknown option 'colour'" in result.output


def test_a_command_on_a_database_without_tables_says_to_run_db_upgrade(settings, tmp_path):
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    app = make_app(replace(settings, database_url=url))
    runner = app.test_cli_runner()

    refused = runner.invoke(args=["new-game", "martian-dice", "--player", "a@x.org",
                                  "--player", "b@x.org"])
    upgraded = runner.invoke(args=["db", "upgrade"])
    started = runner.invoke(args=["new-game", "martian-dice", "--player", "a@x.org",
                                  "--player", "b@x.org"])
    app.extensions["pbem"].db.dispose()

    assert refused.exit_code == 1
    assert "has no tables yet: run `pbem db upgrade` first" in refused.output
    assert upgraded.exit_code == 0, upgraded.output
    assert started.exit_code == 0, started.output


def test_new_game_takes_the_deadline_and_the_timeout_policy(app, runner):
    result = run(
        runner, "new-game", "martian-dice", "--player", "a@x.org", "--player", "b@x.org",
        "--deadline-hours", "24", "--timeout-policy", "forfeit",
    )

    assert result.exit_code == 0, result.output
    row = game_row(app, result.output.split()[0])
    assert (row.deadline_hours, row.timeout_policy) == (24, "forfeit")



def martianopolis_with_a_secret_choice_open(app: Any) -> str:
    """A Martianopolis 500 game after its first deal (secret), Yellow's choice made in secret."""
    from pbem.play.act import submit
    from pbem.play.start import start_game

    svc = svc_of(app)
    players = [("red@example.org", "Rae"), ("yellow@example.org", "Yul"), ("blue@x.org", "Bo")]
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martianopolis-500", players).game.public_id
    )
    for seat, action in ((0, "order S M L"), (1, "order L M S"), (2, "order M L S"), (1, "up")):
        grant = loaded(app, public_id).grant(seat)
        svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
    return public_id


def test_export_hides_secrets_not_yet_revealed_and_full_shows_them(app, runner):
    public_id = martianopolis_with_a_secret_choice_open(app)
    entries = log(app, public_id)
    deal = next(e for e in entries if e.kind == "shuffle" and e.payload["n"] != 12)
    choice = entries[-1]
    assert (choice.kind, choice.seat, choice.payload) == ("move", 1, {"action": "up"})

    public = run(runner, "export", public_id)
    full = run(runner, "export", public_id, "--full")

    assert public.exit_code == full.exit_code == 0, public.output + full.output
    shown = [json.loads(line) for line in public.output.splitlines()[1:]]
    assert [(e["seq"], e["kind"], e["seat"], e["hash"]) for e in shown] == [
        (e.seq, e.kind, e.seat, e.hash) for e in entries
    ], "every event is listed with its hash, secret or not"
    hidden = [e["seq"] for e in shown if e.get("payload") != entries[e["seq"]].payload]
    assert hidden == [deal.seq, choice.seq], "the deal and the open choice, nothing else"
    assert all("payload" not in shown[seq] and shown[seq]["commit"] for seq in hidden)
    assert all("salt" not in shown[seq] for seq in hidden), "an open secret keeps its salt"
    assert '"up"' not in public.output
    assert '"order":' + json.dumps(deal.payload["order"]).replace(" ", "") not in public.output
    assert "order S M L" in public.output, "the completed round's answers are public"
    assert full.output.splitlines()[0] == public.output.splitlines()[0]
    assert [json.loads(line) for line in full.output.splitlines()[1:]] == [
        e.to_json() for e in entries
    ]


@pytest.mark.parametrize("ruling", ["abort", "adjudicate"])
def test_a_game_a_director_ended_keeps_its_ruling_when_imported(
    source_app, app, runner, tmp_path, ruling
):
    # Both seats have moved: a ruling, not a seat that never moved, decides how it counts.
    public_id = start(source_app)
    move(source_app, public_id)
    move(source_app, public_id)
    svc, who = svc_of(source_app), director.Director("Ann")
    if ruling == "abort":
        svc.write(lambda s: director.abort(s, svc.ctx, public_id, who, "set up by mistake"))
    else:
        svc.write(lambda s: director.adjudicate(s, svc.ctx, public_id, who, "agreed", [2, 1]))
    path = tmp_path / "ruled.jsonl"
    source_app.test_cli_runner().invoke(args=["export", public_id, "-o", str(path)])

    imported = run(runner, "import", str(path), "--player", "ann@example.org",
                   "--player", "bob@example.org")
    rebuilt = run(runner, "ratings", "rebuild")

    assert imported.exit_code == 0 and rebuilt.exit_code == 0, imported.output + rebuilt.output
    with svc_of(app).db.read() as s:
        row = s.scalars(select(RatedGameRow).join(Game).where(Game.public_id == public_id)).one()
    ranks = [seat["rank"] for seat in json.loads(row.seats)]
    here = game_row(app, public_id)
    assert (here.status, here.ruled) == (game_row(source_app, public_id).status, True)
    if ruling == "abort":
        assert (here.status, row.status, ranks) == ("aborted", "ABORTED", [None, None])
    else:
        assert (here.status, row.status, ranks, row.adjudicated) == (
            "finished", "RATED", [2, 1], True)
    page = app.test_client().get(f"/games/{public_id}").get_data(as_text=True)
    said = {"abort": "aborted by Ann: set up by mistake",
            "adjudicate": "adjudicated by Ann: agreed"}
    assert said[ruling] in page
