"""The golden corpus: recorded games of every kind and preset, and what replaying them shows.

A recorded game is its setup and its events. After the setup and after each event, replay
takes a digest of everything the rules say about the state: the snapshot (`dump`), the view
of every seat and of a spectator, what the game waits for, the outcome, and the sentence
each viewer reads about the event. The digests, and full dumps at a few points, are stored;
a replay under the game's rules version must give them exactly.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from engine import Await, Finished, Played, Resigned, Rolled, Shuffled
from engine.testing import chance_event

ROOT = Path(__file__).resolve().parent
FULL_AT = 3  # full dumps at the start, the middle and the end of each game


def canonical(obj: Any) -> str:
    """The canonical JSON the event log uses."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_to_json(event: engine.Event) -> list[Any]:
    """A compact JSON form of an engine event."""
    if isinstance(event, Played):
        return ["move", event.seat, event.action]
    if isinstance(event, Resigned):
        return ["resign", event.seat]
    if isinstance(event, Rolled):
        return ["roll", list(event.values)]
    return ["shuffle", list(event.order)]


def event_from_json(data: list[Any]) -> engine.Event:
    """The engine event a compact JSON form was made from."""
    kind = data[0]
    if kind == "move":
        return Played(int(data[1]), str(data[2]))
    if kind == "resign":
        return Resigned(int(data[1]))
    if kind == "roll":
        return Rolled(tuple(data[1]))
    if kind == "shuffle":
        return Shuffled(tuple(data[1]))
    raise ValueError(f"unknown event {data!r}")


def pending_json(pending: engine.Pending) -> Any:
    """What a game waits for, as JSON."""
    if isinstance(pending, Await):
        return ["await", list(pending.seats), pending.kind]
    if isinstance(pending, Finished):
        return ["finished", pending.outcome.to_json()]
    if isinstance(pending, engine.Roll):
        return ["roll", pending.count, pending.sides]
    return ["shuffle", pending.n]


def picture(
    rules: engine.Rules[Any], before: Any, event: engine.Event | None, state: Any
) -> dict[str, Any]:
    """Everything the rules say about a state reached by an event (None: the start)."""
    seats = rules.seat_count(state)
    viewers: list[int | None] = [*range(seats), None]
    outcome = rules.outcome(state)
    said = None
    if isinstance(event, Played):
        said = [rules.describe(before, event, viewer) for viewer in viewers]
    return {
        "dump": rules.dump(state),
        "views": [rules.view(state, viewer) for viewer in viewers],
        "pending": pending_json(rules.pending(state)),
        "outcome": outcome.to_json() if outcome else None,
        "said": said,
    }


