"""Log format 2: a secret answer cannot be found from anything public, yet the chain checks.

A Martianopolis 500 line-up has six possible answers and a card two, so a hash over the
answer itself would give it away to anyone who tries them all. These tests try every legal
answer (and every plausible payload) against everything the public can read while the
round is open, and check that the public chain verifies mid-game and the revealed answers
match their commitments at the end.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine
from pbem import present
from pbem.log import chain, store
from pbem.log.games import load
from pbem.play.act import resign, submit
from pbem.play.start import start_game

from ..log.test_independent_checker import checker_source
from ..pipe import log, outbox, svc_of

PLAYERS = [("red@example.org", "Rae"), ("yellow@example.org", "Yul"), ("blue@example.org", "Bo")]
RULES = engine.rules_for("martianopolis-500")
HEX = re.compile(r"[0-9a-f]{12,64}")


def start(app: Any) -> str:
    svc = svc_of(app)
    return svc.write(
        lambda s: start_game(s, svc.ctx, "martianopolis-500", PLAYERS).game.public_id
    )


def act(app: Any, public_id: str, seat: int, action: str) -> None:
    svc = svc_of(app)
    with svc.db.read() as s:
        grant = load(s, public_id).grant(seat)
    svc.write(lambda s: submit(s, svc.ctx, grant, action))


def public_texts(app: Any, client: Any, runner: Any, public_id: str) -> list[str]:
    """Everything anyone can read about the game: pages, exports, the API, every mail."""
    head = client.get(f"/api/games/{public_id}").json["head"]["seq"]
    texts = [
        client.get(f"/games/{public_id}").get_data(as_text=True),
        client.get(f"/games/{public_id}/audit").get_data(as_text=True),
        client.get(f"/games/{public_id}/log.jsonl").get_data(as_text=True),
        json.dumps(client.get(f"/api/games/{public_id}").json),
        json.dumps(client.get(f"/api/games/{public_id}/log").json),
        runner.invoke(args=["export", public_id]).output,
        client.get(f"/games/{public_id}/history").get_data(as_text=True),
    ]
    texts += [
        client.get(f"/games/{public_id}/history/{seq}").get_data(as_text=True)
        for seq in range(head + 1)
    ]
    # Every player's mails: each of them shows the log's head hash to one player.
    texts += [m.subject + m.body_text + (m.body_html or "") for m in outbox(app)]
    return [html.unescape(t) for t in texts]


def hex_in(texts: list[str]) -> set[str]:
    """Every run of 12 or more hex digits (pages show hashes cut to 16)."""
    return {t for text in texts for t in HEX.findall(text)}


def candidates(before: Any, seat: int) -> list[dict[str, Any]]:
    """Every payload the seat's secret event could have: each legal answer, as any kind."""
    answers = [*RULES.legal(before, seat), None]
    found: list[dict[str, Any]] = [{}]
    for action in answers:
        found.append({"action": action})
        found += [{"policy": policy, "action": action} for policy in ("bot", "forfeit")]
    return found


def guesses(previous: str, entry: store.LogEntry, payload: dict[str, Any]) -> set[str]:
    """What a reader could compute from a guessed payload and the event's public fields."""
    body = chain.canonical_json(payload).encode()
    found = {hashlib.sha256(body).hexdigest(), chain.commitment("", payload)}
    for kind in ("move", "timeout", "resign", entry.kind):
        found.add(chain.chain_hash(previous, entry.seq, kind, entry.seat, payload, entry.at))
    return found


def open_secrets(app: Any, public_id: str) -> list[tuple[str, store.LogEntry, Any, dict[str, Any]]]:
    """Each seat's answer that is still secret: the hash before it, the event, the state."""
    svc = svc_of(app)
    with svc.db.read() as s:
        loaded = load(s, public_id)
        full = store.entries(s, loaded.game)
    visible = present.visible_log(loaded.rules, loaded.setup, full, loaded.state)
    return [
        (full[entry.seq - 1].hash, entry, before, entry.payload)
        for entry, before, hidden in visible
        if hidden and entry.seat is not None
    ]


def test_no_public_channel_gives_away_an_answer_while_its_round_is_open(app, client, runner):
    public_id = start(app)
    act(app, public_id, 0, "order S M L")
    act(app, public_id, 2, "order L S M")
    secrets_now = open_secrets(app, public_id)
    assert [e.seat for _, e, _, _ in secrets_now] == [0, 2]
    published = hex_in(public_texts(app, client, runner, public_id))
    act(app, public_id, 1, "order M L S")  # completes the round: the line-ups are public
    act(app, public_id, 1, "up")  # the card round is open; Yellow's card is secret
    card = open_secrets(app, public_id)
    assert [e.seat for _, e, _, _ in card] == [1]
    secrets_now += card
    published |= hex_in(public_texts(app, client, runner, public_id))

    tried = 0
    for previous, entry, before, payload in secrets_now:
        options = candidates(before, entry.seat)
        assert payload in options, "the true answer is among those tried"
        for guess in options:
            for digest in guesses(previous, entry, guess):
                tried += 1
                assert not any(digest.startswith(t) for t in published), (
                    f"seq {entry.seq}: the public can confirm the guess {guess}"
                )
    assert tried > 100


def export_file(runner: Any, public_id: str, path: Path) -> Path:
    result = runner.invoke(args=["export", public_id, "-o", str(path)])
    assert result.exit_code == 0, result.output
    return path


