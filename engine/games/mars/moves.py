"""Legal moves of a turn and the must-use rule: which dice can be played, and how."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from .geometry import BOARD, DESTROYED, DOG, RESERVE, UP
from .notation import designator, format_move
from .position import Masks, Pos
from .resolution import Choice, Resolution
from .state import MarsState, piece_alive, to_pos

# Exploring every answer other seats might give to a chained push is only needed for the
# must-use rule; a cap keeps a pathological chain from stalling the server [ENG].
BRANCH_CAP = 64


class Candidate(NamedTuple):
    """One legal move: its text, the die and what it leads to.

    A named tuple, not a frozen dataclass: a busy turn makes over a thousand of them.
    """

    die: int
    text: str
    res: Resolution | None  # None for a move that pushes nothing: built only when needed
    piece: int
    square: int
    facing: int
    done: bool | None
    choice: Choice | None = None  # the mover's pushes, still to be applied to res


def piece_label(square: int, kinds: set[tuple[int, int]], size: int, facing: int) -> str:
    """The shortest designator that names a piece among the seat's kinds on its square."""
    if len(kinds) == 1:
        return designator(square, None, None)
    if len({f for z, f in kinds if z == size}) == 1:
        return designator(square, size, None)
    return designator(square, size, facing)


def usable(pos: Pos, seat: int, die: int) -> bool:
    """Whether the seat has any legal move with this die."""
    gate = pos.params.gate_mask
    occupied: dict[int, set[int]] = {}
    for s, q, o in zip(pos.status, pos.square, pos.owner, strict=True):
        if s == BOARD:
            occupied.setdefault(q, set()).add(o)
    # A piece that may rest where it stands can always spend a die turning in place.
    for i, (s, q, o) in enumerate(zip(pos.status, pos.square, pos.owner, strict=True)):
        if (
            s == BOARD
            and o == seat
            and not gate(pos.size[i]) & (1 << q)
            and occupied[q] == {seat}
            and pos.dog_square != q
        ):
            return True
    if pos.dog_owner == seat and pos.dog_square >= 0 and pos.dog_square not in occupied:
        return True
    return any(True for _ in movers(pos, seat, die, pos.masks()))


def movers(pos: Pos, seat: int, die: int, masks: Masks) -> Iterator[tuple[int, int]]:
    """Pieces of the seat with at least one legal end for this die: (piece, endpoints)."""
    for piece, _, enter in movable(pos, seat):
        ends = pos.endpoints(piece, die, masks, enter)
        if ends:
            yield piece, len(ends)


def movable(pos: Pos, seat: int) -> list[tuple[int, str, bool]]:
    """The seat's distinct movable pieces: (index, designator, entering)."""
    out: list[tuple[int, str, bool]] = []
    by_square: dict[int, list[int]] = {}
    for i, (s, o) in enumerate(zip(pos.status, pos.owner, strict=True)):
        if s == BOARD and o == seat:
            by_square.setdefault(pos.square[i], []).append(i)
    for square, group in sorted(by_square.items()):
        kinds = {(pos.size[i], pos.facing[i]) for i in group}
        done: set[tuple[int, int]] = set()
        for i in group:
            kind = (pos.size[i], pos.facing[i])
            if kind not in done:
                done.add(kind)
                out.append((i, piece_label(square, kinds, kind[0], kind[1]), False))
    reserve = pos.reserve_piece(seat)
    if reserve >= 0:
        out.append((reserve, "+", True))
    if pos.dog_owner == seat and pos.dog_square >= 0:
        out.append((DOG, "dog", False))
    return out