def digest(pic: dict[str, Any]) -> str:
    """A short hash of a picture (64 bits are plenty to catch a change)."""
    return hashlib.sha256(canonical(pic).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Replayed:
    """A recorded game replayed: a digest per state, and the pictures at the full points."""

    digests: list[str]
    full: dict[str, dict[str, Any]]


def full_points(count: int) -> list[int]:
    """The states (0 = the start) that get a full dump: start, middle, end."""
    return sorted({0, count // 2, count})[:FULL_AT]


def replay(game: dict[str, Any]) -> Replayed:
    """Replay a recorded game under its own rules version."""
    rules = engine.rules_for(game["kind"], game["rules_version"])
    events = [event_from_json(e) for e in game["events"]]
    points = set(full_points(len(events)))
    state = rules.start(game["seats"], game["options"])
    pic = picture(rules, None, None, state)
    digests, full = [digest(pic)], {"0": pic} if 0 in points else {}
    for n, event in enumerate(events, start=1):
        before = state
        state = engine.step(rules, state, event)
        pic = picture(rules, before, event, state)
        digests.append(digest(pic))
        if n in points:
            full[str(n)] = pic
    return Replayed(digests, full)


# --- how the recorded games are played ----------------------------------------------------

# Short games keep the corpus small and quick: random play meets these limits early.
SHORT = {"stall_rounds": 4, "max_turns": 120}
LONG = {"stall_rounds": 25, "max_turns": 2000}


@dataclass(frozen=True)
class Scenario:
    """One recorded game: who plays how, with which preset and player count."""

    name: str
    seats: int
    preset: str | None
    style: str  # random, bots, resign, timeouts, long
    seed: int


def scenarios(rules: engine.Rules[Any]) -> Iterator[Scenario]:
    """The games recorded for one kind: every preset, random and bot play, resignations."""
    fewest, most = rules.seats[0], rules.seats[-1]
    for preset in [None, *rules.presets]:
        label = preset or "default"
        yield Scenario(f"random-{label}-{fewest}", fewest, preset, "random", 1)
    yield Scenario(f"random-again-{most}", most, None, "random", 2)
    yield Scenario(f"bots-default-{most}", most, None, "bots", 3)
    yield Scenario(f"resign-default-{most}", most, None, "resign", 4)
    yield Scenario(f"timeouts-default-{fewest}", fewest, None, "timeouts", 5)


LONG_GAME = ("martian-dice", Scenario("long-default-8", 8, None, "long", 6))


def options_for(rules: engine.Rules[Any], scenario: Scenario) -> dict[str, Any]:
    """The resolved options of a scenario: its preset, and limits where the game has them."""
    limits = LONG if scenario.style == "long" else SHORT
    names = {o.name for o in rules.options}
    explicit = {k: v for k, v in limits.items() if k in names}
    if scenario.style == "bots" and rules.kind in ("martian-race", "mad-dog"):
        explicit["max_turns"] = 12  # the house bots push in long chains: keep it short
    if "max_turns" in explicit and rules.kind == "martian-frisby":
        explicit["max_turns"] = 60 if scenario.style != "long" else 1000
    if "max_turns" in explicit and rules.kind == "martianopolis-500":
        explicit["max_turns"] = 12 if scenario.style != "long" else 500
    return rules.resolve_options(explicit, scenario.preset)


def play(rules: engine.Rules[Any], scenario: Scenario, options: dict[str, Any]) -> list[Any]:
    """Play a scenario's game to its end; return its events as JSON."""
    rng = random.Random(f"{rules.kind}:{scenario.name}:{scenario.seed}")
    state = rules.start(scenario.seats, options)
    events: list[Any] = []
    resigned: set[int] = set()
    while not isinstance(pending := rules.pending(state), Finished):
        event: engine.Event
        if isinstance(pending, Await):
            seat = pending.seats[rng.randrange(len(pending.seats))]
            active = rules.seat_count(state) - len(resigned)
            if scenario.style == "resign" and active > 1 and rng.random() < 0.03:
                event = Resigned(seat)
                resigned.add(seat)
            elif scenario.style == "timeouts" and rng.random() < 0.3:
                # A deadline passing: the house bot acts, or the seat forfeits (resigns).
                if len(events) > 30 and not resigned and rng.random() < 0.1:
                    event = Resigned(seat)
                    resigned.add(seat)
                else:
                    event = Played(seat, rules.bot_action(state, seat))
            elif scenario.style == "bots":
                event = Played(seat, rules.bot_action(state, seat))
            else:
                legal = rules.legal(state, seat)
                event = Played(seat, legal[rng.randrange(len(legal))])
        else:
            event = chance_event(rng, pending)
        state = engine.step(rules, state, event)
        events.append(event_to_json(event))
    return events


def record_game(rules: engine.Rules[Any], scenario: Scenario) -> dict[str, Any]:
    """A scenario played and replayed: the corpus entry."""
    options = options_for(rules, scenario)
    game: dict[str, Any] = {
        "kind": rules.kind,
        "rules_version": rules.version,
        "name": scenario.name,
        "style": scenario.style,
        "seats": scenario.seats,
        "preset": scenario.preset,
        "options": options,
        "events": play(rules, scenario, options),
    }
    done = replay(game)
    game["digests"] = done.digests
    game["full"] = done.full
    return game


def corpus_dir(kind: str, version: int) -> Path:
    """Where one version of one kind keeps its recorded games."""
    return ROOT / kind / f"v{version}"


def recorded_games() -> Iterator[Path]:
    """Every recorded game file of every kind and version."""
    yield from sorted(ROOT.glob("*/v*/*.json"))


def load_game(path: Path) -> dict[str, Any]:
    """A recorded game."""
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def write_game(path: Path, game: dict[str, Any]) -> None:
    """Store a recorded game: compact, one key per line at the top for readable diffs."""
    lines = [f"{json.dumps(k)}: {canonical(v)}" for k, v in game.items()]
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
