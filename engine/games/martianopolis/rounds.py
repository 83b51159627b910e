"""One turn's flow (the rulebook's Play): deals, the secret up/down round, tie-breaks, movers."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ...core import Await, Finished, Pending, Shuffle
from ...errors import IllegalAction
from .cards import FACE_CARDS, card_name, check_permutation, deal, gatherable, rank, value
from .endings import stopped
from .state import (
    CHOOSE,
    DOWN,
    MOVE,
    ORDER,
    SETASIDE,
    SHUFFLE,
    UP,
    MartianopolisState,
    Racer,
    seat_name,
    to_move,
    waiting,
)
from .track import SIZE_LETTERS, SIZES, size_names, square_name


def pending(state: MartianopolisState) -> Pending:
    """Say what the game waits for: a shuffle, the seats of a round, or the mover."""
    if state.result is not None:
        return Finished(state.result)
    if state.phase == SETASIDE:
        return Shuffle(len(FACE_CARDS))
    if state.phase == SHUFFLE:
        return Shuffle(len(gatherable(state.piles, state.discards)))
    if state.phase == ORDER:
        return Await(waiting(state), "order")
    if state.phase == CHOOSE:
        return Await(waiting(state), "card")
    return Await((state.movers[0],), "move")


def shuffled(state: MartianopolisState, order: tuple[int, ...]) -> MartianopolisState:
    """Set a face card aside, or deal the shuffled cards and go on with the turn."""
    if state.phase == SETASIDE:
        check_permutation(order, len(FACE_CARDS))
        card = FACE_CARDS[order[0]]
        return replace(
            state,
            set_aside=card,
            discards=tuple(c for c in state.discards if c != card),
            phase=ORDER,
            notes=(f"The {card_name(card)} is set aside for the whole game.",),
        )
    if state.phase != SHUFFLE:
        raise IllegalAction("no shuffle is due now")
    cards = gatherable(state.piles, state.discards)
    check_permutation(order, len(cards))
    dealt = replace(state, piles=deal(cards, order, state.seats, state.active), discards=())
    if state.stage is None:
        sizes = sorted({len(dealt.piles[s]) for s in state.active})
        each = " or ".join(str(n) for n in sizes)
        note = f"The deck is shuffled and dealt: {each} cards each."
        return replace(dealt, phase=CHOOSE, notes=(*state.notes, note))
    note = f"A pile ran out in a tie-break: {len(cards)} cards are reshuffled and dealt."
    return settle(replace(dealt, notes=(*state.notes, note)))


def place_grid(state: MartianopolisState) -> MartianopolisState:
    """Put every racer on its starting square and begin the first turn."""
    racers: list[Racer] = []
    notes: list[str] = []
    for seat in state.active:
        sizes = state.orders[seat]
        assert sizes is not None
        lane = state.lanes[seat]
        for size in SIZES:
            racers.append(Racer(seat, size, lane, -sizes.index(size)))
        squares = ", ".join(
            f"{SIZE_LETTERS[s]} on {square_name(lane, -i)}" for i, s in enumerate(sizes)
        )
        notes.append(f"{seat_name(seat)} lines up {squares}.")
    state = replace(
        state, racers=tuple(racers), rounds=state.rounds + 1, notes=(*state.notes, *notes)
    )
    return start_turn(state)


def start_turn(state: MartianopolisState) -> MartianopolisState:
    """Begin a turn: reshuffle first if any pile is empty, else ask for cards."""
    empty = any(not state.piles[s] for s in state.active)
    return replace(
        state,
        turn=state.turn + 1,
        phase=SHUFFLE if empty else CHOOSE,
        choices=(None,) * state.seats,
        table=((),) * state.seats,
        stage=None,
        value=0,
        movers=(),
        moved=(),
        recovered=(),
    )


def _showing(state: MartianopolisState, seats: list[int]) -> str:
    """List seats with the card each has showing: "Red K♠, Blue 7♥"."""
    return ", ".join(f"{seat_name(s)} {card_name(state.table[s][-1])}" for s in seats)


def reveal(state: MartianopolisState) -> MartianopolisState:
    """Put everyone's card on the table, turn the face-up ones over and resolve that group."""
    piles = list(state.piles)
    table = list(state.table)
    for seat in state.active:
        table[seat] = (piles[seat][0],)
        piles[seat] = piles[seat][1:]
    state = replace(state, piles=tuple(piles), table=tuple(table))
    ups = [s for s in state.active if state.choices[s] == UP]
    downs = [s for s in state.active if state.choices[s] == DOWN]
    shown = _showing(state, ups)
    hidden = ", ".join(seat_name(s) for s in downs)
    note = f"Turn {state.turn}: face-up {shown or 'nobody'}; face-down {hidden or 'nobody'}."
    return settle(replace(state, rounds=state.rounds + 1, stage=UP, notes=(note,)))