def run_checker(tmp_path: Path, path: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "check.py"
    script.write_text(checker_source())
    return subprocess.run(
        [sys.executable, str(script), str(path)], capture_output=True, text=True, timeout=60
    )


def test_the_public_chain_verifies_mid_game_and_the_secrets_at_the_end(app, runner, tmp_path):
    public_id = start(app)
    for seat, order in enumerate(("order S M L", "order M L S", "order L M S")):
        act(app, public_id, seat, order)
    act(app, public_id, 0, "down")

    mid = export_file(runner, public_id, tmp_path / "mid.jsonl")
    lines = [json.loads(line) for line in mid.read_text().splitlines()]
    assert lines[0]["version"] == 2
    hidden = {e["seq"]: (e["kind"], e["commit"]) for e in lines[1:] if "payload" not in e}
    assert sorted(hidden.values())[0][0] == "move" and len(hidden) == 2, "Red's card"
    assert sorted(hidden.values())[1][0] == "shuffle", "the deal"
    assert all("salt" not in e for e in lines[1:] if e["seq"] in hidden)
    # The line-ups are public now: two opened with their salts; the third, which completed
    # the round, was never secret.
    opened = [e for e in lines[1:] if "salt" in e]
    assert [e["payload"]["action"] for e in opened] == ["order S M L", "order M L S"]
    assert all(chain.commitment(e["salt"], e["payload"]) == e["commit"] for e in opened)
    checked = runner.invoke(args=["verify", str(mid)])
    assert checked.exit_code == 0, checked.output
    assert "hash chain intact" in checked.output and "still secret" in checked.output
    assert run_checker(tmp_path, mid).returncode == 0

    svc = svc_of(app)
    for seat in range(2):  # two of three resign: the game is over
        with svc.db.read() as s:
            grant = load(s, public_id).grant(seat)
        svc.write(lambda s, g=grant: resign(s, svc.ctx, g))
    end = export_file(runner, public_id, tmp_path / "end.jsonl")
    final = {e["seq"]: e for e in map(json.loads, end.read_text().splitlines()[1:])}
    for seq, (_, commit) in hidden.items():
        shown = final[seq]
        assert shown["commit"] == commit
        assert chain.commitment(shown["salt"], shown["payload"]) == commit
    verified = runner.invoke(args=["verify", str(end)])
    assert verified.exit_code == 0, verified.output
    assert "every chance event matches the revealed seed" in verified.output
    assert "still secret" not in verified.output
    result = run_checker(tmp_path, end)
    assert result.returncode == 0, result.stderr
    assert "seed matches" in result.stdout


def test_a_revealed_answer_that_does_not_match_its_commitment_is_caught(app, runner, tmp_path):
    public_id = start(app)
    for seat, order in enumerate(("order S M L", "order M L S", "order L M S")):
        act(app, public_id, seat, order)
    path = export_file(runner, public_id, tmp_path / "game.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    answer = next(e for e in lines[1:] if e.get("payload", {}).get("action") == "order S M L")
    answer["payload"]["action"] = "order L M S"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")

    result = runner.invoke(args=["verify", str(path)])
    checker = run_checker(tmp_path, path)

    assert result.exit_code == 1
    assert f"FAILED at seq {answer['seq']}" in result.output
    assert "commitment" in result.output
    assert checker.returncode != 0 and f"commitment at seq {answer['seq']}" in checker.stderr


def test_the_database_keeps_the_salt_of_each_secret_and_only_of_secrets(app):
    public_id = start(app)
    for seat, order in enumerate(("order S M L", "order M L S", "order L M S")):
        act(app, public_id, seat, order)

    entries = log(app, public_id)

    assert entries[0].payload["log_format"] == 2
    salted = [e for e in entries if e.salt is not None]
    assert {e.kind for e in salted} == {"shuffle", "move"}
    assert all(len(e.salt) == 64 for e in salted)
    assert len({e.salt for e in salted}) == len(salted), "a fresh salt per secret"
    face_cards = entries[1]
    assert face_cards.kind == "shuffle" and face_cards.salt is None, "set aside in public"
    assert chain.check_chain(entries) is None


@pytest.mark.parametrize(
    "name", ["format1-martianopolis-finished", "format1-martian-dice-finished"]
)
def test_a_format_1_export_verifies_as_before(runner, tmp_path, name):
    path = Path(__file__).parents[1] / "log" / "data" / f"{name}.jsonl"

    result = runner.invoke(args=["verify", str(path)])

    assert result.exit_code == 0, result.output
    assert "every chance event matches the revealed seed" in result.output
    assert run_checker(tmp_path, path).returncode == 0


def test_a_game_begun_in_format_1_stays_in_format_1(app, client, monkeypatch):
    monkeypatch.setattr(store, "LOG_FORMAT", 1)
    public_id = start(app)
    monkeypatch.undo()
    act(app, public_id, 0, "order S M L")

    entries = log(app, public_id)
    exported = client.get(f"/games/{public_id}/log.jsonl").get_data(as_text=True).splitlines()

    assert store.Setup.from_payload(entries[0].payload).log_format == 1
    assert all(e.salt is None for e in entries)
    assert json.loads(exported[0])["version"] == 1
    assert json.loads(exported[-1])["payload"] == present.REDACTED


def test_a_format_1_export_in_progress_still_stops_at_its_first_redacted_event(runner):
    # Made by the server before format 2, like the other format1-*.jsonl files beside it.
    path = Path(__file__).parents[1] / "log" / "data" / "format1-martianopolis-open.jsonl"
    first = next(
        json.loads(line)["seq"] for line in path.read_text().splitlines() if "redacted" in line
    )

    result = runner.invoke(args=["verify", str(path)])

    assert result.exit_code == 1
    assert f"FAILED at seq {first} (shuffle): hash does not match" in result.output
