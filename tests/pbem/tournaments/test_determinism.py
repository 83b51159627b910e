"""The same log gives the same pairings, here and in a fresh process with another hash seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pbem.tournaments.core.fold import fold
from pbem.tournaments.core.formats import plan

from .logs import Log
from .simulate import run

ROOT = Path(__file__).resolve().parents[3]

SCENARIO = """
import json
from pbem.tournaments.core.export import results
from pbem.tournaments.core.formats import plan
from tests.pbem.tournaments.logs import Log
from tests.pbem.tournaments.simulate import run

def event(system, sizes, n, **create):
    log = Log(system, table_sizes=sizes, **create)
    log.register(*[f"p{i:03d}" for i in range(n)]).start()
    log.director("forbid", players=["p001", "p002"])
    return run(log, seed=11)

out = []
for log in [
    event("swiss", (2,), 71, rounds=4),
    event("swiss", (4, 5), 23, rounds=3),
    event("rolling-swiss", (4,), 18, games_per_player=3, max_concurrent=2, pair_min_free=8),
    event("round-robin", (4,), 13),
    event("knockout", (3, 4), 14, advance=2),
]:
    out.append([e.payload for e in log.events if e.kind == "pair"])
    out.append(results(log.tournament(), "x"))
print(json.dumps(out, sort_keys=True))
"""


def scenario(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCENARIO], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_same_events_give_the_same_plan():
    log = run(Log("swiss", table_sizes=[4], rounds=3).register(
        *[f"p{i:02d}" for i in range(14)]).start(), seed=2)
    last = max(e.seq for e in log.events if e.kind == "pair")
    before = log.events[:last]
    first, again = plan(fold(before), log.now), plan(fold(list(before)), log.now)
    assert first is not None and first == again
    assert first.payload(["x"] * len(first.tables))["tables"] == [
        {"game": "x", "seats": t["seats"]} for t in log.events[last].payload["tables"]]


def test_pairings_do_not_depend_on_the_hash_seed_of_the_process():
    first = scenario("1")
    assert json.loads(first)
    assert scenario("2") == first
    assert scenario("12345") == first
