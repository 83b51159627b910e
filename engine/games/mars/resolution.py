"""End-of-move resolution: a FIFO queue of arrivals, attacks, pushes, growth (see Pushes)."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import IllegalAction
from .geometry import (
    BOARD,
    COLOURS,
    DESTROYED,
    DOG,
    FINISHED,
    NEIGHBOUR,
    SIZE_WORDS,
    UP,
    square_name,
)
from .notation import Clause
from .position import Pos


@dataclass(frozen=True)
class Choice:
    """One distinct way to make the pushes of a decision: the clauses and (piece, end) moves."""

    clauses: tuple[Clause, ...]
    pushed: tuple[tuple[int, int], ...]


def piece_words(pos: Pos, piece: int) -> str:
    """'Blue's small' for a piece."""
    return f"{COLOURS[pos.owner[piece]]}'s {SIZE_WORDS[pos.size[piece]]}"


class Resolution:
    """The arrivals still to process; it stops where a seat must choose and resumes later."""

    def __init__(
        self,
        pos: Pos,
        queue: list[tuple[int, int]],
        stage: int,
        seen: list[tuple[int, ...]],
        winner: int | None,
    ) -> None:
        self.pos = pos
        self.queue = queue
        self.stage = stage
        self.seen = seen
        self.seen_set = set(seen)
        self.winner = winner
        self.over = False  # a player finished the race and the game ends (no Dog phase)
        self.progress = 0  # growths, finishes and destructions, for the stall guard
        self.notes: list[str] = []
        self.probe: int | None = None  # the pusher whose options to return instead of applying
        self.probed: list[Choice] = []
        self.moving = False  # the first arrival is a move's own end (not a push)

    def clone(self) -> Resolution:
        """An independent copy, for exploring the choices of a pause."""
        other = Resolution(self.pos.copy(), self.queue[:], self.stage, self.seen[:], self.winner)
        other.moving = self.moving
        other.over = self.over
        return other

    def remember(self) -> None:
        """Record the current position for the repetition guard."""
        key = self.pos.key()
        self.seen.append(key)
        self.seen_set.add(key)

    def chooser(self) -> int:
        """The seat that must decide the pause at the head of the queue."""
        pos = self.pos
        piece = self.queue[0][0]
        if piece == DOG or self.stage >= 2:
            return pos.dog_owner
        return pos.owner[piece]

    # --- processing ------------------------------------------------------------------

    def run(self, answer: tuple[Clause, ...] | None = None, expect: int | None = None) -> bool:
        """Process arrivals until the queue is empty (True) or a seat must choose (False).

        `answer` decides the first decision met; with `expect`, only if that decision's pusher
        is `expect` (a mover's own clauses), and otherwise it must be empty.
        """
        pos = self.pos
        pending: list[tuple[Clause, ...] | None] = [answer]

        def take(pusher: int) -> tuple[Clause, ...] | None:
            given = pending[0]
            pending[0] = None
            if given is None or expect is None or pusher == expect:
                return given
            if given:
                raise IllegalAction("there is nobody for you to push where that move ends")
            return None

        while self.queue and not self.over:
            piece, square = self.queue[0]
            if piece == DOG:
                if pos.dog_square != square:
                    self._next()
                    continue
                if self.stage == 0:
                    for mother in pos.at(square):
                        self._attack(mother)
                    self.stage = 1
                survivors = pos.at(square)
                if survivors and not self._decide(DOG, square, survivors, take(DOG)):
                    return False
                pos = self.pos
                self._next()
                continue
            if pos.status[piece] != BOARD or pos.square[piece] != square:
                self._next()
                continue
            if self.stage == 0:
                self.stage = 1
                if pos.dog_square == square:
                    self._attack(piece)
                    if pos.status[piece] != BOARD:
                        self._next()
                        continue
            if self.stage == 1:
                enemies = pos.enemies_at(square, pos.owner[piece])
                if enemies and not self._decide(piece, square, enemies, take(piece)):
                    return False
                pos = self.pos
                self.stage = 2
            if self.stage == 2:
                here = pos.status[piece] == BOARD and pos.square[piece] == square
                if pos.dog_square == square and here:
                    if not self._decide(DOG, square, [piece], take(DOG)):
                        return False
                    pos = self.pos
                self.stage = 3
            self._grow(piece, square)
            self._next()
        if pending[0]:
            raise IllegalAction("there is nothing to push where that move ends")
        return True

    def _next(self) -> None:
        self.queue.pop(0)
        self.stage = 0
        self.moving = False

    def _attack(self, mother: int) -> None:
        pos = self.pos
        size = pos.size[mother] - pos.params.dog_reduce_by
        if size < 1:
            self.progress += 1
            pos.status[mother] = DESTROYED
            if pos.owner[mother] != pos.dog_owner:
                pos.victims += 1
            self.notes.append(f"the Dog destroys {piece_words(pos, mother)}")
        else:
            self.notes.append(f"the Dog reduces {piece_words(pos, mother)} to a {SIZE_WORDS[size]}")
            pos.size[mother] = size
        self.remember()

    def _grow(self, piece: int, square: int) -> None:
        pos = self.pos
        params = pos.params
        if pos.status[piece] != BOARD or pos.square[piece] != square or pos.facing[piece] != UP:
            return
        if not (params.growth_on_push_arrival or self.moving):
            return
        size = pos.size[piece]
        if square != params.target(size):
            return
        self.progress += 1
        if size < 3:
            pos.size[piece] = size + 1
            self.notes.append(f"{COLOURS[pos.owner[piece]]}'s {SIZE_WORDS[size]} grows")
            self.remember()
            return
        owner = pos.owner[piece]
        pos.status[piece] = FINISHED
        self.notes.append(f"{COLOURS[owner]}'s large finishes")
        done = all(s == FINISHED for o, s in zip(pos.owner, pos.status, strict=True) if o == owner)
        if done and self.winner is None:
            self.winner = owner
            if params.dog_phase:
                pos.dog_owner, pos.dog_square, pos.dog_facing = owner, square, UP
                self.notes.append(f"{COLOURS[owner]} releases the Mad Dog")
            else:
                self.over = True
        self.remember()

    # --- decisions ---------------------------------------------------------------------

    def _decide(
        self, pusher: int, square: int, occupants: list[int], answer: tuple[Clause, ...] | None
    ) -> bool:
        if answer is not None:
            self._apply(pusher, square, occupants, answer)
            return True
        if self.probe == pusher:
            self.probe = None
            self.probed = self.options(pusher, square, occupants)
            return False
        # Two ends for any one occupant pushed first are two outcomes: the chooser is asked,
        # and the (possibly large) list of combinations is only built when it is needed.
        for piece in occupants:
            _, paths = self.allowed(self.pos, pusher, piece, square, frozenset())
            if len({end for _, end in paths}) > 1:
                return False
        options = self.options(pusher, square, occupants)
        if len(options) > 1:
            return False
        if options:
            self.adopt(options[0])
        return True

    def choose(self, choice: Choice) -> None:
        """Take one choice of the paused decision and move past it."""
        self.adopt(choice)
        if self.queue[0][0] == DOG:
            self._next()
        else:
            self.stage += 1

    def adopt(self, choice: Choice) -> None:
        """Take one choice of the pending decision."""
        for piece, end in choice.pushed:
            self.pos.square[piece] = end
            self.queue.append((piece, end))
            self.notes.append(f"{piece_words(self.pos, piece)} is pushed to {square_name(end)}")
            self.remember()

    def allowed(
        self, pos: Pos, pusher: int, piece: int, square: int, extra: frozenset[tuple[int, ...]]
    ) -> tuple[int, list[tuple[str, int]]]:
        """The reduced push length and its paths, minus pushes that repeat a position."""
        distance = pos.distance(pusher, piece)
        masks = pos.masks()
        # A repeat needs an earlier push in this resolution; the mover's own pushes never repeat.
        guard = len(self.seen) > 2 or bool(extra)
        # The key of the position with the piece moved differs from this one's in the
        # piece's square alone (it is on the board): made once, its square set per end.
        keyed = pos.key_list() if guard else []
        slot = 4 * piece + 1
        for length in range(distance, 0, -1):
            found = []
            for path, end in pos.paths(piece, square, length, 1, masks=masks):
                if guard:
                    keyed[slot] = end
                    key = tuple(keyed)
                    if key in self.seen_set or key in extra:
                        continue
                found.append((path, end))
            if found:
                return length, found
        return 0, []

    def _facing_needed(self, pos: Pos, occupants: list[int]) -> set[tuple[int, int]]:
        facings: dict[tuple[int, int], set[int]] = {}
        for o in occupants:
            facings.setdefault((pos.owner[o], pos.size[o]), set()).add(pos.facing[o])
        return {k for k, v in facings.items() if len(v) > 1}

    def _clause(self, pos: Pos, piece: int, path: str, needed: set[tuple[int, int]]) -> Clause:
        ident = (pos.owner[piece], pos.size[piece])
        facing = pos.facing[piece] if ident in needed else None
        return Clause(ident[0], ident[1], facing, path)

    def decision(self) -> tuple[int, int, list[int]]:
        """The paused decision: its pusher (a piece or the Dog), square and occupants."""
        piece, square = self.queue[0]
        pos = self.pos
        if piece == DOG:
            return DOG, square, pos.at(square)
        if self.stage == 1:
            return piece, square, pos.enemies_at(square, pos.owner[piece])
        return DOG, square, [piece]

    def first_choice(self, pusher: int, square: int, occupants: list[int]) -> Choice:
        """The first of options() without listing the others: each occupant's first path."""
        pos = self.pos.copy()
        needed = self._facing_needed(pos, occupants)
        clauses: list[Clause] = []
        pushed: list[tuple[int, int]] = []
        keys: set[tuple[int, ...]] = set()
        for piece in occupants:
            _, paths = self.allowed(pos, pusher, piece, square, frozenset(keys))
            if not paths:
                continue
            path, end = paths[0]
            clauses.append(self._clause(pos, piece, path, needed))
            pushed.append((piece, end))
            pos.square[piece] = end
            if len(self.seen) > 2:
                keys.add(pos.key())
        return Choice(tuple(clauses), tuple(pushed))

    def options(self, pusher: int, square: int, occupants: list[int]) -> list[Choice]:
        """Every distinct outcome of pushing these occupants, in a canonical order."""
        needed = self._facing_needed(self.pos, occupants)
        guard = len(self.seen) > 2
        results: dict[tuple[tuple[int, int, int, int], ...], Choice] = {}
        # Branches move pieces but never change their kind: a clause made once serves all.
        made: dict[tuple[int, str], Clause] = {}

        def walk(
            pos: Pos,
            remaining: list[int],
            clauses: tuple[Clause, ...],
            pushed: tuple[tuple[int, int], ...],
            keys: frozenset[tuple[int, ...]],
        ) -> None:
            if not remaining:
                # Pieces of one kind are interchangeable: the outcome is where each kind went.
                outcome = tuple(
                    sorted((pos.owner[p], pos.size[p], pos.facing[p], end) for p, end in pushed)
                )
                if outcome not in results:
                    results[outcome] = Choice(clauses, pushed)
                return
            tried: set[tuple[int, int, int]] = set()
            for piece in remaining:
                ident = (pos.owner[piece], pos.size[piece], pos.facing[piece])
                if ident in tried:
                    continue
                tried.add(ident)
                rest = [p for p in remaining if p != piece]
                _, paths = self.allowed(pos, pusher, piece, square, keys)
                if not paths:
                    walk(pos, rest, clauses, pushed, keys)
                    continue
                first: dict[int, str] = {}
                for path, end in paths:
                    first.setdefault(end, path)
                for end, path in first.items():
                    clause = made.get((piece, path))
                    if clause is None:
                        clause = made[piece, path] = self._clause(pos, piece, path, needed)
                    if rest:
                        nxt = pos.copy()
                        nxt.square[piece] = end
                        more = keys | {nxt.key()} if guard else keys
                    else:
                        nxt, more = pos, keys
                    walk(nxt, rest, clauses + (clause,), pushed + ((piece, end),), more)

        walk(self.pos, list(occupants), (), (), frozenset())
        return list(results.values())

    def _apply(
        self, pusher: int, square: int, occupants: list[int], clauses: tuple[Clause, ...]
    ) -> None:
        pos = self.pos
        remaining = list(occupants)
        where = square_name(square)
        for clause in clauses:
            matches = [
                o
                for o in remaining
                if pos.owner[o] == clause.colour
                and pos.size[o] == clause.size
                and (clause.facing is None or pos.facing[o] == clause.facing)
            ]
            words = f"{COLOURS[clause.colour]}'s {SIZE_WORDS[clause.size]}"
            if not matches:
                raise IllegalAction(f"there is no {words} to push on {where} ({clause.text()})")
            if clause.facing is None and len({pos.facing[o] for o in matches}) > 1:
                example = Clause(clause.colour, clause.size, UP, clause.path).text()
                raise IllegalAction(
                    f"{words} on {where} is not one piece; add ^ (standing) or the compass "
                    f"letter it points to, like {example}"
                )
            # Pieces alike in colour, size and facing are one to the player, but the
            # repetition guard tells them apart: push one that may go this way, if any.
            piece = matches[0]
            if len(matches) > 1:
                piece = next(
                    (o for o in matches if self._may_push(pusher, square, o, clause.path)), piece
                )
            self._push_along(pusher, square, piece, clause.path, words)
            remaining.remove(piece)
        for piece in remaining:
            _, paths = self.allowed(pos, pusher, piece, square, frozenset())
            ends = {end for _, end in paths}
            if len(ends) > 1:
                example = self._clause(pos, piece, paths[0][0], set()).text()
                raise IllegalAction(
                    f"say where {piece_words(pos, piece)} on {where} is pushed, like {example}"
                )
            if paths:
                self._push_along(pusher, square, piece, paths[0][0], piece_words(pos, piece))

    def _may_push(self, pusher: int, square: int, piece: int, path: str) -> bool:
        """Whether _push_along would take this piece along this path."""
        if self._full_length_end(pusher, square, piece, path) is not None:
            return True
        _, paths = self.allowed(self.pos, pusher, piece, square, frozenset())
        return any(p == path for p, _ in paths)

    def _push_along(self, pusher: int, square: int, piece: int, path: str, words: str) -> None:
        pos = self.pos
        end = self._full_length_end(pusher, square, piece, path)
        if end is not None:
            pos.square[piece] = end
            self.queue.append((piece, end))
            self.notes.append(f"{words} is pushed to {square_name(end)}")
            self.remember()
            return
        length, paths = self.allowed(pos, pusher, piece, square, frozenset())
        if not paths:
            raise IllegalAction(f"{words} cannot be pushed anywhere from {square_name(square)}")
        ends = dict(paths)
        if path not in ends:
            shown = ", ".join(sorted({p for p, _ in paths})[:6])
            if len(path) != length:
                raise IllegalAction(
                    f"{words} must be pushed exactly {length} square{'s' if length > 1 else ''}, "
                    f"not {len(path)} (legal paths: {shown})"
                )
            raise IllegalAction(f"{words} cannot be pushed along {path} (legal paths: {shown})")
        pos.square[piece] = ends[path]
        self.queue.append((piece, ends[path]))
        self.notes.append(f"{words} is pushed to {square_name(ends[path])}")
        self.remember()

    def _full_length_end(self, pusher: int, square: int, piece: int, path: str) -> int | None:
        """The end of a given path if it is legal at the full, unreduced distance, else None.

        A path of the full distance needs no search for longer ones, so checking it alone
        is enough; anything else goes through the full search and its explanations.
        """
        pos = self.pos
        if len(path) != pos.distance(pusher, piece) or not path:
            return None
        passing, ending = pos.forbidden(piece, pos.masks())
        visited = {square}
        here = square
        for k, letter in enumerate(path):
            here = NEIGHBOUR[here]["NESW".index(letter) + 1]
            if here < 0 or here in visited:
                return None
            visited.add(here)
            blocked = ending if k == len(path) - 1 else passing
            if blocked & (1 << here):
                return None
        if not pos.arrival_ok(piece, here, 1):
            return None
        if len(self.seen) > 2:
            pos.square[piece] = here
            key = pos.key()
            pos.square[piece] = square
            if key in self.seen_set:
                return None
        return here
