"""The frozen state of a Martian Race or Mad Dog game, and its JSON snapshot."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from ...core import Outcome
from .geometry import BOARD, RESERVE, STATUS_NAMES, Params, Piece
from .position import Pos

# The latest event's seat and action, and the sentences of its chain: a move (or a forfeit or
# a resignation) and then every push answer and resignation while its pushes are resolved.
Last = tuple[int, str, tuple[str, ...]]


@dataclass(frozen=True)
class MarsState:
    """A position, whose turn it is, the dice left to play and any push resolution under way."""

    params: Params
    seats: int
    pieces: tuple[Piece, ...]
    dog: tuple[int, int, int] | None  # controller, square, facing
    victims: int
    winner: int | None
    to_move: int
    roll: tuple[int, ...] | None  # this turn's dice, once rolled
    dice: tuple[int, ...]  # the dice still to play
    queue: tuple[tuple[int, int], ...]  # arrivals still to process: (piece or -1 Dog, square)
    stage: int  # how far the first arrival got
    chooser: int | None  # the seat that must choose a push now
    seen: tuple[tuple[int, ...], ...]  # positions of this resolution (repetition guard)
    turns: int
    calm: int  # turns since a Martian last grew, finished or was destroyed
    dog_turns: int
    resigned: tuple[int, ...]
    result: Outcome | None
    last: Last | None


# Fields a state's position snapshot (see snapshot) is made from.
POSITION_FIELDS = frozenset({"pieces", "dog", "victims"})


def evolve(state: MarsState, changes: Mapping[str, Any]) -> MarsState:
    """A copy of the state with some fields changed (dataclasses.replace, without its checks).

    The copy's fields are written straight into its __dict__: a frozen dataclass's __init__
    sets each of its 19 fields through object.__setattr__, which costs more than the move.
    The snapshot comes along unless the position changed (a caller may pass the new one);
    the moves remembered for a menu's stages never do.
    """
    new = object.__new__(MarsState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.pop("_stage_moves", None)
    if not POSITION_FIELDS.isdisjoint(changes):
        fields.pop("_snap", None)
        fields.pop("_stacked", None)
    fields.update(changes)
    return new


def snapshot(state: MarsState) -> Pos:
    """The state's position as a Pos, built once per state; read it, never change it.

    It is kept in the instance's __dict__ beside the fields, so that it takes no part in
    equality, repr, replace() or dump: it is derived data, rebuilt on demand.
    """
    snap: Pos | None = state.__dict__.get("_snap")
    if snap is None:
        snap = Pos(state.params, state.seats, state.pieces, state.dog, state.victims)
        state.__dict__["_snap"] = snap
    return snap


def to_pos(state: MarsState) -> Pos:
    """A working copy of the state's position."""
    return snapshot(state).copy()


def chained(state: MarsState, seat: int, action: str, sentence: str) -> Last:
    """The last event's record: it continues the chain while a push waits for an answer."""
    if state.chooser is not None and state.last is not None:
        return (seat, action, (*state.last[2], sentence))
    return (seat, action, (sentence,))


def piece_alive(status: int) -> bool:
    """Whether a piece is still in the race (in reserve or on the board)."""
    return status in (RESERVE, BOARD)


def dump_state(state: MarsState) -> dict[str, Any]:
    """A JSON snapshot of a state."""
    return {
        "params": asdict(state.params),
        "seats": state.seats,
        "pieces": [
            [p.owner, p.size, STATUS_NAMES[p.status], p.square, p.facing] for p in state.pieces
        ],
        "dog": list(state.dog) if state.dog else None,
        "victims": state.victims,
        "winner": state.winner,
        "to_move": state.to_move,
        "roll": list(state.roll) if state.roll else None,
        "dice": list(state.dice),
        "queue": [list(e) for e in state.queue],
        "stage": state.stage,
        "chooser": state.chooser,
        "seen": [list(k) for k in state.seen],
        "turns": state.turns,
        "calm": state.calm,
        "dog_turns": state.dog_turns,
        "resigned": list(state.resigned),
        "result": state.result.to_json() if state.result else None,
        "last": [state.last[0], state.last[1], list(state.last[2])] if state.last else None,
    }


def load_state(data: Mapping[str, Any]) -> MarsState:
    """The state a snapshot was made from."""
    dog = data["dog"]
    roll = data["roll"]
    result = data["result"]
    last = data["last"]
    return MarsState(
        params=Params(**data["params"]),
        seats=int(data["seats"]),
        pieces=tuple(
            Piece(int(o), int(z), STATUS_NAMES.index(s), int(q), int(f))
            for o, z, s, q, f in data["pieces"]
        ),
        dog=(int(dog[0]), int(dog[1]), int(dog[2])) if dog else None,
        victims=int(data["victims"]),
        winner=data["winner"],
        to_move=int(data["to_move"]),
        roll=tuple(int(v) for v in roll) if roll else None,
        dice=tuple(int(v) for v in data["dice"]),
        queue=tuple((int(p), int(q)) for p, q in data["queue"]),
        stage=int(data["stage"]),
        chooser=data["chooser"],
        seen=tuple(tuple(int(v) for v in k) for k in data["seen"]),
        turns=int(data["turns"]),
        calm=int(data["calm"]),
        dog_turns=int(data["dog_turns"]),
        resigned=tuple(int(s) for s in data["resigned"]),
        result=Outcome.from_json(result) if result else None,
        last=_load_last(last) if last else None,
    )


def _load_last(last: list[Any]) -> Last:
    # A version 1 snapshot kept one sentence; version 2 keeps the chain's sentences.
    sentences = [last[2]] if isinstance(last[2], str) else last[2]
    return (int(last[0]), str(last[1]), tuple(str(s) for s in sentences))
