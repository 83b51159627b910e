"""How a race ends (docs/rulings.md): a winner, a turn limit, or resignations; and the ranking."""

from __future__ import annotations

from dataclasses import replace

from ...core import Outcome
from .state import MartianopolisState, distance, seat_name


def ranked(state: MartianopolisState, reason: str, winner: int | None) -> Outcome:
    """Rank the winner first, then seats still racing by distance, then resigned, last out first."""
    keys: list[tuple[int, int]] = []
    for seat in range(state.seats):
        if seat == winner:
            keys.append((0, 0))
        elif seat in state.resigned:
            keys.append((2, -state.resigned.index(seat)))
        else:
            keys.append((1, -distance(state, seat)))
    ranks = tuple(1 + sum(other < mine for other in keys) for mine in keys)
    scores = tuple(float(distance(state, s)) for s in range(state.seats))
    return Outcome(ranks, scores, reason)


def won(state: MartianopolisState, winner: int) -> MartianopolisState:
    """End the race: the winner has all three racers off the track."""
    reason = f"{seat_name(winner)} has all three racers off the track after {state.laps} laps"
    return replace(state, result=ranked(state, reason, winner))


STOPPED = "ended by the {}-turn limit: the race was stopped; ranked by distance"


def stopped(state: MartianopolisState) -> MartianopolisState:
    """End the race at the turn limit (no rulebook has one), ranked by distance."""
    reason = STOPPED.format(state.max_turns)
    return replace(state, result=ranked(state, reason, None))


def last_one_racing(state: MartianopolisState, resigned: int) -> MartianopolisState:
    """End the race when a resignation leaves one seat racing."""
    last = state.active[0]
    reason = f"{seat_name(resigned)} resigned; {seat_name(last)} is the last one racing"
    return replace(state, result=ranked(state, reason, last))
