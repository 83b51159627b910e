"""Plain dicts that pages and mails render: positions, history lines, audit results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import engine

from .log import store
from .log.games import Loaded, Ruling

LEGAL_LISTED = 12  # a turn mail lists the legal actions when there are at most this many


def position(
    rules: engine.Rules[Any], state: Any, seat: int | None, ruling: Ruling | None = None,
    ending: str | None = None, gone: dict[int, str] | None = None,
) -> dict[str, Any]:
    """Everything a page or mail shows about a position, for one viewer.

    A director's ruling (an adjudication or an abort) ends the game whatever the rules say;
    an `ending` (a timeout, a withdrawal) says how it ended where the rules' words would not,
    and `gone` how each seat that left it left ("timed out", "withdrawn"), which the rules
    call resigned.
    """
    pending = rules.pending(state)
    if ruling is not None:
        pending = engine.Finished(ruling.outcome) if ruling.outcome else pending
    awaited = pending.seats if isinstance(pending, engine.Await) and ruling is None else ()
    outcome = pending.outcome if isinstance(pending, engine.Finished) else None
    legal = rules.legal(state, seat) if seat is not None and seat in awaited else ()
    choices = described(rules, state, seat, legal) if len(legal) <= LEGAL_LISTED else []
    awaited_text = engine.awaited_text(rules, state, pending)
    ended = ruling is not None or outcome is not None
    if ruling is not None:
        awaited_text = ruling_text(rules, state, ruling)
    return {
        "kind": rules.kind,
        "title": rules.title,
        "rules_version": rules.version,
        "view": rules.view(state, seat),
        "seat": seat,
        "seat_names": [rules.seat_name(state, s) for s in range(rules.seat_count(state))],
        "awaited": list(awaited),
        "await_kind": pending.kind if isinstance(pending, engine.Await) else None,
        "awaited_text": awaited_text,
        "legal": list(legal),
        "choices": choices,
        "finished": ended,
        "ended": (awaited_text if ruling else ending or outcome.reason if outcome else None),
        "outcome": outcome.to_json() if outcome else None,
        "winners": [rules.seat_name(state, s) for s in outcome.winners] if outcome else [],
        "gone": dict(gone or {}),
    }


def of_game(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    """A loaded game's position for one viewer, with its ruling and how seats left it."""
    return position(loaded.rules, loaded.state, seat, loaded.ruling, loaded.ending,
                    loaded.gone)


def options_played(rules: engine.Rules[Any], options: dict[str, Any]) -> list[dict[str, Any]]:
    """Every option of a game as it was created: its value, the default and what it means."""
    return [
        {
            "name": o.name,
            "value": options.get(o.name, o.default),
            "default": o.default,
            "help": o.help,
            "changed": options.get(o.name, o.default) != o.default,
        }
        for o in rules.options
    ]


def described(
    rules: engine.Rules[Any], state: Any, seat: int | None, actions: Sequence[str]
) -> list[dict[str, str]]:
    """Each of a seat's actions with the sentence that says, to that seat, what it does."""
    if seat is None:
        return []
    return [
        {"action": a, "text": rules.describe(state, engine.Played(seat, a), seat)}
        for a in actions
    ]


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


REDACTED = {"redacted": True}  # a hidden payload in log format 1, which has no commitments


def shown(entry: store.LogEntry) -> store.LogEntry:
    """A secret entry as the public sees it: its commitment (format 2), or redacted (format 1)."""
    return entry.hide() if entry.salt is not None else replace(entry, payload=REDACTED)


def visible_log(
    rules: engine.Rules[Any],
    setup: store.Setup,
    log: list[store.LogEntry],
    now: Any = None,
    start: Any = None,
) -> list[tuple[store.LogEntry, Any, bool]]:
    """Each entry with the state before it and whether it is still secret in the state `now`.

    The log is folded from `start`, the state before its first entry (a new game by
    default, for a log from its setup). Without `now`, the log is folded to find it. A
    damaged log, one the rules refuse, is folded up to the refused event; from there on
    every committed secret stays hidden.
    """
    state = rules.start(setup.seats, setup.options) if start is None else start
    before: list[Any] = []
    refused: int | None = None
    for entry in log:
        before.append(state)
        event = store.engine_event(entry)
        if event is not None and refused is None:
            try:
                state = engine.step(rules, state, event)
            except engine.RulesError:
                refused = entry.seq
    if now is None and refused is None:
        now = state
    shown = []
    for entry, state in zip(log, before, strict=True):
        event = store.engine_event(entry)
        if now is None or (refused is not None and entry.seq >= refused):
            hidden = entry.salt is not None
        else:
            hidden = event is not None and not rules.is_revealed(state, event, now)
        shown.append((entry, state, hidden))
    return shown


