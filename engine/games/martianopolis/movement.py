"""Moving a player's racers (the rulebook's Play): checking paths, crashes, laps, finishing."""

from __future__ import annotations

from dataclasses import replace

from ...errors import IllegalAction, InvalidAction
from .endings import won
from .notation import FLAT, format_clauses, format_path, parse_clauses
from .paths import End, Paths, paths_for
from .rounds import begin_slot
from .state import MartianopolisState, Racer, racer_of, seat_name, to_move
from .track import LANES, SIZE_LETTERS, STEPS, laps_done, square_name


def racer_move(paths: Paths, racer: Racer, end: End) -> str:
    """Write the canonical move of one racer to one of its ends: "S: F3 O F2"."""
    return format_clauses(((racer.size, paths.path_to(end)),))


def moved(state: MartianopolisState, seat: int, action: str) -> MartianopolisState:
    """Move the mover's racers clause by clause; the next mover follows once all have moved."""
    who = seat_name(seat)
    if seat != state.movers[0]:
        raise IllegalAction(f"it is {seat_name(state.movers[0])}'s move, not {who}'s")
    try:
        clauses = parse_clauses(action)
    except InvalidAction as e:
        raise IllegalAction(f"{who} must move racers now: {e}") from e
    for size, path in clauses:
        state = _move_racer(state, seat, size, path)
        if state.result is not None:
            return state
    if to_move(state):
        return state
    return begin_slot(replace(state, movers=state.movers[1:]))


def _move_racer(
    state: MartianopolisState, seat: int, size: int, path: tuple[str, ...]
) -> MartianopolisState:
    name = SIZE_LETTERS[size]
    racer = racer_of(state, seat, size)
    assert racer is not None
    if racer.removed:
        raise IllegalAction(f"{name} has already finished the race")
    if path == FLAT:
        if size in state.recovered:
            return state
        raise IllegalAction(
            f"{name} did not crash last turn, so it must move; 'flat' is only for a racer "
            "that crashed last turn"
        )
    if size in state.recovered:
        raise IllegalAction(
            f"{name} crashed last turn: it only lies flat again this turn, which happens "
            "by itself and needs no order"
        )
    if size in state.moved:
        raise IllegalAction(f"{name} has already moved this turn")
    paths = paths_for(state, racer)
    lane, left, here, removed = _walk(state, racer, paths, path)
    end = paths.terminal(lane, len(path), left)
    if end is None:
        raise IllegalAction(
            f"{name} has {left} of its {paths.points} points left on {here} and can still "
            f"step on: all points must be used ({_hint(paths)})"
        )
    if end not in paths.allowed_ends():
        example = format_path(paths.path_to(min(paths.allowed_ends())))
        raise IllegalAction(
            f"{name} may not crash on {here}: a path using all {paths.points} points "
            f"exists, e.g. '{name}: {example}'"
        )
    progress = racer.progress + len(path)
    after = replace(
        racer, lane=lane, progress=progress, standing=end[0] == "crash", removed=removed
    )
    racers = tuple(after if r == racer else r for r in state.racers)
    note = _move_note(state, racer, after, path)
    state = replace(state, racers=racers, moved=(*state.moved, size), notes=(*state.notes, note))
    if removed and all(r.removed for r in state.racers if r.seat == seat):
        return won(state, seat)
    return state


def _walk(
    state: MartianopolisState, racer: Racer, paths: Paths, path: tuple[str, ...]
) -> tuple[int, int, str, bool]:
    """Follow a path step by step: lane, points left, square, and whether it finished."""
    name = SIZE_LETTERS[racer.size]
    lane, left, removed = racer.lane, paths.points, False
    here = square_name(lane, racer.progress)
    for steps, token in enumerate(path):
        if removed:
            raise IllegalAction(
                f"{name} leaves the track after {format_path(path[:steps])}, having "
                "finished the race; the rest of the path cannot be used"
            )
        change, cost = STEPS[token]
        if cost > left:
            raise IllegalAction(
                f"{name} has {paths.points} points: after {format_path(path[:steps])} "
                f"only {left} remain and {token} costs {cost}"
            )
        if not 0 <= lane + change < len(LANES):
            edge = "inner" if change < 0 else "outer"
            raise IllegalAction(f"{token} from {here} would leave the track at the {edge} edge")
        target = square_name(lane + change, racer.progress + steps + 1)
        after = paths.step(lane, steps, left, token)
        if after is None:
            raise IllegalAction(f"{name} cannot step {token} from {here}: {target} is taken")
        lane, left = after
        here = target
        removed = racer.progress + steps + 1 == state.finish
    return lane, left, here, removed


def _move_note(
    state: MartianopolisState, before: Racer, after: Racer, path: tuple[str, ...]
) -> str:
    who = seat_name(before.seat)
    name = SIZE_LETTERS[before.size]
    start = square_name(before.lane, before.progress)
    if after.removed:
        return (
            f"{who} moves {name} from {start} over the line ({format_path(path)}) and off "
            f"the track after {state.laps} laps."
        )
    end = square_name(after.lane, after.progress)
    text = f"{who} moves {name} from {start} to {end} ({format_path(path)})"
    lap = laps_done(after.progress)
    if lap > laps_done(before.progress):
        text += f", completing lap {lap}"
    if after.standing:
        text += ", and crashes: it stands upright until its next turn"
    return text + "."


def _hint(paths: Paths) -> str:
    ends = sorted(paths.allowed_ends())
    shown = ", ".join(format_path(paths.path_to(e)) for e in ends[:4])
    more = f" and {len(ends) - 4} more" if len(ends) > 4 else ""
    return f"possible paths include {shown}{more}"
