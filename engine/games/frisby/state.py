"""The frozen state of a Frisby game, what it waits for, and its JSON snapshot."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...core import Await, Finished, Outcome, Pending, Roll
from .board import Board


@dataclass(frozen=True)
class FrisbyState:
    """A position, whose turn it is, the dice to play and how the game stands."""

    change_columns: bool
    max_turns: int
    board: Board
    to_move: int | None  # None until the chance event that picks the first player
    dice: tuple[int, int] | None  # rolled and waiting to be played
    turns: int  # half-turns completed, passes included
    result: Outcome | None
    last: tuple[int, str] | None  # the previous half-turn: (seat, action or "pass")


def pending(state: FrisbyState) -> Pending:
    """Say what the game waits for: the roll for the first player, the dice, or a move."""
    if state.result is not None:
        return Finished(state.result)
    if state.to_move is None:
        return Roll(1, sides=2)  # 1: South starts, 2: North starts
    if state.dice is None:
        return Roll(2)
    return Await((state.to_move,), "move")


def dump_state(state: FrisbyState) -> dict[str, Any]:
    """Write the state as a JSON snapshot."""
    return {
        "change_columns": state.change_columns,
        "max_turns": state.max_turns,
        "board": [[list(p) for p in stack] for stack in state.board],
        "to_move": state.to_move,
        "dice": list(state.dice) if state.dice else None,
        "turns": state.turns,
        "result": state.result.to_json() if state.result else None,
        "last": list(state.last) if state.last else None,
    }


def load_state(data: Mapping[str, Any]) -> FrisbyState:
    """Read the state a snapshot was made from."""
    result = data["result"]
    dice = data["dice"]
    last = data["last"]
    return FrisbyState(
        change_columns=bool(data["change_columns"]),
        max_turns=int(data["max_turns"]),
        board=tuple(tuple((int(s), int(z)) for s, z in stack) for stack in data["board"]),
        to_move=data["to_move"],
        dice=(int(dice[0]), int(dice[1])) if dice else None,
        turns=int(data["turns"]),
        result=Outcome.from_json(result) if result else None,
        last=(int(last[0]), str(last[1])) if last else None,
    )
