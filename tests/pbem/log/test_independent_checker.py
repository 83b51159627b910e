"""The documented independent checker works on a real exported game, and catches a lie."""
from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.log.games import load
from pbem.play.act import resign

from ..pipe import move, start

AUDITING = Path(__file__).resolve().parents[3] / "docs" / "auditing.md"


def checker_source() -> str:
    """The Python block that follows 'An independent checker' in docs/auditing.md."""
    text = AUDITING.read_text()
    after = text[text.index("## An independent checker") :]
    found = re.search(r"```python\n(.*?)```", after, re.S)
    assert found, "docs/auditing.md lost its checker"
    return found[1]


def finished_export(app, client, tmp_path) -> Path:
    public_id = start(app)
    for _ in range(3):
        move(app, public_id)
    svc = app.extensions["pbem"]
    with svc.db.read() as s:
        grant = load(s, public_id).grant(0)
    svc.write(lambda s: resign(s, svc.ctx, grant))
    path = tmp_path / "game.jsonl"
    path.write_text(client.get(f"/games/{public_id}/log.jsonl").get_data(as_text=True))
    return path


def run_checker(tmp_path: Path, log: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "check.py"
    script.write_text(checker_source())
    return subprocess.run(
        [sys.executable, str(script), str(log)], capture_output=True, text=True, timeout=60
    )


def rewrite(log: Path, lines: list[dict], *, rechain: bool) -> None:
    """Write the lines back, recomputing every hash when rechain is set (a careful forger)."""
    if rechain:
        previous = "0" * 64
        for event in lines[1:]:
            body = json.dumps({k: event[k] for k in ("seq", "kind", "seat", "payload", "at")},
                              sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            previous = hashlib.sha256(f"{previous}\n{body}".encode()).hexdigest()
            event["hash"] = previous
    log.write_text("\n".join(json.dumps(line) for line in lines) + "\n")


def test_the_checker_accepts_an_honest_game(app, client, tmp_path):
    result = run_checker(tmp_path, finished_export(app, client, tmp_path))
    assert result.returncode == 0, result.stderr
    assert "chain intact, seed matches" in result.stdout


@pytest.mark.parametrize(("rechain", "named"), [(False, "hash at seq"), (True, "roll at seq")])
def test_the_checker_rejects_a_changed_roll(app, client, tmp_path, rechain, named):
    log = finished_export(app, client, tmp_path)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    roll = next(e for e in lines[1:] if e["kind"] == "roll" and e["payload"]["count"] == 2)
    roll["payload"]["values"] = [7 - v for v in roll["payload"]["values"]]
    rewrite(log, lines, rechain=rechain)

    result = run_checker(tmp_path, log)

    assert result.returncode != 0
    assert f"{named} {roll['seq']}" in result.stderr