def candidates(
    state: MarsState,
    seat: int,
    dice: tuple[int, ...],
    only_die: int | None = None,
    only_piece: str | None = None,
) -> Iterator[Candidate]:
    """Every legal move with these dice, one per distinct outcome, in canonical order.

    only_die and only_piece (a designator, '+' or 'dog') keep the moves of one die or piece,
    the same texts the whole listing gives for them.
    """
    pos = to_pos(state)
    masks = pos.masks()
    pieces = movable(pos, seat)
    occupied: dict[int, set[int]] = {}
    for s, q, o in zip(pos.status, pos.square, pos.owner, strict=True):
        if s == BOARD:
            occupied.setdefault(q, set()).add(o)
    before: tuple[int, ...] | None = None
    # Per landing, the mover's push choices with the text each adds to a move.
    probed: dict[tuple[int, int, bool], list[tuple[Choice, str]]] = {}
    for die in sorted(set(dice), reverse=True):
        if only_die is not None and die != only_die:
            continue
        noop = False
        for piece, name, enter in pieces:
            if piece == DOG:
                start = (pos.dog_square, pos.dog_facing)
            else:
                start = (pos.square[piece], pos.facing[piece])
            ends = pos.endpoints(piece, die, masks, enter)
            if only_piece is not None and name != only_piece:
                # The whole listing keeps one move that leaves everything as it was: the
                # first piece's; a later piece's is listed only if no earlier one has it.
                noop = noop or (not enter and any((q, f) == start for q, f, _ in ends))
                continue
            for square, facing, steps in ends:
                if not enter and (square, facing) == start:
                    if noop:
                        continue
                    noop = True
                there = occupied.get(square)
                if piece == DOG:
                    busy = there is not None
                else:
                    busy = pos.dog_square == square or (there is not None and there != {seat})
                text = format_move(die, name, steps, ())
                if not busy:
                    yield Candidate(die, text, None, piece, square, facing, None)
                    continue
                # The mover's choices depend on where it lands, standing or not, and not on
                # the die or the way it points: share them between those endpoints.
                key = (piece, square, facing == UP)
                choices = probed.get(key)
                if choices is None:
                    if before is None:
                        before = pos.key()
                    res = landed(state, pos, piece, square, facing, before)
                    res.probe = piece
                    done = res.run()
                    if res.probe is not None:
                        yield Candidate(die, text, res, piece, square, facing, done)
                        continue
                    # format_move joins the clauses' texts to the move's with spaces.
                    choices = probed[key] = [
                        (c, "".join(" " + clause.text() for clause in c.clauses))
                        for c in res.probed
                    ]
                for choice, clauses in choices:
                    yield Candidate(die, text + clauses, None, piece, square, facing, None, choice)


def landed(
    state: MarsState,
    pos: Pos,
    piece: int,
    square: int,
    facing: int,
    before: tuple[int, ...],
) -> Resolution:
    """A resolution of a piece's arrival on a square, on a copy of pos."""
    hyp = pos.copy()
    if piece == DOG:
        hyp.dog_square, hyp.dog_facing = square, facing
    else:
        hyp.square[piece], hyp.facing[piece], hyp.status[piece] = square, facing, BOARD
    res = Resolution(hyp, [(piece, square)], 0, [before, hyp.key()], state.winner)
    res.moving = True
    return res


def finals(res: Resolution, done: bool | None) -> Iterator[Resolution]:
    """The resolutions this one can end in, whatever the seats asked choose (capped).

    The first one yielded takes every first option, as the timeout policy would; the other
    options of a pause are listed only if the caller asks for more.
    """
    stack: list[tuple[Resolution, bool | None, bool]] = [(res.clone(), done, False)]
    count = 0
    while stack and count < BRANCH_CAP:
        branch, finished, expand = stack.pop()
        if expand:
            for choice in reversed(branch.options(*branch.decision())[1:]):
                nxt = branch.clone()
                nxt.choose(choice)
                stack.append((nxt, None, False))
            continue
        if finished is None:
            finished = branch.run()
        if finished or branch.over:
            count += 1
            yield branch
            continue
        first = branch.clone()
        first.choose(branch.first_choice(*branch.decision()))
        stack.append((branch, False, True))
        stack.append((first, None, False))


def enables(res: Resolution, done: bool | None, seat: int, die: int, winner: int | None) -> bool:
    """Whether a first move leaves the other die usable in some resolution (or wins)."""
    for final in finals(res, done):
        if final.over or (winner is None and final.winner == seat):
            return True
        # A move that ends the Mad Dog phase ends the game: no die is left to lose.
        if final.winner is not None and not any(map(piece_alive, final.pos.status)):
            return True
        if usable(final.pos, seat, die):
            return True
    return False


