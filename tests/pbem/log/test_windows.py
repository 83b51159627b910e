"""Windows on a long log: the state before any event, from the nearest snapshot, as a replay."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from sqlalchemy import select

import engine
from pbem.db import migrate
from pbem.log import snapshots, store, windows
from pbem.log.games import load
from pbem.models import Snapshot
from tests.conftest import make_app

from ..pipe import PLAYERS, game_row, log, move, start, svc_of
from .conftest import play_to_the_end


def settings_of(app):
    return svc_of(app).settings


def test_a_window_starts_from_the_state_a_full_replay_reaches(app, monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 6)
    public_id = start(app)
    for _ in range(15):
        move(app, public_id)
    entries = log(app, public_id)
    head = entries[-1].seq
    spans = [(0, 0), (0, head), (head, head), (6, 6), (7, 12)]
    spans += [tuple(sorted(random.Random(n).sample(range(head + 1), 2))) for n in range(6)]

    with svc_of(app).db.read() as s:
        loaded = load(s, public_id)
        rules, setup = loaded.rules, loaded.setup
        for first, last in spans:
            state, shown = windows.window(s, loaded.game, setup, first, last)
            replayed = store.fold(rules, setup, entries[:first])
            assert rules.dump(state) == rules.dump(replayed), f"before event {first}"
            assert shown == entries[first : last + 1]


def test_the_nearest_moves_are_found_on_either_side(app):
    public_id = start(app)
    for _ in range(4):
        move(app, public_id)
    entries = log(app, public_id)
    moves = [e.seq for e in entries if e.kind == "move"]

    with svc_of(app).db.read() as s:
        game = load(s, public_id).game
        around = windows.nearest(s, game, moves[1], ("move",))
        before_any = windows.nearest(s, game, 0, ("move",))
        after_all = windows.nearest(s, game, entries[-1].seq, ("move",))

    assert around == (moves[0], moves[2])
    assert before_any == (None, moves[0])
    assert after_all == (moves[-1], None)


def test_an_imported_game_gets_a_snapshot_every_so_many_events_as_a_played_one(
    app, runner, tmp_path, monkeypatch
):
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 4)
    source = make_app(replace(settings_of(app), database_url=f"sqlite:///{tmp_path / 's.db'}"))
    migrate.upgrade(svc_of(source).db.engine)
    try:
        exported = play_to_the_end(source, "martian-frisby", list(PLAYERS))
    finally:
        svc_of(source).db.dispose()
    path = tmp_path / "game.jsonl"
    path.write_text(exported)

    imported = runner.invoke(args=["import", str(path)])

    assert imported.exit_code == 0, imported.output
    public_id = imported.output.strip()
    entries = log(app, public_id)
    rules = engine.rules_for("martian-frisby")
    setup = store.Setup.from_payload(entries[0].payload)
    with svc_of(app).db.read() as s:
        query = select(Snapshot.seq, Snapshot.state).where(
            Snapshot.game_id == game_row(app, public_id).id
        )
        kept = {seq: state for seq, state in s.execute(query.order_by(Snapshot.seq))}
    assert list(kept) == list(range(4, entries[-1].seq + 1, 4))
    for seq, state in kept.items():
        replayed = store.fold(rules, setup, entries[: seq + 1])
        assert json.loads(state) == rules.dump(replayed), f"the snapshot after event {seq}"
