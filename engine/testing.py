"""Random play-throughs of any registered game, for contract tests and fuzzing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .core import (
    Await,
    Event,
    Finished,
    Played,
    Resigned,
    Roll,
    Rolled,
    Rules,
    Shuffle,
    Shuffled,
    step,
)

T = TypeVar("T")

# Random play need not end under a rulebook alone (Martians can wander for ever), so random
# play-throughs set the limits no rulebook has, which every game leaves off by default.
RANDOM_PLAY_LIMITS: Mapping[str, int] = {"stall_rounds": 25, "max_turns": 2000}


def with_limits(rules: Rules[Any], options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options with the game's optional stall and turn limits set where they are off."""
    names = {o.name for o in rules.options}
    limited = dict(options or {})
    for name, value in RANDOM_PLAY_LIMITS.items():
        if name in names and not limited.get(name):
            limited[name] = value
    return limited


class Rng(Protocol):
    """The part of random.Random a play-through needs (the caller owns the generator)."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1, /) -> int: ...

    def random(self) -> float: ...


class DeadEnd(AssertionError):
    """A game waits for a seat that has no legal action."""


@dataclass(frozen=True)
class Playthrough:
    """The events of one random game, its final state and how many steps it took."""

    events: tuple[Event, ...]
    state: Any
    finished: bool


def pick(rng: Rng, items: Sequence[T]) -> T:
    """Choose one item uniformly."""
    return items[rng.randrange(len(items))]


def chance_event(rng: Rng, pending: Roll | Shuffle) -> Event:
    """Answer a chance step as the server would, from the given generator."""
    if isinstance(pending, Roll):
        return Rolled(tuple(1 + rng.randrange(pending.sides) for _ in range(pending.count)))
    order = list(range(pending.n))
    for i in range(pending.n - 1, 0, -1):
        j = rng.randrange(i + 1)
        order[i], order[j] = order[j], order[i]
    return Shuffled(tuple(order))


def play_randomly(
    rules: Rules[Any],
    seats: int,
    rng: Rng,
    options: Mapping[str, object] | None = None,
    *,
    max_events: int = 100_000,
    resign_rate: float = 0.0,
) -> Playthrough:
    """Play a game to its end with uniformly random legal actions; raise DeadEnd if stuck."""
    state = rules.start(seats, options)
    events: list[Event] = []
    for _ in range(max_events):
        pending = rules.pending(state)
        event: Event
        if isinstance(pending, Finished):
            return Playthrough(tuple(events), state, True)
        if isinstance(pending, Await):
            seat = pick(rng, pending.seats)
            if resign_rate and rng.random() < resign_rate:
                event = Resigned(seat)
            else:
                actions = rules.legal(state, seat)
                if not actions:
                    raise DeadEnd(
                        f"{rules.kind}: seat {seat} is awaited ({pending.kind}) but has no "
                        f"legal action after {len(events)} events"
                    )
                event = Played(seat, pick(rng, actions))
        else:
            event = chance_event(rng, pending)
        state = step(rules, state, event)
        events.append(event)
    return Playthrough(tuple(events), state, False)
