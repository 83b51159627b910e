"""Plain dicts that pages and mails render: positions, history lines, audit results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import engine

from . import store

LEGAL_LISTED = 12  # a turn mail lists the legal actions when there are at most this many


def position(rules: engine.Rules[Any], state: Any, seat: int | None) -> dict[str, Any]:
    """Everything a page or mail shows about a position, for one viewer."""
    pending = rules.pending(state)
    awaited = pending.seats if isinstance(pending, engine.Await) else ()
    outcome = pending.outcome if isinstance(pending, engine.Finished) else None
    legal = rules.legal(state, seat) if seat is not None and seat in awaited else ()
    choices = described(rules, state, legal) if len(legal) <= LEGAL_LISTED else []
    return {
        "kind": rules.kind,
        "title": rules.title,
        "view": rules.view(state, seat),
        "seat": seat,
        "seat_names": [rules.seat_name(state, s) for s in range(rules.seat_count(state))],
        "awaited": list(awaited),
        "await_kind": pending.kind if isinstance(pending, engine.Await) else None,
        "awaited_text": engine.awaited_text(rules, state, pending),
        "legal": list(legal),
        "choices": choices,
        "finished": outcome is not None,
        "outcome": outcome.to_json() if outcome else None,
        "winners": [rules.seat_name(state, s) for s in outcome.winners] if outcome else [],
    }


def described(rules: engine.Rules[Any], state: Any, actions: Sequence[str]) -> list[dict[str, str]]:
    """Each action with the sentence that says what it does."""
    return [{"action": a, "text": rules.describe(state, a)} for a in actions]


def groups(
    rules: engine.Rules[Any], state: Any, seat: int | None, legal: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Legal actions grouped by the square they start from, for point-and-click pages."""
    if seat is None or not legal:
        return []
    found: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        where = rules.annotate(state, seat, action)
        if "from" not in where:
            return []
        found.setdefault(where["from"], []).append({"action": action, "to": where["to"]})
    return [{"from": square, "actions": actions} for square, actions in found.items()]


REDACTED = {"redacted": True}


def visible_log(
    rules: engine.Rules[Any], setup: store.Setup, log: list[store.LogEntry], now: Any
) -> list[tuple[store.LogEntry, Any, bool]]:
    """Each entry with the state before it and whether it is still secret in the state `now`."""
    state = rules.start(setup.seats, setup.options)
    shown = []
    for entry in log:
        event = store.engine_event(entry)
        hidden = event is not None and not rules.is_revealed(state, event, now)
        shown.append((entry, state, hidden))
        if event is not None:
            state = engine.step(rules, state, event)
    return shown


def history(
    rules: engine.Rules[Any], setup: store.Setup, log: list[store.LogEntry], now: Any
) -> tuple[list[dict[str, Any]], list[Any]]:
    """One line per event (secrets hidden while secret), and the state after each event."""
    lines = []
    visible = visible_log(rules, setup, log, now)
    for entry, before, hidden in visible:
        if hidden:
            shown = replace(entry, payload=REDACTED)
            text = secret_sentence(rules, before, entry)
        else:
            shown, text = entry, sentence(rules, before, entry, setup)
        lines.append({**shown.to_json(), "text": text})
    # The state after event i is the state before event i + 1; after the last, it is `now`.
    after = [before for _, before, _ in visible[1:]] + [now]
    return lines, after


def public_log(
    rules: engine.Rules[Any], setup: store.Setup, log: list[store.LogEntry], now: Any
) -> list[store.LogEntry]:
    """The log as anyone may see it in the state `now`: secret payloads replaced."""
    return [
        replace(entry, payload=REDACTED) if hidden else entry
        for entry, _, hidden in visible_log(rules, setup, log, now)
    ]


def secret_sentence(rules: engine.Rules[Any], state: Any, entry: store.LogEntry) -> str:
    """What may be said of a secret event before the game ends."""
    if entry.kind == "shuffle":
        return f"Shuffled {entry.payload.get('n', 'the')} cards (order secret until the end)"
    if entry.seat is not None:
        return f"{rules.seat_name(state, entry.seat)} made a secret choice"
    return "A secret event (shown when the game ends)"


def sentence(
    rules: engine.Rules[Any], state: Any, entry: store.LogEntry, setup: store.Setup
) -> str:
    """A sentence for one log entry, given the state before it."""
    name = rules.seat_name(state, entry.seat) if entry.seat is not None else ""
    payload = entry.payload
    if entry.kind == "setup":
        players = ", ".join(payload["players"])
        return f"{rules.title} set up for {players}; dice commitment {payload['commitment'][:12]}…"
    if entry.kind == "roll":
        rolled = "Rolled " + " ".join(str(v) for v in payload["values"])
        if entry.seq == 1 and payload["count"] == 1 and payload["sides"] == setup.seats:
            return f"{rolled} to decide who starts"  # the opening roll of every dice game
        return rolled
    if entry.kind == "shuffle":
        return f"Shuffled {payload['n']} cards"
    if entry.kind == "move":
        return rules.describe(state, payload["action"])
    if entry.kind == "resign":
        return f"{name} resigns"
    if entry.kind == "timeout":
        action = payload.get("action")
        what = rules.describe(state, action) if action else f"{name} forfeits"
        return f"Time ran out ({payload.get('policy')}): {what}"
    if entry.kind == "reveal":
        return f"Dice seed revealed: {payload['seed'][:12]}…"
    return f"{entry.kind}: {payload.get('reason', '')}"