def settle(state: MartianopolisState) -> MartianopolisState:
    """Break the current group's ties, then set its order and movement value."""
    group = state.stage
    members = [s for s in state.active if state.choices[s] == group and state.table[s]]
    while True:
        counts = Counter(rank(state.table[s][-1]) for s in members)
        tied = [s for s in members if counts[rank(state.table[s][-1])] > 1]
        if not tied:
            break
        if any(not state.piles[s] for s in tied):
            return replace(state, phase=SHUFFLE)
        state = _draw_again(state, tied)
    if not members:
        return next_stage(state)
    top = [state.table[s][-1] for s in members]
    order = tuple(sorted(members, key=lambda s: -rank(state.table[s][-1])))
    group_value = min(map(value, top)) if group == UP else max(map(value, top))
    names = ", ".join(seat_name(s) for s in order)
    note = f"Face-{group} group moves in the order {names} with value {group_value}."
    state = replace(state, value=group_value, movers=order, notes=(*state.notes, note))
    return begin_slot(state)


def _draw_again(state: MartianopolisState, tied: list[int]) -> MartianopolisState:
    """Replace each tied card by the next card of its owner's pile, face-up."""
    piles = list(state.piles)
    table = list(state.table)
    discards = list(state.discards)
    for seat in tied:
        discards.append(table[seat][-1])
        table[seat] = (*table[seat], piles[seat][0])
        piles[seat] = piles[seat][1:]
    state = replace(state, piles=tuple(piles), table=tuple(table), discards=tuple(discards))
    note = f"Tie-break, new cards face-up: {_showing(state, tied)}."
    return replace(state, notes=(*state.notes, note))


def begin_slot(state: MartianopolisState) -> MartianopolisState:
    """Let the next mover act; racers that crashed last turn lie flat again by themselves."""
    while state.movers:
        mover = state.movers[0]
        racers = list(state.racers)
        recovered: list[int] = []
        for i, racer in enumerate(racers):
            if racer.seat == mover and racer.standing and not racer.removed:
                racers[i] = replace(racer, standing=False)
                recovered.append(racer.size)
        notes = state.notes
        if recovered:
            names = size_names(recovered, " and ")
            notes = (*notes, f"{seat_name(mover)} lays {names} flat again.")
        state = replace(
            state,
            racers=tuple(racers),
            moved=tuple(recovered),
            recovered=tuple(recovered),
            notes=notes,
        )
        if to_move(state):
            return replace(state, phase=MOVE)
        state = replace(state, movers=state.movers[1:])
    return next_stage(state)


def next_stage(state: MartianopolisState) -> MartianopolisState:
    """Turn the face-down cards over after the face-up group, or end the turn."""
    if state.stage == UP:
        downs = [s for s in state.active if state.choices[s] == DOWN]
        notes = state.notes
        if downs:
            notes = (*notes, f"Face-down cards turned over: {_showing(state, downs)}.")
        return settle(replace(state, stage=DOWN, movers=(), moved=(), recovered=(), notes=notes))
    discards = state.discards + tuple(cards[-1] for cards in state.table if cards)
    state = replace(state, discards=discards, table=((),) * state.seats)
    if state.max_turns and state.turn >= state.max_turns:
        return stopped(state)
    return start_turn(state)
