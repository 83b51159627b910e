"""Record the golden corpus of the newest rules version of each game kind.

    python -m tests.golden.record              # every kind whose newest version has no corpus
    python -m tests.golden.record --kind mad-dog

A version's corpus is never overwritten: it is what games created under that version must
replay to, for ever. A change of behaviour bumps the version (see docs/architecture.md),
and then this records the new version's corpus next to the old one.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import engine
from tests.golden import corpus

PLAYERS = [(f"p{n}@example.org", f"Player {n + 1}") for n in range(8)]


def record_kind(kind: str, version: int | None = None) -> list[Path]:
    """Record the games of a kind's version (the newest); refuse if it has a corpus already.

    An older version gets the engine's games only: new games on a server start at the newest.
    """
    rules = engine.rules_for(kind, version)
    folder = corpus.corpus_dir(kind, rules.version)
    if folder.exists():
        raise SystemExit(
            f"{folder.relative_to(corpus.ROOT.parents[1])} exists: the corpus of {kind} rules "
            f"version {rules.version} is fixed. If behaviour changed on purpose, bump the "
            "version (and keep the old one registered), then record again."
        )
    folder.mkdir(parents=True)
    written = []
    plays = list(corpus.scenarios(rules))
    if corpus.LONG_GAME[0] == kind:
        plays.append(corpus.LONG_GAME[1])
    for scenario in plays:
        path = folder / f"{scenario.name}.json"
        corpus.write_game(path, corpus.record_game(rules, scenario))
        written.append(path)
    if rules is engine.rules_for(kind):
        written.extend(record_exports(kind, folder))
    return written


# --- exports: real games through the service layer, exported as `pbem export` writes them ---


def record_exports(kind: str, folder: Path) -> list[Path]:
    """Play a few games of a kind on a scratch server and export them into the folder."""
    from pbem.config import load_settings
    from pbem.db import Database, migrate
    from tests.conftest import TEST_KEY, make_app

    with tempfile.TemporaryDirectory() as scratch:
        url = f"sqlite:///{Path(scratch) / 'golden.db'}"
        db = Database(url)
        migrate.upgrade(db.engine)
        db.dispose()
        settings = load_settings(
            {"PBEM_INSTANCE_PATH": str(Path(scratch) / "instance"), "PBEM_SECRET_KEY": TEST_KEY}
        )
        app = make_app(replace(settings, database_url=url, base_url="http://pbem.test"))
        try:
            paths = [export_game(app, kind, folder, "export-timeouts", end=None)]
            if kind == "martian-dice":
                paths.append(export_game(app, kind, folder, "export-adjudicated", "adjudicate"))
                paths.append(export_game(app, kind, folder, "export-aborted", "abort"))
        finally:
            app.extensions["pbem"].db.dispose()
    return paths


def export_game(app: Any, kind: str, folder: Path, name: str, end: str | None) -> Path:
    """Play one game (moves and timed-out turns), end it as asked, and export it."""
    from pbem import present
    from pbem.log import export, store
    from pbem.log.games import load
    from pbem.play.act import act
    from pbem.play.deadlines import time_out
    from pbem.play.director import Director, abort, adjudicate
    from pbem.play.start import start_game

    svc = app.extensions["pbem"]
    rules = engine.rules_for(kind)
    seats = rules.seats[0]
    scenario = corpus.Scenario(name, seats, None, "timeouts", 7)
    options = corpus.options_for(rules, scenario)
    public_id = svc.write(
        lambda s: (
            start_game(
                s, svc.ctx, kind, PLAYERS[:seats], options=options, timeout_policy="bot"
            ).game.public_id
        )
    )
    rng = random.Random(f"{kind}:{name}")
    for turn in range(100_000):
        with svc.db.read() as s:
            loaded = load(s, public_id)
            if loaded.outcome is not None or loaded.game.status != "active":
                break
            awaited = loaded.awaited()
        if end is not None and turn == 12:

            def rule(s: Any) -> None:
                director = Director("the operator")
                if end == "adjudicate":
                    adjudicate(
                        s,
                        svc.ctx,
                        public_id,
                        director,
                        "a recorded ruling",
                        [1] + [2] * (seats - 1),
                    )
                else:
                    abort(s, svc.ctx, public_id, director, "a recorded abort")

            svc.write(rule)
            break
        if rng.random() < 0.4:
            svc.write(lambda s: time_out(s, svc.ctx, load(s, public_id, for_update=True)))
            continue
        seat = awaited[rng.randrange(len(awaited))]

        def move(s: Any, seat: int = seat) -> None:
            loaded = load(s, public_id, for_update=True)
            legal = loaded.rules.legal(loaded.state, seat)
            act(s, svc.ctx, loaded, seat, legal[rng.randrange(len(legal))], nonce=None)

        svc.write(move)
    with svc.db.read() as s:
        loaded = load(s, public_id)
        header = export.header_of(loaded.game, loaded.setup)
        log = present.public_log(
            loaded.rules, loaded.setup, store.entries(s, loaded.game), loaded.state
        )
        final = corpus.digest(corpus.picture(loaded.rules, None, None, loaded.state))
    path = folder / f"{name}.jsonl"
    path.write_text("\n".join(export.export_lines(header, log)) + "\n", encoding="utf-8")
    (folder / f"{name}.digest").write_text(final + "\n", encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Record the corpus of every kind (or the given ones) whose newest version has none."""
    parser = argparse.ArgumentParser(prog="python -m tests.golden.record", description=__doc__)
    parser.add_argument("--kind", action="append", choices=engine.GAMES)
    parser.add_argument("--version", type=int, help="an older registered version (one --kind)")
    args = parser.parse_args(argv)
    if args.version is not None:
        if not args.kind or len(args.kind) != 1:
            parser.error("--version needs exactly one --kind")
        for path in record_kind(args.kind[0], args.version):
            print(path.relative_to(corpus.ROOT.parents[1]))
        return 0
    kinds = args.kind or [
        k for k in engine.GAMES if not corpus.corpus_dir(k, engine.rules_for(k).version).exists()
    ]
    if not kinds:
        print("every kind's newest rules version has its corpus; nothing to record")
    for kind in kinds:
        for path in record_kind(kind):
            print(path.relative_to(corpus.ROOT.parents[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
