"""The game state: racers on the track, every pile and secret choice, and its snapshots."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ...core import Outcome
from .track import COLUMNS

COLOURS = ("Red", "Yellow", "Green", "Blue")
HEX = ("#d62728", "#e6b800", "#2ca02c", "#1f5fd6")

UP, DOWN = "up", "down"
SETASIDE, ORDER, SHUFFLE, CHOOSE, MOVE = "setaside", "order", "shuffle", "choose", "move"

T = TypeVar("T")


@dataclass(frozen=True)
class Racer:
    """One pyramid on the track: whose, its size, where it is and whether it stands."""

    seat: int
    size: int
    lane: int
    progress: int
    standing: bool = False  # crashed: upright until its owner's next move
    removed: bool = False  # finished the race and left the track


@dataclass(frozen=True)
class MartianopolisState:
    """The whole server-side state: track, every pile, every secret choice."""

    seats: int
    laps: int
    max_turns: int
    lanes: tuple[int, ...]  # lane of each seat's starting file
    phase: str  # setaside, order, shuffle, choose, move (ignored once result is set)
    set_aside: int | None  # the face card out of play with 3 players
    orders: tuple[tuple[int, ...] | None, ...]  # each seat's sizes front to back, once chosen
    racers: tuple[Racer, ...]  # by seat, then size; empty until the grid is placed
    piles: tuple[tuple[int, ...], ...]  # face-down, top card first
    discards: tuple[int, ...]  # also the undealt stock before the first deal
    turn: int  # the current turn, from 1
    choices: tuple[str | None, ...]  # up/down of this turn
    table: tuple[tuple[int, ...], ...]  # cards played this turn; the last one counts
    stage: str | None  # the group being resolved (up, down), None between turns
    value: int  # movement value of the group that moves
    movers: tuple[int, ...]  # seats still to move in this group, the first moves now
    moved: tuple[int, ...]  # sizes the current mover has already moved (or laid flat)
    recovered: tuple[int, ...]  # sizes of the current mover that only lay flat again
    rounds: int  # completed simultaneous rounds (order, card): secrets become public
    resigned: tuple[int, ...]  # seats in the order they resigned
    notes: tuple[str, ...]  # public sentences about the latest reveal and moves
    result: Outcome | None

    @property
    def finish(self) -> int:
        """The progress at which a racer has completed every lap and leaves the track."""
        return COLUMNS * self.laps + 1

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the race."""
        return tuple(s for s in range(self.seats) if s not in self.resigned)


def seat_name(seat: int) -> str:
    """Name a seat by its colour: "Red"."""
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"


def replaced(items: tuple[T, ...], index: int, item: T) -> tuple[T, ...]:
    """Return the tuple with one entry replaced."""
    return tuple(item if i == index else old for i, old in enumerate(items))


def racer_of(state: MartianopolisState, seat: int, size: int) -> Racer | None:
    """Find the racer of a seat and size, if it is placed."""
    for racer in state.racers:
        if racer.seat == seat and racer.size == size:
            return racer
    return None


def on_track(state: MartianopolisState) -> tuple[Racer, ...]:
    """List the racers occupying a square: placed, not removed, of seats still racing."""
    return tuple(r for r in state.racers if not r.removed and r.seat not in state.resigned)


def distance(state: MartianopolisState, seat: int) -> int:
    """Sum how far a seat's racers have come; a removed racer counts the full race."""
    return sum(state.finish if r.removed else r.progress for r in state.racers if r.seat == seat)


def waiting(state: MartianopolisState) -> tuple[int, ...]:
    """List the seats whose answer the current simultaneous round still lacks."""
    if state.phase == ORDER:
        return tuple(s for s in state.active if state.orders[s] is None)
    if state.phase == CHOOSE:
        return tuple(s for s in state.active if state.choices[s] is None)
    return ()


def to_move(state: MartianopolisState) -> tuple[Racer, ...]:
    """List the current mover's racers that still have to move this turn."""
    if not state.movers:
        return ()
    mover = state.movers[0]
    return tuple(
        r for r in state.racers if r.seat == mover and not r.removed and r.size not in state.moved
    )


def dump_state(state: MartianopolisState) -> dict[str, Any]:
    """Write the state as a JSON snapshot."""
    return {
        "seats": state.seats,
        "laps": state.laps,
        "max_turns": state.max_turns,
        "lanes": list(state.lanes),
        "phase": state.phase,
        "set_aside": state.set_aside,
        "orders": [list(o) if o is not None else None for o in state.orders],
        "racers": [
            [r.seat, r.size, r.lane, r.progress, r.standing, r.removed] for r in state.racers
        ],
        "piles": [list(p) for p in state.piles],
        "discards": list(state.discards),
        "turn": state.turn,
        "choices": list(state.choices),
        "table": [list(t) for t in state.table],
        "stage": state.stage,
        "value": state.value,
        "movers": list(state.movers),
        "moved": list(state.moved),
        "recovered": list(state.recovered),
        "rounds": state.rounds,
        "resigned": list(state.resigned),
        "notes": list(state.notes),
        "result": state.result.to_json() if state.result else None,
    }


def _ints(values: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def load_state(data: Mapping[str, Any]) -> MartianopolisState:
    """Read the state a snapshot was made from."""
    result = data["result"]
    return MartianopolisState(
        seats=int(data["seats"]),
        laps=int(data["laps"]),
        max_turns=int(data["max_turns"]),
        lanes=_ints(data["lanes"]),
        phase=str(data["phase"]),
        set_aside=None if data["set_aside"] is None else int(data["set_aside"]),
        orders=tuple(None if o is None else _ints(o) for o in data["orders"]),
        racers=tuple(
            Racer(int(s), int(z), int(ln), int(p), bool(st), bool(rm))
            for s, z, ln, p, st, rm in data["racers"]
        ),
        piles=tuple(_ints(p) for p in data["piles"]),
        discards=_ints(data["discards"]),
        turn=int(data["turn"]),
        choices=tuple(_text(c) for c in data["choices"]),
        table=tuple(_ints(t) for t in data["table"]),
        stage=_text(data["stage"]),
        value=int(data["value"]),
        movers=_ints(data["movers"]),
        moved=_ints(data["moved"]),
        recovered=_ints(data["recovered"]),
        rounds=int(data["rounds"]),
        resigned=_ints(data["resigned"]),
        notes=tuple(str(n) for n in data["notes"]),
        result=Outcome.from_json(result) if result else None,
    )
