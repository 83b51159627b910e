"""A working position: blocking, push paths, landing checks, the step search."""

from __future__ import annotations

from collections.abc import Iterable

from .geometry import (
    BOARD,
    DOG,
    FACING_LETTERS,
    NEIGHBOUR,
    RESERVE,
    STEPS,
    UP,
    Params,
    Piece,
    piece_value,
)

Masks = tuple[list[int], list[int]]  # per colour (index seats = the Dog): total, partial-or-more
Endpoint = tuple[int, int, tuple[str, ...]]  # square, facing, step tokens


def push_distance(params: Params, a_size: int, a_up: bool, o_size: int, o_up: bool) -> int:
    """How far an arriving piece pushes an occupant, by the game's formula (see Pushes)."""
    if params.push_formula == "MD":
        return 1 + a_up + (not o_up) + (a_size > o_size)
    return 1 + (a_size > o_size) + (a_up and not o_up)


def block_masks(params: Params, seats: int, board: list[tuple[int, int, int]]) -> Masks:
    """Per colour (index seats = the Dog), the squares blocked totally and at least partially.

    board lists the (square, owner, facing) of every piece on the board.
    """
    low, high = params.block_partial_min, params.block_total_min
    if low >= 3 and len({q * 8 + o for q, o, _ in board}) == len(board):
        # One piece is worth at most 2: nothing blocks unless two of a colour share a square.
        return [0] * (seats + 1), [0] * (seats + 1)
    strength: dict[int, int] = {}  # per square * 8 + colour
    for q, o, f in board:
        key = q * 8 + o
        strength[key] = strength.get(key, 0) + (2 if f == UP else 1)
    total = [0] * (seats + 1)
    partial = [0] * (seats + 1)
    # Only a square where some colour reaches the partial strength blocks anything.
    for q in {key >> 3 for key, value in strength.items() if value >= low}:
        row = [strength.get(q * 8 + o, 0) for o in range(seats)]
        best = max(row)
        bit = 1 << q
        leader = row.index(best)
        second = max((v for c, v in enumerate(row) if c != leader), default=0)
        for colour in range(seats + 1):
            other = second if colour == leader else best
            if other >= high:
                total[colour] |= bit
                partial[colour] |= bit
            elif other >= low:
                partial[colour] |= bit
    return total, partial


