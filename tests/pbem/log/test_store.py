"""The event log: the hash chain (docs/architecture.md §4), tampering, snapshots, racing writers."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

import engine
from pbem.errors import StaleTurn
from pbem.log import chain, snapshots, store
from pbem.models import Event, Game, Snapshot
from pbem.play.act import submit

from ..pipe import counts, csrf, game_row, grant, legal, loaded, log, move, start, svc_of, token

UNICODE_PLAYERS = (("zoe@example.org", "Zoë Ångström"), ("orjan@example.org", "Ørjan 火星"))


def independent_hash(previous: str, row: Event) -> str:
    """docs/architecture.md §4 written out: sha256(hash[n-1] + "\\n" + canonical_json(...))."""
    body = json.dumps(
        {
            "seq": row.seq,
            "kind": row.kind,
            "seat": row.seat,
            "payload": json.loads(row.payload),
            "at": row.at,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256((previous + "\n" + body).encode("utf-8")).hexdigest()


def rows_of(app: Any, public_id: str) -> list[Event]:
    with svc_of(app).db.read() as s:
        game = s.scalars(select(Game).where(Game.public_id == public_id)).one()
        return list(s.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.seq)))


def played_game(app: Any, moves: int = 4, **kw: Any) -> str:
    public_id = start(app, players=UNICODE_PLAYERS, **kw)
    for _ in range(moves):
        move(app, public_id)
    return public_id


def test_every_stored_hash_is_the_chain_formula_of_the_design(app):
    public_id = played_game(app)
    svc = svc_of(app)
    appended = svc.write(
        lambda s: store.append(s, s.get(Game, game_row(app, public_id).id), "resign", {}, 0)
    )

    rows = rows_of(app, public_id)
    assert appended == store.LogEntry.from_row(rows[-1])
    assert (appended.seq, appended.kind, appended.seat) == (rows[-2].seq + 1, "resign", 0)
    previous = "0" * 64
    for expected_seq, row in enumerate(rows):
        assert row.seq == expected_seq
        assert row.hash == independent_hash(previous, row), f"seq {row.seq}"
        previous = row.hash
    game = game_row(app, public_id)
    assert (game.head_seq, game.head_hash) == (rows[-1].seq, rows[-1].hash)


def test_events_are_stored_as_canonical_json_with_a_utc_timestamp(app):
    public_id = played_game(app, moves=2)

    rows = rows_of(app, public_id)

    assert rows[0].kind == "setup" and rows[0].seat is None
    setup = json.loads(rows[0].payload)
    assert set(setup) == {
        "game", "rules_version", "seats", "players", "options", "commitment", "log_format"
    }
    assert setup["players"] == ["Zoë Ångström", "Ørjan 火星"]
    assert "Zoë" in rows[0].payload  # stored as text, not \\u escapes
    for row in rows:
        payload = json.loads(row.payload)
        assert row.payload == json.dumps(
            payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        moment = datetime.fromisoformat(row.at)
        assert moment.utcoffset() is not None and moment.utcoffset().total_seconds() == 0
        if row.kind == "roll":
            assert set(payload) == {"count", "sides", "values"}
            assert len(payload["values"]) == payload["count"]
            assert all(1 <= v <= payload["sides"] for v in payload["values"])
        if row.kind == "move":
            assert set(payload) == {"action"} and row.seat in (0, 1)
    assert [r.kind for r in rows[:3]] == ["setup", "roll", "roll"]
    assert [r.at for r in rows] == sorted(r.at for r in rows)
    assert datetime.fromisoformat(rows[-1].at) <= datetime.now(UTC)


def test_the_cached_head_always_equals_the_last_event(app):
    public_id = start(app)
    for _ in range(3):
        move(app, public_id)
        with svc_of(app).db.read() as s:
            game = s.scalars(select(Game).where(Game.public_id == public_id)).one()
            last = s.scalar(select(func.max(Event.seq)).where(Event.game_id == game.id))
            assert game.head_seq == last
            assert game.head_hash == s.get(Event, (game.id, last)).hash


CHANGES = {  # each must differ from any real roll event (no d6 shows 7)
    "payload": {"payload": '{"count":2,"sides":6,"values":[7,7]}'},
    "time": {"at": "2020-01-01T00:00:00.000000+00:00"},
    "seat": {"seat": 1},
    "kind": {"kind": "shuffle"},
    "hash": {"hash": "f" * 64},
}


def test_check_chain_names_the_first_altered_event(app):
    public_id = played_game(app, moves=3)
    entries = log(app, public_id)
    assert chain.check_chain(entries) is None
    rolls = [e for e in entries if e.kind == "roll" and e.seq > 3]
    game_id = game_row(app, public_id).id

    # Alter later events first, so that each altered event is the first bad one.
    for target, (what, change) in zip(reversed(rolls), CHANGES.items(), strict=False):
        with svc_of(app).db.write() as s:
            s.execute(
                update(Event)
                .where(Event.game_id == game_id, Event.seq == target.seq)
                .values(**change)
            )

        problem = chain.check_chain(log(app, public_id))
        assert problem is not None and problem.seq == target.seq, what


def test_check_chain_names_a_missing_event(app):
    public_id = played_game(app, moves=2)
    game_id = game_row(app, public_id).id
    with svc_of(app).db.write() as s:
        s.execute(delete(Event).where(Event.game_id == game_id, Event.seq == 4))

    problem = chain.check_chain(log(app, public_id))

    assert problem is not None and problem.seq == 5
    assert "expected seq 4" in problem.reason


def test_check_chain_catches_an_altered_payload_in_memory_too(app):
    public_id = played_game(app, moves=2)
    entries = log(app, public_id)
    entries[3] = replace(entries[3], payload={**entries[3].payload, "values": [1, 1]})

    problem = chain.check_chain(entries)

    assert problem == chain.ChainProblem(3, "hash does not match the event's content")


def state_of(app: Any, public_id: str) -> Any:
    return loaded(app, public_id).state


def cold_state_of(app: Any, public_id: str) -> Any:
    """The state rebuilt from the database, as a worker with an empty state cache reads it."""
    snapshots.CACHE.clear()
    return state_of(app, public_id)


def test_rebuilding_with_or_without_snapshots_gives_the_same_state(app, monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 5)
    public_id = played_game(app, moves=14)
    with svc_of(app).db.read() as s:
        taken = s.scalars(select(Snapshot.seq).order_by(Snapshot.seq)).all()
    assert len(taken) >= 4
    assert all(seq % 5 == 0 for seq in taken)
    with_snapshots = cold_state_of(app, public_id)
    rules = loaded(app, public_id).rules

    with svc_of(app).db.write() as s:
        snapshots.drop_snapshots(s, s.get(Game, game_row(app, public_id).id))
    assert counts(app)["snapshots"] == 0
    without = cold_state_of(app, public_id)

    assert with_snapshots == without
    assert rules.dump(with_snapshots) == rules.dump(without)
    entries = log(app, public_id)
    setup = store.Setup.from_payload(entries[0].payload)
    events = [e for e in map(store.engine_event, entries) if e is not None]
    assert engine.replay(rules, setup.seats, setup.options, events) == without


def test_each_snapshot_equals_the_state_replayed_to_its_seq(app, monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 4)
    public_id = played_game(app, moves=8)
    game = loaded(app, public_id)
    entries = log(app, public_id)
    setup = store.Setup.from_payload(entries[0].payload)

    with svc_of(app).db.read() as s:
        rows = s.scalars(select(Snapshot).order_by(Snapshot.seq)).all()

    assert rows
    for snapshot in rows:
        replayed = store.fold(game.rules, setup, (e for e in entries if 0 < e.seq <= snapshot.seq))
        assert game.rules.load(json.loads(snapshot.state)) == replayed, f"seq {snapshot.seq}"
        assert snapshot.rules_version == game.rules.version


def test_a_snapshot_of_another_rules_version_is_ignored(app, monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 4)
    public_id = played_game(app, moves=6)
    truth = state_of(app, public_id)
    with svc_of(app).db.write() as s:
        s.execute(update(Snapshot).values(rules_version=999, state='{"not": "a state"}'))

    assert cold_state_of(app, public_id) == truth


def test_a_newest_snapshot_of_another_rules_version_falls_back_to_an_older_one(app, monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 4)
    public_id = played_game(app, moves=8)
    truth = state_of(app, public_id)
    with svc_of(app).db.write() as s:
        newest = max(s.scalars(select(Snapshot.seq)).all())
        s.execute(update(Snapshot).where(Snapshot.seq == newest)
                  .values(rules_version=999, state='{"not": "a state"}'))
    folded: list[Any] = []
    real_fold = snapshots.fold

    def spying(rules: Any, setup: Any, log: Any, state: Any = None) -> Any:
        entries = list(log)
        folded.append((state is not None, [e.seq for e in entries]))
        return real_fold(rules, setup, entries, state)

    monkeypatch.setattr(snapshots, "fold", spying)

    assert cold_state_of(app, public_id) == truth
    (from_snapshot, seqs), = folded
    assert from_snapshot and seqs[0] < newest, "an older snapshot of these rules was the start"


def test_the_key_refuses_a_second_event_at_the_same_seq(app):
    public_id = start(app)
    before = counts(app)
    first = log(app, public_id)

    def append_at_an_old_head(s: Any) -> None:
        game = s.get(Game, game_row(app, public_id).id)
        # A writer that read the head before another writer's event landed.
        game.head_seq, game.head_hash = first[-2].seq, first[-2].hash
        store.append(s, game, "adjudicate", {"by": "test", "reason": "late"})

    with pytest.raises(StaleTurn) as refused:
        with svc_of(app).db.write() as s:
            append_at_an_old_head(s)

    assert isinstance(refused.value.__cause__, IntegrityError)
    assert refused.value.status == 409
    assert str(refused.value).startswith("this turn was already played: another ")
    if not svc_of(app).db.is_sqlite:  # refused at the insert, inside the service
        assert str(refused.value) == "this turn was already played: another move landed first"
    assert counts(app) == before
    assert log(app, public_id) == first


def test_two_writers_at_the_same_head_never_both_land(app):
    public_id = start(app)
    db = svc_of(app).db
    game_id = game_row(app, public_id).id
    head = game_row(app, public_id).head_seq
    barrier = threading.Barrier(2, timeout=10)
    outcomes: dict[int, Any] = {}

    def writer(i: int) -> None:
        try:
            if db.is_sqlite:
                barrier.wait()  # both race for the one write lock
            with db.write() as s:
                game = s.get(Game, game_id)
                seen = game.head_seq
                if not db.is_sqlite:
                    barrier.wait()  # both have read the head before either inserts
                store.append(s, game, "adjudicate", {"by": f"writer {i}", "reason": "race"})
            outcomes[i] = ("landed", seen)
        except StaleTurn as e:
            outcomes[i] = ("stale", e)
        except BaseException as e:  # reported in the test's thread
            outcomes[i] = ("error", e)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)

    kinds = sorted(kind for kind, _ in outcomes.values())
    entries = log(app, public_id)
    assert chain.check_chain(entries) is None
    assert game_row(app, public_id).head_seq == entries[-1].seq
    if db.is_sqlite:
        # One process writes at a time: the second writer reads the first one's head.
        assert kinds == ["landed", "landed"]
        assert sorted(seen for _, seen in outcomes.values()) == [head, head + 1]
        assert [e.seq for e in entries[-2:]] == [head + 1, head + 2]
    else:
        assert kinds == ["landed", "stale"], outcomes
        (loser,) = [e for kind, e in outcomes.values() if kind == "stale"]
        assert isinstance(loser.__cause__, IntegrityError)
        assert entries[-1].seq == head + 1
        assert [e.kind for e in entries].count("adjudicate") == 1


def race(app: Any, via: str, round_: int) -> tuple[str, str, list[int]]:
    """Two browsers (or bots) send the same move at the same moment; their statuses."""
    public_id = start(app, players=((f"r{round_}@example.org", None), (f"s{round_}@x.org", None)))
    tok = token(app, public_id)
    action = legal(app, public_id)[0]
    barrier = threading.Barrier(2, timeout=10)
    statuses: list[int] = []
    errors: list[BaseException] = []

    def post(i: int) -> None:
        client = app.test_client()
        try:
            if via == "api":
                barrier.wait()
                response = client.post(f"/api/play/{tok}", json={"action": action})
            else:
                form = {"csrf": csrf(client), "action": action, "nonce": f"{public_id}-{i}"}
                barrier.wait()
                response = client.post(f"/play/{tok}", data=form)
            statuses.append(response.status_code)
        except BaseException as e:  # reported in the test's thread
            errors.append(e)

    threads = [threading.Thread(target=post, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors
    return public_id, action, sorted(statuses)


@pytest.mark.parametrize("via", ["api", "form"])
def test_two_requests_with_the_same_move_land_exactly_once(app, via):
    for round_ in range(3):
        public_id, action, statuses = race(app, via, round_)

        assert statuses == ([200, 409] if via == "api" else [303, 409])
        entries = log(app, public_id)
        moves = [e for e in entries if e.kind == "move"]
        assert len(moves) == 1 and moves[0].payload == {"action": action}
        assert chain.check_chain(entries) is None
        assert game_row(app, public_id).head_seq == entries[-1].seq


def test_sqlite_runs_in_wal_mode_with_full_sync_and_writes_begin_immediately(app):
    db = svc_of(app).db
    if not db.is_sqlite:
        pytest.skip("SQLite settings")
    with db.read() as s:
        assert s.connection().exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert s.connection().exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    other = sqlite3.connect(db.engine.url.database, timeout=0, isolation_level=None)
    try:
        with db.write() as s:
            s.connection()  # the transaction has begun, nothing written yet
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")  # free again once the write is over
        other.execute("ROLLBACK")
    finally:
        other.close()


def test_the_state_cache_answers_only_for_the_exact_head_it_was_built_at(app):
    public_id = start(app)
    svc = svc_of(app)
    with svc.db.read() as s:
        game = s.get(Game, game_row(app, public_id).id)
        cached = snapshots.CACHE.get(game)
        assert cached is not None, "the service caches the state it just built"
        assert cached[1] == snapshots.rebuild(s, game)[1]
        game.head_hash = "f" * 64  # any other log, even at the same seq, misses
        assert snapshots.CACHE.get(game) is None


def test_a_cold_read_starts_from_the_newest_snapshot_and_folds_every_event_after_it(
    app, monkeypatch
):
    # Each web worker has its own state cache: most requests rebuild from a snapshot row.
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 5)
    public_id = played_game(app, moves=9)
    while game_row(app, public_id).head_seq % 5 == 0:
        move(app, public_id)
    entries = log(app, public_id)
    with svc_of(app).db.read() as s:
        newest = max(s.scalars(select(Snapshot.seq)).all())
    after = [e for e in entries if e.seq > newest]
    assert newest > 0 and any(store.engine_event(e) for e in after), "events after the snapshot"
    rules = loaded(app, public_id).rules
    setup = store.Setup.from_payload(entries[0].payload)
    replayed = engine.replay(
        rules, setup.seats, setup.options, [e for e in map(store.engine_event, entries) if e]
    )
    reads: list[tuple[int, list[int]]] = []
    real_read = snapshots.read_newest

    def spying(session: Any, game: Game) -> snapshots.Cold:
        found = real_read(session, game)
        reads.append((found.seq, [e.seq for e in found.log]))
        return found

    monkeypatch.setattr(snapshots, "read_newest", spying)

    cold = cold_state_of(app, public_id)

    assert reads == [(newest, [e.seq for e in after])], (
        "the rebuild reads only the events after the newest snapshot"
    )
    assert rules.dump(cold) == rules.dump(replayed)
    assert cold == replayed


def test_the_state_cache_keeps_the_most_recently_used_states_up_to_its_size():
    def head(game_id: int, seq: int = 3) -> Game:
        return Game(id=game_id, head_seq=seq, head_hash=f"{game_id:064x}")

    setup = store.Setup("martian-frisby", 1, 2, ("a", "b"), {}, "c")
    assert snapshots.StateCache().size == 256 == snapshots.CACHE.size
    cache = snapshots.StateCache(size=2)
    cache.put(head(1), setup, "one")
    cache.put(head(2), setup, "two")
    assert cache.get(head(1)) == (setup, "one")  # now the most recently used
    cache.put(head(3), setup, "three")

    assert cache.get(head(2)) is None, "the least recently used state goes first"
    assert cache.get(head(1)) == (setup, "one")
    assert cache.get(head(3)) == (setup, "three")
    assert cache.get(head(1, seq=4)) is None
    cache.clear()
    assert cache.get(head(1)) is None and cache.get(head(3)) is None


def test_a_fold_starts_a_new_game_with_the_setups_options():
    rules = engine.rules_for("martian-frisby")
    setup = store.Setup("martian-frisby", 1, 2, ("a", "b"), {"max_turns": 4}, "c")

    assert store.fold(rules, setup, []) == rules.start(2, {"max_turns": 4})
    assert store.fold(rules, setup, []) != rules.start(2, {})


def test_a_game_without_its_setup_event_is_named_in_the_error():
    class NoRows:
        def get(self, *_: Any) -> None:
            return None

    with pytest.raises(LookupError, match="game 0a1b2c3d4e has no setup event"):
        store.load_setup(NoRows(), Game(id=1, public_id="0a1b2c3d4e"))  # type: ignore[arg-type]


def test_a_game_never_starts_from_another_games_snapshot(app, monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 5)
    other = played_game(app, moves=12)
    public_id = start(app)
    while game_row(app, public_id).head_seq <= game_row(app, other).head_seq:
        move(app, public_id)
    with svc_of(app).db.write() as s:
        snapshots.drop_snapshots(s, s.get(Game, game_row(app, public_id).id))
    entries = log(app, public_id)
    setup = store.Setup.from_payload(entries[0].payload)
    rules = loaded(app, public_id).rules

    cold = cold_state_of(app, public_id)

    assert cold == store.fold(rules, setup, entries)


def test_a_cold_read_at_a_snapshot_reads_no_event_after_it(app, monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 5)
    public_id = start(app)
    while game_row(app, public_id).head_seq < 10 or game_row(app, public_id).head_seq % 5:
        move(app, public_id)
    with svc_of(app).db.read() as s:
        assert game_row(app, public_id).head_seq in s.scalars(select(Snapshot.seq)).all()
    entries = log(app, public_id)
    setup = store.Setup.from_payload(entries[0].payload)
    truth = store.fold(loaded(app, public_id).rules, setup, entries)
    read: list[list[int]] = []
    real_read = snapshots.read_newest

    def spying(session: Any, game: Game) -> snapshots.Cold:
        found = real_read(session, game)
        read.append([e.seq for e in found.log])
        return found

    monkeypatch.setattr(snapshots, "read_newest", spying)

    assert cold_state_of(app, public_id) == truth
    assert read == [[]]


def test_a_second_read_at_the_same_head_comes_from_the_cache_without_a_rebuild(app, monkeypatch):
    public_id = played_game(app, moves=2)
    head = game_row(app, public_id).head_seq
    rebuilt: list[int] = []
    real_rebuild = snapshots.rebuild

    def counting(session: Any, game: Game) -> tuple[store.Setup, Any]:
        rebuilt.append(game.head_seq)
        return real_rebuild(session, game)

    monkeypatch.setattr(snapshots, "rebuild", counting)

    first = cold_state_of(app, public_id)
    second = state_of(app, public_id)

    assert rebuilt == [head]
    assert second is first


@pytest.mark.parametrize(
    "kind, seat, payload, event",
    [
        ("move", 0, {"action": "a1-a4 b1-b6"}, engine.Played(0, "a1-a4 b1-b6")),
        ("move", 1, {"action": "b5-b8"}, engine.Played(1, "b5-b8")),
        ("roll", None, {"count": 2, "sides": 6, "values": [6, 1]}, engine.Rolled((6, 1))),
        ("shuffle", None, {"n": 3, "order": [2, 0, 1]}, engine.Shuffled((2, 0, 1))),
        ("resign", 0, {}, engine.Resigned(0)),
        ("resign", 1, {}, engine.Resigned(1)),
        ("timeout", 0, {"policy": "bot", "action": "H roll"}, engine.Played(0, "H roll")),
        ("timeout", 0, {"policy": "forfeit", "action": None}, engine.Resigned(0)),
        ("timeout", 2, {"policy": "forfeit", "action": None}, engine.Resigned(2)),
        ("setup", None, {"game": "martian-frisby"}, None),
        ("reveal", None, {"seed": "00"}, None),
        ("adjudicate", None, {"by": "d", "reason": "r"}, None),
    ],
)
def test_each_logged_kind_replays_as_its_engine_event(kind, seat, payload, event):
    entry = store.LogEntry(5, kind, seat, payload, "2026-11-23T12:00:00.000000+00:00", "0" * 64)
    assert store.engine_event(entry) == event


def test_a_setup_payload_is_read_field_by_field():
    payload = {
        "game": "martian-dice",
        "rules_version": 1,
        "seats": 3,
        "players": ["Ann", "Bob", "Cy"],
        "options": {"duel_retie": "shared"},
        "commitment": "ab" * 32,
    }

    setup = store.Setup.from_payload(payload)

    assert setup == store.Setup(
        "martian-dice", 1, 3, ("Ann", "Bob", "Cy"), {"duel_retie": "shared"}, "ab" * 32
    )
    with pytest.raises(ValueError, match="'rules_version' must be a whole number, not '1'"):
        store.Setup.from_payload(payload | {"rules_version": "1"})
    assert setup.options is not payload["options"], "a copy: the payload stays as logged"


def test_a_move_writes_the_games_row_itself_and_leaves_the_unit_of_work_nothing(app):
    public_id = played_game(app, moves=1)
    svc = svc_of(app)
    g = grant(app, public_id)
    text = legal(app, public_id)[0]
    written: list[tuple[Any, ...]] = []

    def submitting(s: Any) -> None:
        done = submit(s, svc.ctx, g, text)
        game = done.loaded.game
        assert not s.dirty, "nothing of the game is left for the commit's flush"
        columns = (Game.head_seq, Game.head_hash, Game.chances, Game.updated_at,
                   Game.await_since, Game.status)
        row = s.execute(select(*columns).where(Game.id == game.id)).one()
        written.append((tuple(row), (game.head_seq, game.head_hash, game.chances,
                                     game.updated_at, game.await_since, game.status)))

    svc.write(submitting)

    (in_the_row, in_memory), = written
    assert in_the_row[:3] == in_memory[:3] and in_the_row[5] == in_memory[5]
    assert in_the_row[0] > g.seq
    kept = game_row(app, public_id)
    assert (kept.head_seq, kept.head_hash, kept.chances) == in_memory[:3]
    assert as_utc(kept.updated_at) == as_utc(in_memory[3])
    assert as_utc(kept.await_since) == as_utc(in_memory[4])


def as_utc(moment: datetime | None) -> datetime | None:
    """A stored moment as an aware one (SQLite gives it back without its zone, in UTC)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)
