"""`verify` re-derives every pair event and names the first one that differs, and how."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.tournaments.core.export import standings_hash
from pbem.tournaments.core.formats import plan
from pbem.tournaments.core.model import Event, Tournament
from pbem.tournaments.core.verify import verify

from .logs import Log
from .simulate import commit, run


def players(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(1, n + 1)]


def swiss_log() -> Log:
    return run(Log("swiss", rounds=4).register(*players(7)).start(), seed=3)


def pair_events(log: Log) -> list[Event]:
    return [e for e in log.events if e.kind == "pair"]


def altered(log: Log, seq: int, **payload: object) -> list[Event]:
    event = log.events[seq]
    changed = replace(event, payload={**event.payload, **payload})
    return [changed if e.seq == seq else e for e in log.events]


@pytest.mark.parametrize(("system", "sizes", "n", "create"), [
    ("swiss", (2,), 7, {"rounds": 4}),
    ("swiss", (4, 5), 13, {"rounds": 3}),
    ("round-robin", (3,), 9, {}),
    ("rolling-swiss", (2,), 9, {"games_per_player": 4, "max_concurrent": 2, "pair_min_free": 4,
                                "pair_max_wait_hours": 12}),
    ("knockout", (2,), 6, {}),
    ("knockout", (4,), 10, {"advance": 2}),
])
def test_a_log_paired_by_the_plan_verifies(system, sizes, n, create):
    log = run(Log(system, table_sizes=sizes, **create).register(*players(n)).start(), seed=1)
    assert verify(log.events) is None


def test_swapped_seats_are_named_with_the_seq_and_the_table():
    log = swiss_log()
    second = pair_events(log)[1]
    tables = [dict(t) for t in second.payload["tables"]]
    tables[0]["seats"] = list(reversed(tables[0]["seats"]))
    mismatch = verify(altered(log, second.seq, tables=tables))
    assert mismatch is not None and mismatch.seq == second.seq
    assert mismatch.problem.startswith(f"table 1 (game {tables[0]['game']}) seats ")
    assert str(mismatch).startswith(f"event {second.seq}: table 1")


def test_a_changed_bye_is_named():
    log = swiss_log()
    first = pair_events(log)[0]
    byes = [{"player": first.payload["byes"][0]["player"], "points": 0.5}]
    mismatch = verify(altered(log, first.seq, byes=byes))
    assert mismatch is not None and mismatch.seq == first.seq and "byes" in mismatch.problem


def test_a_changed_inputs_hash_is_named():
    log = swiss_log()
    first = pair_events(log)[0]
    mismatch = verify(altered(log, first.seq, inputs="f" * 64))
    assert mismatch is not None and mismatch.problem.startswith("inputs hash " + "f" * 64)


def test_a_pairing_nobody_asked_for_is_named():
    log = Log("swiss", rounds=1).register(*players(4)).start()
    run(log, seed=2)
    log.pair(2, [["p01", "p02"]])
    mismatch = verify(log.events)
    assert mismatch is not None and mismatch.problem == (
        f"no pairing was due at {log.events[-1].at.isoformat()}, but round 2 was paired")


def test_another_algorithm_is_named_rather_than_guessed():
    log = swiss_log()
    first = pair_events(log)[0]
    mismatch = verify(altered(log, first.seq, algorithm="elsewhere/7"))
    assert mismatch is not None and "'elsewhere/7'" in mismatch.problem


def test_the_close_must_carry_the_standings_hash():
    log = swiss_log()
    good = standings_hash(log.tournament())
    log.add("close", {"standings": good})
    assert verify(log.events) is None
    mismatch = verify(altered(log, log.events[-1].seq, standings="0" * 64))
    assert mismatch is not None and mismatch.problem == f"standings hash {'0' * 64}, derived {good}"
    assert mismatch.seq == log.events[-1].seq


def test_a_log_that_does_not_fold_is_reported_at_its_seq():
    log = swiss_log()
    log.add("promote", {})
    mismatch = verify(log.events)
    assert mismatch is not None and mismatch.seq == log.events[-1].seq
    assert "does not fold" in mismatch.problem


def test_a_changed_round_number_is_named():
    log = swiss_log()
    first = pair_events(log)[0]
    mismatch = verify(altered(log, first.seq, round=5))
    assert mismatch is not None and mismatch.problem == "round 5, derived round 1"


def test_a_rematch_the_plan_does_not_name_is_named():
    log = swiss_log()
    first = pair_events(log)[0]
    mismatch = verify(altered(log, first.seq, rematches=[{"players": ["p01", "p02"]}]))
    assert mismatch is not None
    assert mismatch.problem == "rematches [{'players': ['p01', 'p02']}], derived []"


def test_a_round_paired_around_an_away_player_verifies():
    # p02 is away for the first round: the plan re-derived without him would seat him.
    log = run(Log("swiss", rounds=3).register(*players(5)).start(), seed=4,
              away=lambda step: {"p02"} if step == 0 else ())
    first = pair_events(log)[0]
    assert first.payload["away"] == ["p02"]
    assert verify(log.events) is None


def test_a_log_paired_by_an_earlier_version_is_checked_by_that_version():
    log = run(Log("round-robin", table_sizes=(3,)).register(*players(6)).start(), seed=2,
              algorithm="pbem-round-robin-tables/1")
    assert {e.payload["algorithm"] for e in pair_events(log)} == {"pbem-round-robin-tables/1"}
    assert verify(log.events) is None


def test_a_witness_checks_every_result_and_director_event_and_is_named_at_its_seq():
    log = swiss_log()
    log.director("annul", game="g1")
    asked: list[tuple[int, str, int]] = []

    def witness(event: Event, t: Tournament) -> str:
        # The tournament is the one before the event: its head is the seq before.
        asked.append((event.seq, event.kind, t.head))
        return ""

    assert verify(log.events, witness) is None
    assert asked == [(e.seq, e.kind, e.seq - 1) for e in log.events
                     if e.kind in ("result", "director")]
    assert asked[-1][1] == "director"
    late = log.events[-1].seq
    mismatch = verify(log.events, lambda e, t: "g1 is not annulled" if e.seq == late else "")
    assert (mismatch is not None and mismatch.seq, mismatch.problem) == (late, "g1 is not annulled")


def test_a_round_paired_while_the_last_one_is_unfinished_is_named():
    # Round 1 paired by the plan; one of its three games has ended. Round 2 is then paired
    # with no start of round 2 logged: verify names the round, the time and the games left.
    log = Log("swiss", rounds=2).register(*players(6)).start()
    p = plan(log.tournament(), log.now)
    assert p is not None
    first, second, third = commit(log, p)
    log.result(first, [1, 2])
    log.pair(2, [["p01", "p03"]])
    at = log.events[-1].at.isoformat()
    mismatch = verify(log.events)
    assert mismatch is not None and mismatch.seq == log.events[-1].seq
    assert mismatch.problem == (
        f"round 2 was paired at {at} while round 1 still had unfinished games ({second}, "
        f"{third}), and no start of round 2 (by the director, or on the timetable) was logged "
        "before it")