def enables_fast(state: MarsState, pos: Pos, cand: Candidate, seat: int, die: int) -> bool:
    """_enables, answered at once in the common cases."""
    params = state.params
    if cand.piece == DOG:
        # The Dog ends every move alone on its square, free to turn with the other die.
        return True
    if cand.res is None and cand.choice is None:
        size = pos.size[cand.piece]
        # The moved piece can spend the other die turning where it landed, unless it
        # grows there into a size the square's gate refuses (or finishes).
        if cand.facing != UP or cand.square != params.target(size):
            return True
        res = landed(state, pos, cand.piece, cand.square, cand.facing, ())
        return enables(res, None, seat, die, state.winner)
    if pos.dog_square < 0:
        # Without a Dog, a lying piece of the seat stays lying wherever chained pushes
        # take it, and may always rest where a push leaves it: it can spend the die.
        # (The mover's own pushes move only enemy pieces.)
        # A standing arrival that does not grow where it lands stays on the board too;
        # only if every chained answer pushed it onto its goal could it get stuck.
        if cand.facing != UP or cand.square != params.target(pos.size[cand.piece]):
            return True
        for i, (s, o, f) in enumerate(zip(pos.status, pos.owner, pos.facing, strict=True)):
            if s == BOARD and o == seat and f != UP and i != cand.piece:
                return True
    if cand.choice is None:
        assert cand.res is not None
        return enables(cand.res, cand.done, seat, die, state.winner)
    res = landed(state, pos, cand.piece, cand.square, cand.facing, pos.key())
    res.probe = cand.piece
    res.run()
    res.choose(cand.choice)
    return enables(res, None, seat, die, state.winner)


def first_moves(state: MarsState, seat: int) -> tuple[list[Candidate], bool]:
    """The legal first moves of a turn under the must-use rule, and whether both dice play."""
    dice = state.dice
    found: list[Candidate] = []
    full: list[Candidate] = []
    pos = to_pos(state)
    other = {dice[0]: dice[-1], dice[-1]: dice[0]} if dice else {}  # the other die of two
    for cand in candidates(state, seat, dice):
        found.append(cand)
        if enables_fast(state, pos, cand, seat, other[cand.die]):
            full.append(cand)
    if full:
        return full, True
    if not found:
        return [], False
    high = max(c.die for c in found)
    if not state.params.exact_steps or state.params.bg_larger_die:
        return [c for c in found if c.die == high], False
    return found, False


def surely_enabled(res: Resolution, done: bool, seat: int, piece: int) -> bool:
    """Cheap cases of _enables: the Dog, or a lying piece of the seat with no Dog about."""
    if piece == DOG:
        return True
    pos = res.pos
    if not done or pos.dog_square >= 0:
        return False
    return any(
        s == BOARD and o == seat and f != UP
        for s, o, f in zip(pos.status, pos.owner, pos.facing, strict=True)
    )


def steps_left(pos: Pos, seat: int) -> int:
    """A rough count of the steps a seat's pieces still need to finish (for the house bot)."""
    params = pos.params
    goals = (params.home, params.goal1, params.goal2, params.goal3)

    def far(a: int, b: int) -> int:
        return abs(a % 8 - b % 8) + abs(a // 8 - b // 8)

    # Each leg needs its walk, about two orientation steps, and standing up at the goal.
    legs = [far(goals[k], goals[k + 1]) + 3 for k in range(3)]
    total = 0
    for status, owner, size, square, facing in zip(
        pos.status, pos.owner, pos.size, pos.square, pos.facing, strict=True
    ):
        if owner != seat:
            continue
        if status in (RESERVE, DESTROYED):
            total += 1 + sum(legs)
        elif status == BOARD:
            if facing == UP and square == params.target(size):
                size += 1  # it grows (or finishes) as the move ends
                if size > 3:
                    continue
                total += 2 + sum(legs[size:])
            else:
                total += far(square, params.target(size)) + 3 + sum(legs[size:])
    return total
