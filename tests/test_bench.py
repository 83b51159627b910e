"""Every benchmark's --quick mode runs to its end, so that none can rot unnoticed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import postgres_admin_url

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(path.name for path in (ROOT / "bench").glob("bench_*.py"))

# What keeps a quick run down to seconds here, where a script's quick run measures for
# longer: the same code with fewer games, moves or seconds.
LEANER = {
    "bench_luck.py": ["--processes", "1", "--games", "20"],
    "bench_mail.py": ["--games", "10"],
    "bench_pages.py": ["--repeat", "1"],
    "bench_ratings.py": ["--games", "1000"],
    "bench_submit.py": ["--submissions", "20"],
    "bench_tournament.py": ["--repeat", "1"],
    "bench_tournament_event.py": ["--players", "4", "--rounds", "1"],
    "bench_web.py": ["--seconds", "0.6"],
}
NEEDS_POSTGRES = {"bench_web.py"}


def test_every_benchmark_is_run_here():
    assert SCRIPTS, "no bench scripts found"
    assert set(LEANER) <= set(SCRIPTS), "a lean setting names a bench script that is gone"


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_benchmarks_quick_mode_runs_to_its_end(script, tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    if script in NEEDS_POSTGRES:
        url = postgres_admin_url()
        if url is None:
            pytest.skip(f"{script} measures PostgreSQL: set PBEM_TEST_POSTGRES_URL (CI sets it)")
        env["PBEM_TEST_POSTGRES_URL"] = url
    command = [sys.executable, str(ROOT / "bench" / script), "--quick", *LEANER.get(script, [])]

    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240
    )

    assert done.returncode == 0, f"{script} --quick failed:\n{done.stdout}\n{done.stderr}"
    assert done.stdout.strip(), f"{script} --quick printed no figures"
