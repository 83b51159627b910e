"""The golden corpus: every recorded game replays exactly under the rules it was played by."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import engine
from pbem.cli.logs import read_log_file
from pbem.config import load_settings
from pbem.log import store
from tests.conftest import TEST_KEY, make_app
from tests.golden import corpus, record

GAMES = list(corpus.recorded_games())
EXPORTS = sorted(corpus.ROOT.glob("*/v*/*.jsonl"))


def check_replay(path: Path) -> None:
    """Replay a recorded game; AssertionError names the first event whose picture differs."""
    game = corpus.load_game(path)
    done = corpus.replay(game)
    for n, (got, want) in enumerate(zip(done.digests, game["digests"], strict=True)):
        assert got == want, (
            f"{path.name}: the state after event {n} ({game['events'][n - 1] if n else 'setup'}) "
            f"differs from the one recorded under {game['kind']} rules version "
            f"{game['rules_version']}; a change of behaviour needs a new rules version"
        )
    assert done.full == game["full"]


def replayed_export(path: Path) -> tuple[engine.Rules[Any], Any]:
    """The rules and the final state of an exported log."""
    _, log = read_log_file(path)
    setup = store.Setup.from_payload(log[0].payload)
    rules = setup.rules()
    return rules, store.fold(rules, setup, log)


@pytest.fixture
def verify_runner(migrated_sqlite: Path, tmp_path: Path) -> Any:
    """A CLI runner on a scratch server (verifying a file reads no database)."""
    url = f"sqlite:///{tmp_path / 'verify.db'}"
    shutil.copyfile(migrated_sqlite, tmp_path / "verify.db")
    settings = load_settings(
        {"PBEM_INSTANCE_PATH": str(tmp_path / "instance"), "PBEM_SECRET_KEY": TEST_KEY}
    )
    app = make_app(replace(settings, database_url=url))
    yield app.test_cli_runner()
    app.extensions["pbem"].db.dispose()


@pytest.mark.parametrize("path", GAMES, ids=lambda p: f"{p.parts[-3]}/{p.parts[-2]}/{p.stem}")
def test_a_recorded_game_replays_exactly_under_its_rules_version(path):
    check_replay(path)


@pytest.mark.parametrize("kind", engine.GAMES)
def test_every_kind_and_preset_has_a_corpus_for_every_rules_version_since_it_began(kind):
    newest = engine.rules_for(kind)
    folder = corpus.corpus_dir(kind, newest.version)
    assert folder.is_dir(), f"no corpus for {kind} v{newest.version}: python -m tests.golden.record"
    for preset in newest.presets:
        assert (folder / f"random-{preset}-{newest.seats[0]}.json").exists()
    assert list(folder.glob("export-*.jsonl")), f"no export of {kind} v{newest.version}"
    recorded = {int(p.name[1:]) for p in (corpus.ROOT / kind).glob("v*")}
    assert recorded == set(engine.rules_versions(kind)), "every registered version has a corpus"


@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: f"{p.parts[-3]}/{p.stem}")
def test_every_export_passes_pbem_verify(path, verify_runner):
    result = verify_runner.invoke(args=["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert (
        "OK:" in result.output and "every chance event matches the revealed seed" in result.output
    )


@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: f"{p.parts[-3]}/{p.stem}")
def test_every_export_replays_to_its_recorded_state(path):
    rules, state = replayed_export(path)
    recorded = path.with_suffix(".digest").read_text(encoding="utf-8").strip()
    assert corpus.digest(corpus.picture(rules, None, None, state)) == recorded


def test_a_rule_changed_without_a_version_bump_fails_the_corpus(monkeypatch):
    from engine.games.martian_dice import dice

    path = corpus.corpus_dir("martian-dice", 1) / "random-again-8.json"
    check_replay(path)
    # A deliberate change: the all-three-earthlings bonus is worth 4 points, not 3.
    monkeypatch.setattr(dice, "BONUS", 4)
    with pytest.raises(AssertionError, match="needs a new rules version"):
        check_replay(path)


def test_a_sentence_changed_without_a_version_bump_fails_the_corpus(monkeypatch):
    rules = engine.rules_for("martian-race", 3)
    path = corpus.corpus_dir("martian-race", 3) / "random-default-2.json"
    describe = type(rules).describe
    monkeypatch.setattr(
        type(rules), "describe", lambda self, *a: describe(self, *a).replace("Red", "Scarlet")
    )
    with pytest.raises(AssertionError, match="needs a new rules version"):
        check_replay(path)


class NextRace(type(engine.rules_for("martian-race"))):  # type: ignore[misc]
    """A test-only next version of Martian Race whose stall limit is on again."""

    version = engine.rules_for("martian-race").version + 1
    options = tuple(
        replace(o, default=3) if o.name == "stall_rounds" else o
        for o in engine.rules_for("martian-race").options
    )


@pytest.fixture
def next_race():
    """Martian Race with a version N+1 registered, for the length of one test."""
    rules = NextRace()
    engine.register(rules)
    yield rules
    engine.unregister(rules.kind, rules.version)


def test_a_game_created_under_version_n_replays_and_verifies_after_n_plus_1(
    next_race, verify_runner
):
    assert engine.rules_for("martian-race") is next_race
    old = next_race.version - 1
    folder = corpus.corpus_dir("martian-race", old)
    for path in sorted(folder.glob("*.json")):
        check_replay(path)
    for path in sorted(folder.glob("*.jsonl")):
        result = verify_runner.invoke(args=["verify", str(path)])
        assert result.exit_code == 0, result.output
        rules, _ = replayed_export(path)
        assert rules.version == old


def test_games_of_every_registered_version_still_replay():
    for kind in engine.GAMES:
        for version in engine.rules_versions(kind):
            assert engine.rules_for(kind, version).version == version


def test_an_unknown_rules_version_is_a_clear_error():
    with pytest.raises(engine.UnknownGame, match="martian-race has no rules version 99; "):
        engine.rules_for("martian-race", 99)


def test_the_recorder_refuses_to_overwrite_a_versions_corpus():
    with pytest.raises(SystemExit, match="bump the version"):
        record.record_kind("martian-dice")
