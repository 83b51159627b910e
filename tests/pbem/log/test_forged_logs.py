"""pbem verify and pbem import on forged logs: a clear error naming the line or seq, never a
traceback, and nothing stored; a genuine import is marked as imported."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from pbem.config import load_settings
from pbem.db import Database, migrate
from pbem.models import Game
from tests.conftest import TEST_KEY, make_app

from .forgery import rechain

Lines = list[dict[str, Any]]


def setup_of(lines: Lines) -> dict[str, Any]:
    return lines[1]["payload"]  # type: ignore[no-any-return]


def first(kind: str) -> Callable[[Lines], dict[str, Any]]:
    return lambda lines: next(e for e in lines[1:] if e["kind"] == kind)


def forge(change: Callable[[Lines], Any], *, chained: bool = True) -> Callable[[Lines], Lines]:
    def forged(lines: Lines) -> Lines:
        change(lines)
        return rechain(lines) if chained else lines

    return forged


FORGERIES: dict[str, Callable[[Lines], Lines]] = {
    "no seats": forge(lambda ls: setup_of(ls).update(seats=0, players=[])),
    "no player names": forge(lambda ls: setup_of(ls).pop("players")),
    "players that are not names": forge(lambda ls: setup_of(ls).update(players=[1, None])),
    "more names than seats": forge(lambda ls: setup_of(ls)["players"].append("Cy")),
    "a seat count as text": forge(lambda ls: setup_of(ls).update(seats="2")),
    "options that are not options": forge(lambda ls: setup_of(ls).update(options=[1])),
    "an unknown option": forge(lambda ls: setup_of(ls)["options"].update(colour="red")),
    "an option of the wrong kind": forge(lambda ls: setup_of(ls)["options"].update(
        max_turns="many")),
    "a rules version from the future": forge(lambda ls: setup_of(ls).update(rules_version=99)),
    "an unknown game": forge(lambda ls: setup_of(ls).update(game="chess")),
    "a short commitment": forge(lambda ls: setup_of(ls).update(commitment="ab")),
    "a bad timestamp": forge(lambda ls: ls[3].update(at="yesterday")),
    "a timestamp out of range": forge(lambda ls: ls[3].update(at="2026-13-45T99:00:00+00:00")),
    "a timestamp not in UTC": forge(lambda ls: ls[3].update(at="2026-11-23T12:00:00+05:00")),
    "a timestamp as a number": forge(lambda ls: ls[3].update(at=1700000000)),
    "a 200-character time": forge(lambda ls: ls[3].update(at="2026-11-23T12:00:00" + "0" * 181)),
    "an odd game id": forge(lambda ls: ls[0].update(game="../../etc/passwd")),
    "a 200-character game id": forge(lambda ls: ls[0].update(game="a" * 200)),
    "a game id that is a number": forge(lambda ls: ls[0].update(game=12345)),
    "an odd stream": forge(lambda ls: ls[0].update(stream="a b\nc")),
    "a 200-character stream": forge(lambda ls: ls[0].update(stream="s" * 200)),
    "a header that is a list": forge(lambda ls: ls.__setitem__(0, ["pbem-log"])),
    "version 3": forge(lambda ls: ls[0].update(version=3)),
    "version true": forge(lambda ls: ls[0].update(version=True)),
    "a seq as text": forge(lambda ls: ls[2].update(seq="1")),
    "a seq that is a float": forge(lambda ls: ls[2].update(seq=1.0)),
    "a negative seq": forge(lambda ls: ls[2].update(seq=-1)),
    "a seat as text": forge(lambda ls: first("move")(ls).update(seat="0")),
    "a move without a seat": forge(lambda ls: first("move")(ls).update(seat=None)),
    "a move by a seat not in the game": forge(lambda ls: first("move")(ls).update(seat=7)),
    "a roll with a seat": forge(lambda ls: first("roll")(ls).update(seat=0)),
    "a payload that is a list": forge(lambda ls: first("move")(ls).update(payload=[1])),
    "a move without an action": forge(lambda ls: first("move")(ls).update(payload={})),
    "an action that is a number": forge(lambda ls: first("move")(ls).update(payload={"action": 5})),
    "an action of garbage": forge(lambda ls: first("move")(ls).update(payload={"action": "\x07)"})),
    "roll values as text": forge(lambda ls: first("roll")(ls)["payload"].update(values="six")),
    "a billion dice": forge(lambda ls: first("roll")(ls)["payload"].update(count=10**9)),
    "a thousand-sided die": forge(lambda ls: first("roll")(ls)["payload"].update(sides=1000)),
    "a zero-sided die": forge(lambda ls: first("roll")(ls)["payload"].update(sides=0)),
    "a hash that is a number": forge(lambda ls: ls[2].update(hash=5), chained=False),
    "an unknown kind": forge(lambda ls: ls[2].update(kind="x" * 100)),
    "a second setup": forge(lambda ls: ls[3].update(kind="setup")),
    "a long seed": forge(lambda ls: first("reveal")(ls)["payload"].update(seed="ab" * 100)),
    "a seed that is not hex": forge(lambda ls: first("reveal")(ls)["payload"].update(seed="zz")),
    "a lone surrogate in a name": forge(lambda ls: setup_of(ls)["players"].__setitem__(
        0, "\ud800")),
    "an event that is not an object": forge(lambda ls: ls.__setitem__(2, [1, 2, 3])),
    "a timeout with a strange policy": forge(lambda ls: first("move")(ls).update(
        kind="timeout", payload={"policy": "magic", "action": None})),
}


def write(path: Path, lines: Lines) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def no_traceback(result: Any) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception}\n{result.output}"
    )


@pytest.fixture(scope="module")
def importer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One server for the many forgeries (none of which may store anything): SQLite."""
    root = tmp_path_factory.mktemp("importer")
    url = f"sqlite:///{root / 'importer.db'}"
    db = Database(url)
    migrate.upgrade(db.engine)
    db.dispose()
    settings = load_settings({"PBEM_INSTANCE_PATH": str(root), "PBEM_SECRET_KEY": TEST_KEY})
    app = make_app(replace(settings, database_url=url))
    yield app
    app.extensions["pbem"].db.dispose()


