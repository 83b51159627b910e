"""The end of the game (docs/rulings.md, Martian Dice): the last round, the duel, the ranking."""

from __future__ import annotations

from dataclasses import replace

from ...core import Outcome
from .dice import NOTHING, RAY, counts_of
from .state import DiceState, seat_name, seat_names

Duels = tuple[tuple[tuple[int, int], ...], ...]


def leaders(state: DiceState) -> tuple[int, ...]:
    """List the active seats sharing the highest score, in play order."""
    active = state.active()
    best = max(state.scores[s] for s in active)
    return tuple(s for s in active if state.scores[s] == best)


def rank_key(state: DiceState, seat: int) -> tuple[int, ...]:
    """Order seats: active before resigned, then score, then each duel round's rays."""
    if seat in state.resigned:
        return (0, state.resigned.index(seat))
    # A seat left out of a duel round has fewer rays than those who went on: -1 says so.
    rays = tuple(dict(rnd).get(seat, -1) for rnd in state.duels)
    return (1, state.scores[seat], *rays)


def ranks_of(state: DiceState) -> tuple[int, ...]:
    """Rank every seat by rank_key; equal keys share a place (1, 2, 2, 4)."""
    keys = [rank_key(state, s) for s in range(state.seats)]
    return tuple(1 + sum(other > mine for other in keys) for mine in keys)


def next_duelist(state: DiceState) -> int | None:
    """Name the seat that rolls next in the current duel round, or None if no duel is on."""
    if not state.dueling or state.result is not None:
        return None
    seats = leaders(state)
    for rnd in state.duels:
        survivors = _round_winners(seats, rnd)
        if survivors is None:
            return next(s for s in seats if s not in dict(rnd))
        seats = survivors
    return None


def _round_winners(
    seats: tuple[int, ...], rnd: tuple[tuple[int, int], ...]
) -> tuple[int, ...] | None:
    """Keep the seats that rolled the most rays in a duel round, None if some must still roll."""
    rolled = {s: r for s, r in rnd if s in seats}
    if any(s not in rolled for s in seats):
        return None
    best = max(rolled.values())
    return tuple(s for s in seats if rolled[s] == best)


def finish(state: DiceState) -> DiceState:
    """End the game, or start the death-ray duel if the lead is shared."""
    state = replace(state, to_move=None, aside=NOTHING, rolled=None, rolls=(), picks=())
    if len(leaders(state)) > 1:
        return settle_duel(replace(state, dueling=True))
    return replace(state, result=_outcome(state))


def duel_rolled(state: DiceState, values: tuple[int, ...]) -> DiceState:
    """Record a duel roll's rays for the seat whose turn in the duel it is."""
    seat = next_duelist(state)
    assert seat is not None
    rays = counts_of(values)[RAY]
    rounds = list(state.duels)
    rounds[-1] = (*rounds[-1], (seat, rays))
    return settle_duel(replace(state, duels=tuple(rounds)))


def settle_duel(state: DiceState) -> DiceState:
    """Decide the duel if its rounds allow it, else wait for the next duel roll."""
    seats = leaders(state)
    for i, rnd in enumerate(state.duels):
        if len(seats) == 1:
            return _decided(state, state.duels[:i])
        survivors = _round_winners(seats, rnd)
        if survivors is None:
            return replace(state, duels=state.duels[: i + 1])
        seats = survivors
        if len(seats) > 1 and state.duel_retie == "shared":
            return _decided(state, state.duels[: i + 1])
    if len(seats) > 1:
        return replace(state, duels=(*state.duels, ()))
    return _decided(state, state.duels)


def _decided(state: DiceState, duels: Duels) -> DiceState:
    state = replace(state, duels=duels)
    return replace(state, result=_outcome(state))


def _outcome(state: DiceState) -> Outcome:
    ranks = ranks_of(state)
    winners = [s for s in range(state.seats) if ranks[s] == 1]
    names = seat_names(winners)
    if len(state.active()) == 1:
        reason = f"{names} wins: every other player resigned"
    elif not state.duels:
        reason = f"{names} wins with {state.scores[winners[0]]} points"
    else:
        tied = leaders(state)
        points = state.scores[tied[0]]
        duel = "; ".join(", ".join(f"{seat_name(s)} {r}" for s, r in rnd) for rnd in state.duels)
        tied_names = seat_names(tied)
        if len(winners) > 1:
            reason = (
                f"{tied_names} tie with {points} points; the death-ray duel was tied "
                f"({duel} rays), so {names} share first place"
            )
        else:
            reason = (
                f"{tied_names} tie with {points} points; {names} wins the death-ray "
                f"duel ({duel} rays)"
            )
    return Outcome(ranks, tuple(state.scores), reason)
