"""Check a game's log: the hash chain, the dice against the commitment, and the rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine

from . import chain, dice, store


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
    problem = chain.check_chain(log)
    bad_from = problem.seq if problem else None
    if not log or log[0].kind != "setup" or log[0].hidden:
        checks.append(Check(0, "setup", False, "the log does not start with a setup event"))
        return
    started = _start(header, log[0])
    if isinstance(started, str):
        checks.append(Check(0, "setup", False, started))
        return
    setup, rules, state = started
    report.commitment = setup.commitment
    reveal = next((e for e in log if e.kind == "reveal" and not e.hidden), None)
    if reveal is not None:
        seed = reveal.payload.get("seed")
        if store.is_hex(seed, 64) and dice.commitment(str(seed)) == setup.commitment:
            report.seed = str(seed)
    chance = 0
    stream = str(header.get("stream", header.get("game", "")))
    addresses: set[str] = set()
    # The first secret still hidden: the state after it is unknown, so the rules stop there.
    unknown_from: int | None = None
    for entry in log:
        if bad_from is not None and entry.seq >= bad_from:
            assert problem is not None
            checks.append(Check(entry.seq, entry.kind, False, problem.reason))
            break
        ok, detail = True, "hash chain intact"
        if entry.hidden:
            unknown_from = entry.seq if unknown_from is None else unknown_from
            chance += entry.kind in ("roll", "shuffle")
            commit = entry.commit or ""
            detail += f"; secret until the rules reveal it (commitment {commit[:16]}…)"
            checks.append(Check(entry.seq, entry.kind, True, detail))
            continue
        shape = payload_problem(entry, setup.seats)
        if shape is not None:
            ok, detail = False, shape
        elif entry.kind in ("roll", "shuffle"):
            # After a secret still hidden the state is unknown, and so is the rules' address.
            named = rules.chance_address(state) if unknown_from is None else None
            known = unknown_from is None
            address, problem_text = _address(
                setup.dice_scheme, chance, entry, named, known, addresses
            )
            if problem_text is None:
                ok, detail = _check_chance(report, stream, address, entry)
            else:
                ok, detail = False, problem_text
            chance += 1
        elif entry.kind == "reveal":
            ok = report.seed is not None
            detail = (
                "seed matches the commitment"
                if ok
                else "the revealed seed does not match the commitment"
            )
        if ok and entry.salt is not None:
            detail += "; the payload matches its commitment"
        if ok and unknown_from is None:
            ok, detail, state = _check_rules(rules, setup, state, entry, detail)
        elif ok:
            detail += f"; the rules are checked once the secret at seq {unknown_from} is revealed"
        checks.append(Check(entry.seq, entry.kind, ok, detail))
        if not ok:
            break


def _start(
    header: dict[str, Any], first: store.LogEntry
) -> tuple[store.Setup, engine.Rules[Any], Any] | str:
    """The setup, the rules and the first state, or why the setup event cannot start a game."""
    try:
        setup = store.Setup.from_payload(first.payload)
    except ValueError as e:
        return f"the setup event cannot be read: {e}"
    if header.get("version", setup.log_format) != setup.log_format:
        return f"the header says log format {header.get('version')!r}, the setup {setup.log_format}"
    try:
        engine.rules_for(setup.kind)
    except engine.UnknownGame:
        return f"unknown game {setup.kind[:40]!r}"
    try:
        rules = setup.rules()
    except engine.UnknownGame:
        known = ", ".join(str(v) for v in engine.rules_versions(setup.kind))
        return (
            f"the game was played under rules version {setup.rules_version} of {setup.kind}; "
            f"this server knows versions {known}"
        )
    try:
        rules.check_seats(setup.seats)
        rules.resolve_options(setup.options)  # each option known and of its kind
        return setup, rules, rules.start(setup.seats, setup.options)
    except engine.RulesError as e:
        return f"the game cannot start from this setup: {e}"


MAX_DICE = 1000  # more dice, faces or cards than any game uses: a forged log


def payload_problem(entry: store.LogEntry, seats: int) -> str | None:
    """What is wrong with the shape of an event's seat and payload, if anything."""
    kind, seat, payload = entry.kind, entry.seat, entry.payload
    if kind in ("move", "resign", "timeout"):
        if not isinstance(seat, int) or not 0 <= seat < seats:
            return f"a {kind} needs the seat that acted, 0 to {seats - 1}, not {seat!r}"
    elif kind in ("setup", "roll", "shuffle", "reveal"):
        if seat is not None:
            return f"a {kind} event has no seat, not {seat!r}"
    elif seat is not None and (not isinstance(seat, int) or not 0 <= seat < seats):
        return f"a {kind} concerns a seat of the game or none, not {seat!r}"
    try:
        if kind == "setup" and entry.seq != 0:
            return "a second setup event"
        if kind == "move":
            store.field(payload, "action", str)
        elif kind == "roll":
            count, sides = store.field(payload, "count", int), store.field(payload, "sides", int)
            values = store.field(payload, "values", list)
            if not (0 <= count <= MAX_DICE and 1 <= sides <= 256 and len(values) == count):
                return f"a roll of {count} dice of {sides} faces cannot give {values!r}"
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                return f"the values of a roll are whole numbers, not {values!r}"
        elif kind == "shuffle":
            n, order = store.field(payload, "n", int), store.field(payload, "order", list)
            numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in order)
            if not 0 <= n <= MAX_DICE or not numbers or sorted(order) != list(range(n)):
                return f"a shuffle of {n} cards must order 0 to {n - 1} once each"
        elif kind == "timeout":
            if payload.get("policy") not in ("bot", "forfeit"):
                return f"a timeout's policy is bot or forfeit, not {payload.get('policy')!r}"
            if not isinstance(payload.get("action"), str | None):
                return f"a timeout's action is text or null, not {payload.get('action')!r}"
        elif kind == "reveal" and not store.is_hex(payload.get("seed"), 64):
            return "a reveal carries the seed as 64 hex digits"
    except ValueError as e:
        return f"the {kind} event cannot be read: {e}"
    return None