def games_in(app: Any) -> int:
    with app.extensions["pbem"].db.read() as s:
        return int(s.scalar(select(func.count()).select_from(Game)) or 0)


@pytest.mark.parametrize("name", list(FORGERIES))
def test_verify_and_import_refuse_a_forged_log_with_a_clear_error(
    importer, finished_exports, tmp_path, name
):
    lines = [json.loads(line) for line in finished_exports["frisby"].splitlines()]
    path = write(tmp_path / "forged.jsonl", FORGERIES[name](lines))
    runner = importer.test_cli_runner()

    verified = runner.invoke(args=["verify", str(path)])
    imported = runner.invoke(args=["import", str(path)])

    for result in (verified, imported):
        no_traceback(result)
        assert result.exit_code == 1, result.output
        assert "line " in result.output or "seq " in result.output, result.output
    assert games_in(importer) == 0


@pytest.mark.parametrize(
    "content",
    [b"", b"\xff\xfe\x00garbage", b"{}", b"[" * 100_000, b'{"format": "pbem-log"}\n' + b"x"],
)
def test_verify_and_import_refuse_a_file_that_is_no_log(importer, tmp_path, content):
    path = tmp_path / "junk.jsonl"
    path.write_bytes(content)

    for command in ("verify", "import"):
        result = importer.test_cli_runner().invoke(args=[command, str(path)])
        no_traceback(result)
        assert result.exit_code == 1
        assert "Error:" in result.output
    assert games_in(importer) == 0


def test_a_forged_secret_answer_in_a_format_2_log_is_caught(runner, finished_exports, tmp_path):
    lines = [json.loads(line) for line in finished_exports["martianopolis"].splitlines()]
    opened = next(e for e in lines[1:] if "salt" in e and e["kind"] == "move")
    opened["payload"]["action"] = "order L L L"
    path = write(tmp_path / "forged.jsonl", rechain(lines))

    result = runner.invoke(args=["verify", str(path)])

    no_traceback(result)
    assert result.exit_code == 1
    assert f"FAILED at seq {opened['seq']}" in result.output and "commitment" in result.output


def test_an_imported_game_is_marked_on_its_pages_and_audit(app, runner, client, finished_exports,
                                                            tmp_path):
    path = tmp_path / "genuine.jsonl"
    path.write_text(finished_exports["martianopolis"])

    result = runner.invoke(args=["import", str(path)])

    assert result.exit_code == 0, result.output
    public_id = result.output.strip()
    with app.extensions["pbem"].db.read() as s:
        assert s.scalars(select(Game).where(Game.public_id == public_id)).one().imported
    for page in ("", "/audit", "/history"):
        text = client.get(f"/games/{public_id}{page}").get_data(as_text=True)
        assert "Imported game." in text and "not drawn by this server" in text, page
    assert "The log checks out" in client.get(f"/games/{public_id}/audit").get_data(as_text=True)
    assert client.get(f"/games/{public_id}/log.jsonl").get_data(as_text=True) == finished_exports[
        "martianopolis"
    ]


def test_names_with_line_breaks_in_an_imported_log_are_made_one_line(
    app, runner, finished_exports, tmp_path
):
    lines = [json.loads(line) for line in finished_exports["frisby"].splitlines()]
    setup_of(lines)["players"] = ["Ann\r\nBcc: x@y.org", "\u202eBob\x07"]
    path = write(tmp_path / "names.jsonl", rechain(lines))

    result = runner.invoke(args=["import", str(path)])

    assert result.exit_code == 0, result.output
    with app.extensions["pbem"].db.read() as s:
        game = s.scalars(select(Game).where(Game.public_id == result.output.strip())).one()
        names = [seat.player.name for seat in game.seats]
    assert names == ["Ann Bcc: x@y.org", "Bob"]
