"""What players do: line up, play a card face-up or down, move, resign; and what they may do."""

from __future__ import annotations

from dataclasses import replace

from ...errors import IllegalAction
from .cards import value
from .endings import last_one_racing
from .movement import moved, racer_move
from .notation import CARD_FORM, ORDER_FORM, format_order, parse_order, read_action
from .paths import paths_for
from .rounds import begin_slot, place_grid, reveal, settle
from .state import (
    CHOOSE,
    DOWN,
    MOVE,
    ORDER,
    SHUFFLE,
    UP,
    MartianopolisState,
    replaced,
    seat_name,
    to_move,
    waiting,
)

# Every order of the three racers, front to back: the legal answers of the first round.
ORDERS = ((3, 2, 1), (3, 1, 2), (2, 3, 1), (2, 1, 3), (1, 3, 2), (1, 2, 3))


def played(state: MartianopolisState, seat: int, action: str) -> MartianopolisState:
    """Apply a seat's action: an order, a card choice or a move, whichever is due."""
    if seat not in state.active:
        raise IllegalAction(f"{seat_name(seat)} is not in the race")
    action = read_action(state, action)
    if state.phase == ORDER:
        return _ordered(state, seat, action)
    if state.phase == CHOOSE:
        return _chosen(state, seat, action)
    if state.phase == MOVE:
        return moved(state, seat, action)
    raise IllegalAction("no player acts now: the game waits for the server to shuffle")


def _ordered(state: MartianopolisState, seat: int, action: str) -> MartianopolisState:
    who = seat_name(seat)
    if state.orders[seat] is not None:
        raise IllegalAction(f"{who} has already lined up the racers")
    sizes = parse_order(action) if action.startswith("order") else None
    if sizes is None:
        raise IllegalAction(f"{who} must first line up the racers: write {ORDER_FORM}")
    return _close_round(replace(state, orders=replaced(state.orders, seat, sizes)))


def _chosen(state: MartianopolisState, seat: int, action: str) -> MartianopolisState:
    who = seat_name(seat)
    if state.choices[seat] is not None:
        raise IllegalAction(f"{who} has already played this turn's card")
    if action not in (UP, DOWN):
        raise IllegalAction(f"{who} must first play the card: write {CARD_FORM}")
    return _close_round(replace(state, choices=replaced(state.choices, seat, action)))


def _close_round(state: MartianopolisState) -> MartianopolisState:
    """Resolve the simultaneous round (orders or cards) once every answer is in."""
    if waiting(state):
        return state
    return place_grid(state) if state.phase == ORDER else reveal(state)


def resigned(state: MartianopolisState, seat: int) -> MartianopolisState:
    """Take a seat out of the race; its cards go to the discards and the turn goes on."""
    who = seat_name(seat)
    if not 0 <= seat < state.seats:
        raise IllegalAction(f"there is no seat {seat} in this game")
    if seat in state.resigned:
        raise IllegalAction(f"{who} has already resigned")
    state = replace(
        state,
        resigned=(*state.resigned, seat),
        piles=replaced(state.piles, seat, ()),
        discards=state.discards + state.piles[seat],
        notes=(*state.notes, f"{who} resigns and leaves the race."),
    )
    if state.phase == CHOOSE:
        state = replace(state, choices=replaced(state.choices, seat, None))
    if len(state.active) == 1:
        return last_one_racing(state, seat)
    if state.phase in (ORDER, CHOOSE):
        return _close_round(state)
    if state.phase == SHUFFLE and state.stage is not None:
        return settle(state)
    if state.phase == MOVE:
        if state.movers[0] == seat:
            return begin_slot(replace(state, movers=state.movers[1:]))
        return replace(state, movers=tuple(m for m in state.movers if m != seat))
    return state


def legal(state: MartianopolisState, seat: int) -> tuple[str, ...]:
    """List every legal action; a move is one racer's, one entry per distinct end square."""
    # A racer's paths can number ~2^19, but its distinct ends (lane, steps, crashed or
    # finished) are at most 4 x 20, so each racer's entries come from the end sets of
    # Paths. A multi-racer action ("S: F3; L: I F7") is the same as these one-racer
    # actions in a row, so listing one-racer actions covers every outcome.
    if state.result is not None or seat not in state.active:
        return ()
    if state.phase == ORDER and seat in waiting(state):
        return tuple(format_order(p) for p in ORDERS)
    if state.phase == CHOOSE and seat in waiting(state):
        return (DOWN, UP)
    if state.phase == MOVE and state.movers[0] == seat:
        actions: list[str] = []
        for racer in to_move(state):
            paths = paths_for(state, racer)
            actions.extend(racer_move(paths, racer, end) for end in sorted(paths.allowed_ends()))
        return tuple(actions)
    return ()


def bot_action(state: MartianopolisState, seat: int) -> str | None:
    """Choose for the house bot: fast racer in front, low cards face-down, the furthest move."""
    if state.phase == ORDER:
        return format_order((1, 2, 3))
    if state.phase == CHOOSE and state.piles[seat]:
        # The face-down group moves by its highest card, so a low card gains there.
        return DOWN if value(state.piles[seat][0]) <= 6 else UP
    if state.phase == MOVE and state.movers and state.movers[0] == seat:
        best: tuple[tuple[int, int, int], str] | None = None
        for racer in sorted(to_move(state), key=lambda r: -r.progress):
            paths = paths_for(state, racer)
            for end in sorted(paths.allowed_ends()):  # ties go the same way in any process
                score = (end[0] == "finish", end[0] != "crash", end[2])
                if best is None or score > best[0]:
                    best = (score, racer_move(paths, racer, end))
        if best is not None:
            return best[1]
    return None