def _check_rules(
    rules: engine.Rules[Any], setup: store.Setup, state: Any, entry: store.LogEntry, detail: str
) -> tuple[bool, str, Any]:
    """Step the rules over one event; in format 2 a secret event must carry a commitment."""
    event = store.engine_event(entry)
    if event is None:
        return True, detail, state
    try:
        if setup.log_format >= 2 and entry.salt is None and rules.is_secret(state, event):
            return False, "a secret event was logged without a commitment to hide it", state
        return True, detail, engine.step(rules, state, event)
    except engine.RulesError as e:
        return False, f"the rules refuse this event: {e}", state
    except (ValueError, TypeError, LookupError) as e:
        # A forged action the rules cannot even read: the log is at fault, not the checker.
        return False, f"the rules cannot read this event: {e}", state


def _address(
    scheme: int, n: int, entry: store.LogEntry, named: str | None, known: bool, seen: set[str]
) -> tuple[str, str | None]:
    """The address of the n-th chance event's dice, and what is wrong with it, if anything.

    `named` is the rules' own name for it, checked when the state is `known`.
    """
    if scheme == 1:
        return str(n), None
    address = entry.payload.get("address")
    if not isinstance(address, str) or not (address == str(n) or dice.ADDRESS.fullmatch(address)):
        return str(n), f"a scheme 2 chance event names its address, not {str(address)[:80]!r}"
    if address in seen:
        return address, f"the address {address!r} was used before; each chance event has its own"
    seen.add(address)
    expected = dice.address_for(scheme, n, named) if known else address
    if expected != address:
        return address, f"the rules name this chance event {expected!r}, the log says {address!r}"
    return address, None


def _check_chance(
    report: Report, stream: str, address: str, entry: store.LogEntry
) -> tuple[bool, str]:
    if report.seed is None:
        return True, "hash chain intact; the roll is checked once the seed is revealed"
    payload = entry.payload
    if entry.kind == "roll":
        expected: list[int] = dice.roll(
            report.seed, stream, address, payload["count"], payload["sides"]
        )
        got = list(payload["values"])
    else:
        expected = dice.shuffle(report.seed, stream, address, payload["n"])
        got = list(payload["order"])
    if expected != got:
        return (
            False,
            f"chance event {address} should be {expected} from the seed, the log says {got}",
        )
    return True, f"chance event {address} matches the seed"
