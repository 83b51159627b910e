"""The README's independent dice checker works on a real exported game, and catches a lie."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from pbem import play

from .pipe import move, start

README = Path(__file__).resolve().parents[2] / "README.md"


def checker_source() -> str:
    """The Python block that follows 'An independent checker' in the README."""
    text = README.read_text()
    after = text[text.index("An independent checker") :]
    found = re.search(r"```python\n(.*?)```", after, re.S)
    assert found, "the README lost its checker"
    return found[1]


def finished_export(app, client, tmp_path) -> Path:
    public_id = start(app)
    for _ in range(3):
        move(app, public_id)
    svc = app.extensions["pbem"]
    with svc.db.read() as s:
        grant = play.grant_for(play.load(s, public_id), 0)
    svc.write(lambda s: play.resign(s, svc.ctx, grant))
    path = tmp_path / "game.jsonl"
    path.write_text(client.get(f"/games/{public_id}/log.jsonl").get_data(as_text=True))
    return path


def run_checker(tmp_path: Path, log: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "check.py"
    script.write_text(checker_source())
    return subprocess.run(
        [sys.executable, str(script), str(log)], capture_output=True, text=True, timeout=60
    )


def test_the_readme_checker_accepts_an_honest_game(app, client, tmp_path):
    result = run_checker(tmp_path, finished_export(app, client, tmp_path))
    assert result.returncode == 0, result.stderr
    assert "every chance event matches the seed" in result.stdout


def test_the_readme_checker_rejects_a_changed_roll(app, client, tmp_path):
    log = finished_export(app, client, tmp_path)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    roll = next(e for e in lines[1:] if e["kind"] == "roll" and e["payload"]["count"] == 2)
    roll["payload"]["values"] = [7 - v for v in roll["payload"]["values"]]
    log.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    result = run_checker(tmp_path, log)
    assert result.returncode != 0
    assert f"roll at seq {roll['seq']}" in result.stderr