def history(
    rules: engine.Rules[Any],
    setup: store.Setup,
    log: list[store.LogEntry],
    now: Any,
    start: Any = None,
) -> tuple[list[dict[str, Any]], list[Any]]:
    """One line per event (secrets hidden while secret), and the state after each event.

    `log` may be any run of events, with `start` the state before its first.
    """
    lines = []
    visible = visible_log(rules, setup, log, now, start)
    for entry, before, hidden in visible:
        if hidden:
            public, text = shown(entry), secret_sentence(rules, before, entry)
        else:
            public, text = entry, sentence(rules, before, entry, setup)
        lines.append({**public.to_json(), "text": text})
    # The state after event i is the state before event i + 1; after the last, it is `now`.
    after = [before for _, before, _ in visible[1:]] + [now]
    return lines, after


def public_log(
    rules: engine.Rules[Any],
    setup: store.Setup,
    log: list[store.LogEntry],
    now: Any = None,
    start: Any = None,
) -> list[store.LogEntry]:
    """The log as anyone may see it in the state `now` (its end): secret payloads replaced.

    `log` may be any run of events, with `start` the state before its first.
    """
    if setup.log_format >= 2 and all(entry.salt is None for entry in log):
        return log  # format 2 salts every secret event: without a salt there is no secret
    visible = visible_log(rules, setup, log, now, start)
    return [shown(entry) if hidden else entry for entry, _, hidden in visible]


def public_entries(log: list[store.LogEntry]) -> list[store.LogEntry]:
    """The public log of a stored game without its cached state: even a damaged log shows."""
    try:
        setup = store.Setup.from_payload(log[0].payload)
        rules = setup.rules()
    except (IndexError, KeyError, TypeError, ValueError, engine.RulesError):
        return [entry.hide() if entry.salt is not None else entry for entry in log]
    return public_log(rules, setup, log)


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
    seat = entry.seat if entry.seat is not None else 0
    name = rules.seat_name(state, entry.seat) if entry.seat is not None else ""
    payload = entry.payload
    if entry.kind == "setup":
        players = ", ".join(payload["players"])
        return f"{rules.title} set up for {players}; dice commitment {payload['commitment'][:12]}…"
    if entry.kind == "roll":
        words = rules.describe_roll(state, tuple(payload["values"]))
        if words is not None:
            return words
        rolled = "Rolled " + " ".join(str(v) for v in payload["values"])
        if entry.seq == 1 and payload["count"] == 1 and payload["sides"] == setup.seats:
            return f"{rolled} to decide who starts"  # the opening roll of every dice game
        return rolled
    if entry.kind == "shuffle":
        return f"Shuffled {payload['n']} cards"
    if entry.kind == "move":
        # Shown only once revealed (or never secret): the actor's own full sentence.
        return rules.describe(state, engine.Played(seat, payload["action"]), seat)
    if entry.kind == "resign" and payload.get("withdrawn"):
        return f"{name} leaves the event ({payload.get('by')}: {payload.get('reason')})"
    if entry.kind == "resign":
        return f"{name} resigns"
    if entry.kind == "timeout":
        action = payload.get("action")
        what = (rules.describe(state, engine.Played(seat, action), seat) if action
                else f"{name} forfeits")
        return f"Time ran out ({payload.get('policy')}): {what}"
    if entry.kind == "reveal":
        return f"Dice seed revealed: {payload['seed'][:12]}…"
    return director_sentence(rules, state, entry)


def ruling_text(rules: engine.Rules[Any], state: Any, ruling: Ruling) -> str:
    """A ruling in words, the result first: "South won, adjudicated by Dee: a lost position"."""
    outcome = ruling.outcome
    if outcome is None:
        return ruling.text
    names = [rules.seat_name(state, s) for s in range(len(outcome.ranks))]
    winners = [names[s] for s in outcome.winners]
    if len(winners) == len(names):
        result = "a draw" if len(names) == 2 else "all share first place"
    else:
        result = f"{' and '.join(winners)} {'won' if len(winners) == 1 else 'shared the win'}"
        if len(names) > 2:
            result += " (" + ", ".join(f"{names[s]} {ordinal(rank)}"
                                       for s, rank in enumerate(outcome.ranks)) + ")"
    return f"{result}, adjudicated by {ruling.by}: {ruling.reason}"


def director_sentence(rules: engine.Rules[Any], state: Any, entry: store.LogEntry) -> str:
    """A director's action in words, with who and why."""
    payload = entry.payload
    why = f" ({payload.get('by', 'a director')}: {payload.get('reason', '')})"
    if entry.kind == "adjudicate":
        places = ", ".join(
            f"{rules.seat_name(state, seat)} {ordinal(rank)}"
            for seat, rank in enumerate(payload["ranks"])
        )
        return f"Adjudicated: {places}{why}"
    if entry.kind == "abort":
        return f"Aborted with no result{why}"
    if entry.kind == "extend":
        return f"Deadline extended by {payload['hours']} hours{why}"
    if entry.kind == "replace" and entry.seat is not None:
        return f"{rules.seat_name(state, entry.seat)} is now played by {payload['name']}{why}"
    return f"{entry.kind}{why}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
