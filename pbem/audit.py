"""Check a game's log: the hash chain, the dice against the commitment, and the rules."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import engine

from . import dice, store


@dataclass(frozen=True)
class Check:
    """The verdict on one event."""

    seq: int
    kind: str
    ok: bool
    detail: str


@dataclass
class Report:
    """Everything an audit found; `first_problem` names the first bad seq and why."""

    header: dict[str, Any]
    checks: list[Check] = field(default_factory=list)
    seed: str | None = None
    commitment: str | None = None

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return all(c.ok for c in self.checks)

    @property
    def first_problem(self) -> Check | None:
        """The first failed check."""
        return next((c for c in self.checks if not c.ok), None)

    @property
    def complete(self) -> bool:
        """Whether the seed was revealed, so that every roll could be checked."""
        return self.seed is not None


def header_for(game_public_id: str, kind: str, rules_version: int, stream: str) -> dict[str, Any]:
    """The first line of an exported log."""
    return {
        "format": "pbem-log",
        "version": 1,
        "game": game_public_id,
        "kind": kind,
        "rules_version": rules_version,
        "stream": stream,
    }


def export_lines(header: dict[str, Any], log: Iterable[store.LogEntry]) -> Iterable[str]:
    """The log as JSON lines: the header, then each event with its hash."""
    yield store.canonical_json(header)
    for entry in log:
        yield store.canonical_json(entry.to_json())


def parse_export(text: str) -> tuple[dict[str, Any], list[store.LogEntry]]:
    """Read an exported log; ValueError names the bad line."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ValueError("the file is empty")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as e:
        raise ValueError(f"line 1 is not JSON: {e}") from e
    if header.get("format") != "pbem-log" or header.get("version") != 1:
        raise ValueError("line 1 is not a pbem-log version 1 header")
    log = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            data = json.loads(line)
            log.append(
                store.LogEntry(
                    int(data["seq"]),
                    str(data["kind"]),
                    data["seat"],
                    dict(data["payload"]),
                    str(data["at"]),
                    str(data["hash"]),
                )
            )
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
            raise ValueError(f"line {number} is not an event: {e}") from e
    return header, log


def verify(
    header: dict[str, Any], log: list[store.LogEntry], head: tuple[int, str] | None = None
) -> Report:
    """Check the chain, the commitment, every chance event and every move (and the end)."""
    report = Report(header)
    _verify_events(report, log)
    if head is not None and report.ok:
        # An intact chain can still be cut short: the game's cached head witnesses its end.
        head_seq, head_hash = head
        end = log[-1].seq if log else -1
        if end != head_seq or (log and log[-1].hash != head_hash):
            seq = end + 1 if end < head_seq else end
            report.checks.append(
                Check(
                    seq,
                    "head",
                    False,
                    f"the log ends at seq {end}, but the game's head is seq {head_seq} "
                    f"({head_hash[:16]}); events were removed or replaced",
                )
            )
    return report


def _verify_events(report: Report, log: list[store.LogEntry]) -> None:
    header = report.header
    checks = report.checks
    problem = store.check_chain(log)
    bad_from = problem.seq if problem else None
    if not log or log[0].kind != "setup":
        checks.append(Check(0, "setup", False, "the log does not start with a setup event"))
        return
    setup = store.Setup.from_payload(log[0].payload)
    report.commitment = setup.commitment
    reveal = next((e for e in log if e.kind == "reveal"), None)
    if reveal is not None:
        seed = str(reveal.payload.get("seed", ""))
        try:
            matches = dice.commitment(seed) == setup.commitment
        except ValueError:
            matches = False
        report.seed = seed if matches else None
    try:
        rules: engine.Rules[Any] | None = engine.rules_for(setup.kind)
    except engine.UnknownGame:
        rules = None
    state = rules.start(setup.seats, setup.options) if rules else None
    chance = 0
    stream = str(header.get("stream", header.get("game", "")))
    for entry in log:
        if bad_from is not None and entry.seq >= bad_from:
            assert problem is not None
            checks.append(Check(entry.seq, entry.kind, False, problem.reason))
            break
        ok, detail = True, "hash chain intact"
        if entry.kind in ("roll", "shuffle"):
            ok, detail = _check_chance(report, stream, chance, entry)
            chance += 1
        elif entry.kind == "reveal":
            ok = report.seed is not None
            detail = (
                "seed matches the commitment"
                if ok
                else "the revealed seed does not match the commitment"
            )
        elif entry.kind == "setup" and rules is None:
            ok, detail = False, f"unknown game {setup.kind!r}"
        if ok and rules is not None:
            event = store.engine_event(entry)
            if event is not None:
                try:
                    state = engine.step(rules, state, event)
                except engine.RulesError as e:
                    ok, detail = False, f"the rules refuse this event: {e}"
        checks.append(Check(entry.seq, entry.kind, ok, detail))
        if not ok:
            break


def _check_chance(report: Report, stream: str, n: int, entry: store.LogEntry) -> tuple[bool, str]:
    if report.seed is None:
        return True, "hash chain intact; the roll is checked once the seed is revealed"
    payload = entry.payload
    if entry.kind == "roll":
        expected: list[int] = dice.roll(report.seed, stream, n, payload["count"], payload["sides"])
        got = list(payload["values"])
    else:
        expected = dice.shuffle(report.seed, stream, n, payload["n"])
        got = list(payload["order"])
    if expected != got:
        return False, f"chance event {n} should be {expected} from the seed, the log says {got}"
    return True, f"chance event {n} matches the seed"