class Pos:
    """A mutable working copy of a position; it never leaves the engine's own functions."""

    __slots__ = (
        "params",
        "seats",
        "owner",
        "size",
        "status",
        "square",
        "facing",
        "dog_square",
        "dog_facing",
        "dog_owner",
        "victims",
    )

    def __init__(
        self,
        params: Params,
        seats: int,
        pieces: Iterable[Piece],
        dog: tuple[int, int, int] | None,
        victims: int,
    ) -> None:
        self.params = params
        self.seats = seats
        pieces = tuple(pieces)
        self.owner: list[int] = [p.owner for p in pieces]
        self.size: list[int] = [p.size for p in pieces]
        self.status: list[int] = [p.status for p in pieces]
        self.square: list[int] = [p.square for p in pieces]
        self.facing: list[int] = [p.facing for p in pieces]
        self.dog_owner, self.dog_square, self.dog_facing = dog if dog else (-1, -1, -1)
        self.victims = victims

    def copy(self) -> Pos:
        """An independent copy."""
        other = Pos.__new__(Pos)
        other.params = self.params
        other.seats = self.seats
        other.owner = self.owner
        other.size = self.size[:]
        other.status = self.status[:]
        other.square = self.square[:]
        other.facing = self.facing[:]
        other.dog_owner = self.dog_owner
        other.dog_square = self.dog_square
        other.dog_facing = self.dog_facing
        other.victims = self.victims
        return other

    def pieces(self) -> tuple[Piece, ...]:
        """The pieces as frozen values (one off the board has no square nor facing)."""
        return tuple(
            piece_value(o, z, s, q, f) if s == BOARD else piece_value(o, z, s, -1, -1)
            for o, z, s, q, f in zip(
                self.owner, self.size, self.status, self.square, self.facing, strict=True
            )
        )

    def dog(self) -> tuple[int, int, int] | None:
        """The Dog as (controller, square, facing), or None before it is released."""
        if self.dog_square < 0:
            return None
        return (self.dog_owner, self.dog_square, self.dog_facing)

    def key(self) -> tuple[int, ...]:
        """Every piece's status, square, size and facing: the position for the repetition guard."""
        return tuple(self.key_list())

    def key_list(self) -> list[int]:
        """The key as a list: piece i's four values from index 4 * i, then the Dog's two."""
        status = self.status
        n = 4 * len(status)
        out = [0] * (n + 2)
        out[0:n:4] = status
        out[1:n:4] = self.square
        out[2:n:4] = self.size
        out[3:n:4] = self.facing
        if status.count(BOARD) != len(status):
            for i, s in enumerate(status):
                if s != BOARD:
                    out[4 * i + 1] = out[4 * i + 3] = -1  # off the board: no square, no facing
        out[n] = self.dog_square
        out[n + 1] = self.dog_facing
        return out

    def at(self, square: int) -> list[int]:
        """The pieces on a square."""
        squares = self.square
        found: list[int] = []
        if square in squares:  # a search in C: most squares are empty
            i = -1
            for _ in range(squares.count(square)):
                i = squares.index(square, i + 1)
                if self.status[i] == BOARD:
                    found.append(i)
        return found

    def enemies_at(self, square: int, colour: int) -> list[int]:
        """The pieces on a square that are not of this colour."""
        owner = self.owner
        return [i for i in self.at(square) if owner[i] != colour]

    def masks(self) -> Masks:
        """Per colour, the squares other colours block totally and at least partially."""
        status, square, owner = self.status, self.square, self.owner
        if self.params.block_partial_min >= 3:
            # block_masks's own first test, without building the list of pieces for it.
            keys = [q * 8 + o for s, q, o in zip(status, square, owner, strict=True) if s == BOARD]
            if len(set(keys)) == len(keys):
                return [0] * (self.seats + 1), [0] * (self.seats + 1)
        return block_masks(
            self.params,
            self.seats,
            [
                (q, o, f)
                for s, q, o, f in zip(status, square, owner, self.facing, strict=True)
                if s == BOARD
            ],
        )

    def own_specials(self, colour: int, exclude: int) -> int:
        """Bits of the special squares already holding another piece of this colour."""
        mask = 0
        status, square, owner = self.status, self.square, self.owner
        for special in self.params.specials:
            if special in square:
                i = -1
                for _ in range(square.count(special)):
                    i = square.index(special, i + 1)
                    if owner[i] == colour and status[i] == BOARD and i != exclude:
                        mask |= 1 << special
                        break
        return mask

    def forbidden(self, piece: int, masks: Masks) -> tuple[int, int]:
        """The squares a piece may not pass through, and those it may not end on."""
        if piece == DOG:
            total, partial = masks[0][self.seats], masks[1][self.seats]
            return total, partial
        colour = self.owner[piece]
        params = self.params
        gate = params.gate_mask(self.size[piece])
        own = self.own_specials(colour, piece)
        total = masks[0][colour]
        passing = total | gate | (own if params.one_per_colour_always else 0)
        return passing, total | masks[1][colour] | gate | own

    # --- pushes -------------------------------------------------------------------------

    def distance(self, arriving: int, occupant: int) -> int:
        """The push distance of an occupant by an arriving piece (or the Dog), unreduced."""
        if arriving == DOG:
            a_size, a_up = 3, self.dog_facing == UP
        else:
            a_size, a_up = self.size[arriving], self.facing[arriving] == UP
        o_up = self.facing[occupant] == UP
        return push_distance(self.params, a_size, a_up, self.size[occupant], o_up)

    def paths(
        self,
        piece: int,
        origin: int,
        length: int,
        depth: int,
        first: bool = False,
        masks: Masks | None = None,
    ) -> list[tuple[str, int]]:
        """Every legal push path of exactly this length for a piece on origin, with its end."""
        if masks is None:
            masks = self.masks()
        passing, ending = self.forbidden(piece, masks)
        found: list[tuple[str, int]] = []
        arrival: dict[int, bool] = {}

        def walk(square: int, visited: int, path: str) -> bool:
            if len(path) + 1 < length:
                for letter, nxt, bit in STEPS[square]:
                    if not (visited | passing) & bit and walk(nxt, visited | bit, path + letter):
                        return True
                return False
            for letter, nxt, bit in STEPS[square]:
                if (visited | ending) & bit:
                    continue
                ok = arrival.get(nxt)
                if ok is None:
                    ok = arrival[nxt] = self.arrival_ok(piece, nxt, depth)
                if ok:
                    found.append((path + letter, nxt))
                    if first:
                        return True
            return False

        walk(origin, 1 << origin, "")
        return found

    def push_options(
        self, piece: int, origin: int, distance: int
    ) -> tuple[int, list[tuple[str, int]]]:
        """The compulsory push length after reduction, and every legal path of that length."""
        masks = self.masks()
        for length in range(distance, 0, -1):
            found = self.paths(piece, origin, length, 1, masks=masks)
            if found:
                return length, found
        return 0, []

    def can_push(
        self, piece: int, origin: int, distance: int, depth: int, masks: Masks | None = None
    ) -> bool:
        """Whether a piece on origin has a legal push of length 1..distance."""
        if masks is None:
            masks = self.masks()
        return any(self.paths(piece, origin, n, depth, True, masks) for n in range(1, distance + 1))

    def arrival_ok(self, piece: int, square: int, depth: int) -> bool:
        """Whether a Mother may come to rest on a square with the enemies (or Dog) there."""
        colour = self.owner[piece]
        enemies = self.enemies_at(square, colour)
        dog_here = self.dog_square == square
        if (not enemies and not dog_here) or depth <= 0:
            return True
        hyp = self.copy()
        hyp.square[piece] = square
        hyp.status[piece] = BOARD
        if dog_here:
            hyp.size[piece] -= self.params.dog_reduce_by
            if hyp.size[piece] < 1:
                return True
        masks = hyp.masks()  # the pushes looked for below leave hyp as it is
        for enemy in enemies:
            if not hyp.can_push(enemy, square, hyp.distance(piece, enemy), depth - 1, masks):
                return False
        # The Dog's push is looked for as the resolution makes it (Resolution.allowed refuses
        # ends whose enemies cannot be pushed), at a push's arrival too, so that a Mother is
        # never left on the Dog's square with nowhere to go (rules version 4; before, a push's
        # arrival asked only for a path).
        reach = 1 if self.params.dog_push_ends else depth - 1
        return not dog_here or hyp.can_push(piece, square, hyp.distance(DOG, piece), reach, masks)

    def landing_ok(self, piece: int, square: int, facing: int) -> bool:
        """Whether a move may end here: every occupant can be pushed or is destroyed (§1.6d)."""
        hyp = self.copy()
        if piece == DOG:
            hyp.dog_square, hyp.dog_facing = square, facing
            for mother in hyp.at(square):
                hyp.size[mother] -= self.params.dog_reduce_by
                if hyp.size[mother] >= 1 and not hyp.can_push(
                    mother, square, hyp.distance(DOG, mother), 1
                ):
                    return False
            return True
        hyp.square[piece], hyp.facing[piece], hyp.status[piece] = square, facing, BOARD
        return hyp.arrival_ok(piece, square, 2)

    # --- the step search (§1.8) ---------------------------------------------------------

    def endpoints(self, piece: int, die: int, masks: Masks, enter: bool = False) -> list[Endpoint]:
        """Every distinct (square, facing) a piece can legally end a move of this die on."""
        params = self.params
        passing, ending = self.forbidden(piece, masks)
        quarter = params.quarter_turns
        starts: dict[int, tuple[str, ...]]
        if enter:
            home = params.home
            if passing & (1 << home) or self.own_specials(self.owner[piece], piece) & (1 << home):
                return []
            starts = {home * 5 + f: (FACING_LETTERS[f],) for f in range(5)}
            first_layer = 1
        elif piece == DOG:
            starts = {self.dog_square * 5 + self.dog_facing: ()}
            first_layer = 0
        else:
            starts = {self.square[piece] * 5 + self.facing[piece]: ()}
            first_layer = 0
        if first_layer > die:
            return []

        def moves(state: int) -> list[tuple[int, str]]:
            square, facing = divmod(state, 5)
            base = square * 5
            if facing == UP:
                return [(base + 1, "N"), (base + 2, "E"), (base + 3, "S"), (base + 4, "W")]
            out = []
            nxt = NEIGHBOUR[square][facing]
            if nxt >= 0 and not passing & (1 << nxt):
                out.append((nxt * 5 + facing, "F"))
            for turn in (1, 2, 3, 4):
                if turn != facing and (not quarter or (turn - facing) % 2):
                    out.append((base + turn, FACING_LETTERS[turn]))
            out.append((base, "U"))
            return out

        reached: dict[int, tuple[str, ...]] = {}
        if params.exact_steps:
            layer = dict(starts)
            for _ in range(first_layer, die):
                following: dict[int, tuple[str, ...]] = {}
                for state, tokens in layer.items():
                    for nxt, token in moves(state):
                        if nxt not in following:
                            following[nxt] = tokens + (token,)
                layer = following
            reached = layer
        else:
            reached = dict(starts) if enter else {}
            seen = set(starts)
            layer = dict(starts)
            for _ in range(first_layer, die):
                following = {}
                for state, tokens in layer.items():
                    for nxt, token in moves(state):
                        if nxt not in seen:
                            seen.add(nxt)
                            following[nxt] = tokens + (token,)
                reached.update(following)
                layer = following
            if not enter and die >= 2:
                (start,) = starts
                square, facing = divmod(start, 5)
                if facing == UP:
                    reached[start] = ("N", "U")
                else:
                    other = facing % 4 + 1
                    reached[start] = (FACING_LETTERS[other], FACING_LETTERS[facing])
        colour = self.seats if piece == DOG else self.owner[piece]
        busy: dict[int, bool] = {}
        for i, (s, q, o) in enumerate(zip(self.status, self.square, self.owner, strict=True)):
            if s == BOARD and o != colour and i != piece:
                busy[q] = True
        if piece != DOG and self.dog_square >= 0:
            busy[self.dog_square] = True
        landing: dict[int, bool] = {}
        out: list[Endpoint] = []
        for state, tokens in reached.items():
            square, facing = divmod(state, 5)
            if ending & (1 << square):
                continue
            if square in busy:
                key = square * 2 + (facing == UP)
                ok = landing.get(key)
                if ok is None:
                    ok = landing[key] = self.landing_ok(piece, square, facing)
                if not ok:
                    continue
            out.append((square, facing, tokens))
        return out

    def reserve_piece(self, colour: int) -> int:
        """The first reserve piece of a colour, or -1."""
        for i, (s, o) in enumerate(zip(self.status, self.owner, strict=True)):
            if s == RESERVE and o == colour:
                return i
        return -1
