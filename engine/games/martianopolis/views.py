"""What each viewer may see: the track and cards as JSON, sentences, and hidden events."""

from __future__ import annotations

from typing import Any

from ...core import Await, Event, Played, Shuffled
from ...errors import IllegalAction, InvalidAction
from .cards import card_name
from .movement import moved
from .notation import FLAT, parse_clauses, parse_order
from .rounds import pending
from .state import (
    CHOOSE,
    DOWN,
    HEX,
    MOVE,
    ORDER,
    SHUFFLE,
    UP,
    MartianopolisState,
    Racer,
    distance,
    seat_name,
    to_move,
    waiting,
)
from .track import (
    COLUMNS,
    LANES,
    SIZE_LETTERS,
    column,
    laps_done,
    movement_points,
    size_names,
    square_name,
)


def is_secret(state: MartianopolisState, event: Event) -> bool:
    """Tell whether an event applied to this state must be hidden from the other seats for now.

    Deal shuffles are secret until the game ends (their order reveals every pile). An
    `order ...` or `up`/`down` answer is secret until its round is complete; the answer
    that completes the round is public at once, and so is everything else.
    """
    if state.result is not None:
        return False
    if isinstance(event, Shuffled):
        return state.phase == SHUFFLE
    if isinstance(event, Played) and state.phase in (ORDER, CHOOSE):
        answering = waiting(state)
        return event.seat in answering and len(answering) > 1
    return False


def is_revealed(before: MartianopolisState, event: Event, now: MartianopolisState) -> bool:
    """Tell whether an event applied to `before` may be shown to everyone in the state `now`."""
    if not is_secret(before, event) or now.result is not None:
        return True
    return not isinstance(event, Shuffled) and now.rounds > before.rounds


def describe(state: MartianopolisState, played: Played, viewer: int | None) -> str:
    """Say in a sentence, for one viewer, what a seat's action does in this state.

    A secret order or card choice reads in full for its own seat; the others (and the
    public) only learn that the seat has answered, as the rules let them see it.
    """
    who = seat_name(played.seat)
    action = played.action
    if viewer != played.seat and is_secret(state, played):
        if state.phase == ORDER:
            return f"{who} lines up the racers in secret"
        return f"{who} plays a card in secret"
    if action in (UP, DOWN):
        return f"{who} plays a card face-{action}"
    if action.startswith("order"):
        try:
            sizes = parse_order(action)
        except InvalidAction:
            sizes = None
        if sizes is None:
            return f"{who} plays {action}"
        names = size_names(sizes, ", ")
        return f"{who} lines up the racers {names} from the front"
    if state.phase != MOVE or not state.movers or state.movers[0] != played.seat:
        return f"{who} plays {action}"
    try:
        after = moved(state, played.seat, action)
    except (InvalidAction, IllegalAction):
        return f"{who} plays {action}"
    start = len(state.notes)
    prefix = f"{who} moves "
    moves = [n.rstrip(".") for n in after.notes[start:] if n.startswith(prefix)]
    text = "; ".join(moves) if moves else f"{who} plays {action}"
    flat = [z for z, p in parse_clauses(action) if p == FLAT]
    if flat:
        names = size_names(flat, " and ")
        if len(flat) == 1:
            text += f" ({names} only lies flat again after its crash, so its order is ignored)"
        else:
            text += f" ({names} only lie flat again after their crash, so their orders are ignored)"
    if after.result is not None:
        text += f", and wins: {after.result.reason}"
    return text


def view(state: MartianopolisState, seat: int | None, kind: str) -> dict[str, Any]:
    """Draw the track, the cards this viewer may see and whose choices are in."""
    over = state.result is not None
    awaited = pending(state)
    racers = [_racer_view(state, r) for r in state.racers]
    grid = {r["square"]: r for r in racers if r["square"] is not None}
    players = [_player_view(state, player, seat) for player in range(state.seats)]
    own_card = None
    if seat is not None and 0 <= seat < state.seats and not over:
        if state.phase == CHOOSE and state.piles[seat] and seat in state.active:
            own_card = card_name(state.piles[seat][0])
        elif state.table[seat]:
            own_card = card_name(state.table[seat][-1])
    mover = state.movers[0] if state.phase == MOVE and state.movers and not over else None
    points = (
        {SIZE_LETTERS[r.size]: movement_points(state.value, r.size) for r in to_move(state)}
        if mover is not None
        else {}
    )
    return {
        "game": kind,
        "viewer": seat,
        "lanes": list(LANES),
        "columns": COLUMNS,
        "laps": state.laps,
        "turn": state.turn,
        "phase": "over" if over else state.phase,
        "players": players,
        "racers": racers,
        "grid": grid,
        "card": own_card,
        "set_aside": card_name(state.set_aside) if state.set_aside is not None else None,
        "discards": len(state.discards),
        "discard_cards": [card_name(c) for c in state.discards] if over else None,
        "stage": state.stage,
        "value": state.value if mover is not None else None,
        "mover": mover,
        "points": points,
        "notes": list(state.notes),
        "awaiting": list(awaited.seats) if isinstance(awaited, Await) else [],
        "awaiting_kind": awaited.kind if isinstance(awaited, Await) else None,
        "finished": over,
        "outcome": state.result.to_json() if state.result else None,
    }


def _player_view(state: MartianopolisState, player: int, viewer: int | None) -> dict[str, Any]:
    over = state.result is not None
    mine = over or player == viewer
    choice = state.choices[player]
    public = over or (state.phase != CHOOSE and choice is not None)
    # A face-down card stays hidden from the others until the face-down group is resolved.
    shown = mine or (public and (over or choice == UP or state.stage == DOWN))
    table = state.table[player]
    order = state.orders[player]
    return {
        "seat": player,
        "name": seat_name(player),
        "colour": HEX[player],
        "lane": LANES[state.lanes[player]],
        "resigned": player in state.resigned,
        "pile": len(state.piles[player]),
        "distance": distance(state, player),
        "order": size_names(order, " ") if order and (mine or state.racers) else None,
        "choice": choice if (mine or public) else None,
        "cards": [card_name(c) for c in table] if shown else [],
        "face_down": bool(table) and not shown,
        "pile_cards": [card_name(c) for c in state.piles[player]] if over else None,
    }


def _racer_view(state: MartianopolisState, racer: Racer) -> dict[str, Any]:
    gone = racer.removed or racer.seat in state.resigned
    return {
        "seat": racer.seat,
        "size": racer.size,
        "name": SIZE_LETTERS[racer.size],
        "colour": HEX[racer.seat],
        "square": None if gone else square_name(racer.lane, racer.progress),
        "lane": racer.lane,
        "column": column(racer.progress),
        "progress": racer.progress,
        "laps": state.laps if racer.removed else laps_done(racer.progress),
        "standing": racer.standing,
        "removed": racer.removed,
    }
