"""Martian Frisby v1.0: race a nest of pyramids down two columns with two dice (RULES §3)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..core import (
    Await,
    Event,
    Finished,
    Option,
    Outcome,
    Pending,
    Played,
    Resigned,
    Roll,
    Rolled,
    Rules,
)
from ..errors import IllegalAction, InvalidAction, SetupError

FILES = "ab"
RANKS = 8
SOUTH, NORTH = 0, 1
NAMES = ("South", "North")
SIZE_WORDS = {1: "1-pointer", 2: "2-pointer", 3: "3-pointer"}

Piece = tuple[int, int]  # (seat, size)
Stack = tuple[Piece, ...]  # bottom to top, sizes strictly increasing
Board = tuple[Stack, ...]  # index = file * RANKS + rank - 1
Square = tuple[int, int]  # (file index, rank 1..8)
Move = tuple[Square, Square]

NEST: Stack = ((0, 1), (0, 2), (0, 3))


def index(square: Square) -> int:
    """The board index of an on-board square."""
    return square[0] * RANKS + square[1] - 1


def on_board(square: Square) -> bool:
    """Whether the square is one of a1..b8."""
    return 0 <= square[0] < len(FILES) and 1 <= square[1] <= RANKS


def name(square: Square) -> str:
    """Algebraic name of a square ("a1"); off-board squares get a name too."""
    file = FILES[square[0]] if 0 <= square[0] < len(FILES) else chr(ord("a") + square[0])
    return f"{file}{square[1]}"


def start_board() -> Board:
    """Both nests on their start squares: South on a1/b1, North on a8/b8."""
    board: list[Stack] = [()] * (len(FILES) * RANKS)
    for file in range(len(FILES)):
        board[index((file, 1))] = tuple((SOUTH, size) for _, size in NEST)
        board[index((file, RANKS))] = tuple((NORTH, size) for _, size in NEST)
    return tuple(board)


def goals(seat: int) -> tuple[Square, Square]:
    """The squares a seat must fill: the opponent's start squares."""
    rank = RANKS if seat == SOUTH else 1
    return ((0, rank), (1, rank))


def has_won(board: Board, seat: int) -> bool:
    """All six of the seat's pieces stand on its goal squares."""
    on_goal = sum(1 for sq in goals(seat) for piece in board[index(sq)] if piece[0] == seat)
    return on_goal == 2 * len(NEST)


def move_error(board: Board, seat: int, move: Move, change_columns: bool) -> str | None:
    """Why a single move is illegal for this seat, or None if it is legal."""
    frm, to = move
    text = f"{name(frm)}-{name(to)}"
    if not on_board(frm):
        return f"{text}: {name(frm)} is off the board (files a-b, ranks 1-8)"
    if not on_board(to):
        return f"{text}: {name(to)} is off the board (files a-b, ranks 1-8)"
    stack = board[index(frm)]
    if not stack:
        return f"{text}: there is no piece on {name(frm)}"
    owner, size = stack[-1]
    if owner != seat:
        mine = [p for p in stack if p[0] == seat]
        if mine:
            return (
                f"{text}: your {SIZE_WORDS[mine[-1][1]]} on {name(frm)} is trapped under "
                f"{NAMES[owner]}'s {SIZE_WORDS[size]}"
            )
        return f"{text}: the piece on top of {name(frm)} is {NAMES[owner]}'s"
    if frm[1] == to[1]:
        return f"{text}: a move must go forwards or backwards by the die's value"
    if frm[0] != to[0] and not change_columns:
        return f"{text}: pieces stay in their column (the change-columns variant is off)"
    target = board[index(to)]
    if target and target[-1][1] >= size:
        return (
            f"{text}: {name(to)} has {NAMES[target[-1][0]]}'s {SIZE_WORDS[target[-1][1]]} "
            f"on top; a {SIZE_WORDS[size]} may only nest on a smaller piece"
        )
    return None


def do_move(board: Board, move: Move) -> Board:
    """The board after moving the top piece of one square to another (unchecked)."""
    frm, to = index(move[0]), index(move[1])
    cells = list(board)
    piece = cells[frm][-1]
    cells[frm] = cells[frm][:-1]
    cells[to] = cells[to] + (piece,)
    return tuple(cells)


def moves_for(board: Board, seat: int, die: int, change_columns: bool) -> Iterator[Move]:
    """Every legal single move of the seat with one die value."""
    files = range(len(FILES))
    for frm_index, stack in enumerate(board):
        if not stack or stack[-1][0] != seat:
            continue
        size = stack[-1][1]
        frm = divmod(frm_index, RANKS)
        frm = (frm[0], frm[1] + 1)
        for rank in (frm[1] + die, frm[1] - die):
            if not 1 <= rank <= RANKS:
                continue
            for file in files if change_columns else (frm[0],):
                target = board[file * RANKS + rank - 1]
                if not target or target[-1][1] < size:
                    yield (frm, (file, rank))


def progress(board: Board, seat: int) -> int:
    """How good a position is for the seat: nests built in order, then distance travelled.

    A goal square counts only for the part of its stack that is a correct nest from the
    bottom (own 1, then own 2, then own 3); a piece parked there out of order blocks the
    nest, so it counts less than one still on its way.
    """
    total = 0
    goal_indexes = {index(square) for square in goals(seat)}
    for i, stack in enumerate(board):
        rank = i % RANKS + 1
        distance = rank - 1 if seat == SOUTH else RANKS - rank
        if i in goal_indexes:
            built = 0
            while built < len(stack) and stack[built] == (seat, built + 1):
                built += 1
            total += 20 * built
            total -= 6 * sum(1 for owner, _ in stack[built:] if owner == seat)
            continue
        for depth, (owner, _) in enumerate(stack):
            if owner == seat:
                # A piece under another cannot move: worth a little less than a free one.
                total += distance - (1 if depth < len(stack) - 1 else 0)
    return total


def die_of(move: Move) -> int:
    """The die value a move uses: the distance in ranks."""
    return abs(move[1][1] - move[0][1])


def format_moves(moves: tuple[Move, ...]) -> str:
    """Canonical notation of a turn: "a1-a4 b1-b6"."""
    return " ".join(f"{name(f)}-{name(t)}" for f, t in moves)


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


def turns_of(
    board: Board, seat: int, dice: tuple[int, int], change_columns: bool
) -> Iterator[tuple[tuple[Move, ...], Board]]:
    """Every legal turn with its resulting board, both die orders, in generation order."""
    orders = {dice, (dice[1], dice[0])}
    for first, second in sorted(orders):
        for m1 in moves_for(board, seat, first, change_columns):
            after_one = do_move(board, m1)
            if has_won(after_one, seat):
                yield (m1,), after_one
                continue
            for m2 in moves_for(after_one, seat, second, change_columns):
                after_two = do_move(after_one, m2)
                if after_two != board:
                    yield (m1, m2), after_two


_SQUARE = re.compile(r"([a-z])(\d{1,2})", re.ASCII)
_FILLER = re.compile(r"(?:\bto\b|\bthen\b|\band\b|[-–—>,;:/.\s])*", re.ASCII)
_FORM = "write two moves like 'a1-a4 b1-b6', a single move only if it wins, or 'pass'"


class MartianFrisby(Rules[FrisbyState]):
    """Martian Frisby for two players, with the change-columns variant as an option."""

    kind = "martian-frisby"
    title = "Martian Frisby"
    version = 1
    seats = (2,)
    options = (
        Option("change_columns", False, "a move may end in either column", kind=bool),
        Option("max_turns", 1000, "half-turns before the game is a draw (0: no limit)", minimum=0),
        Option(
            "first_player",
            None,
            "seat that moves first (0 South, 1 North); empty: chosen by a roll",
            minimum=0,
            maximum=1,
        ),
    )
    presets = {
        "standard": {},
        "change-columns": {"change_columns": True},
    }

    def start(self, seats: int, options: Mapping[str, object] | None = None) -> FrisbyState:
        """Both nests at home; the first player is a chance event unless given."""
        self.check_seats(seats)
        opts = self.resolve_options(options)
        first = opts["first_player"]
        max_turns = opts["max_turns"]
        if not isinstance(max_turns, int) or not (first is None or isinstance(first, int)):
            raise SetupError("options max_turns and first_player must be whole numbers")
        return FrisbyState(
            change_columns=bool(opts["change_columns"]),
            max_turns=max_turns,
            board=start_board(),
            to_move=first,
            dice=None,
            turns=0,
            result=None,
            last=None,
        )

    def seat_count(self, state: FrisbyState) -> int:
        return 2

    def seat_name(self, state: FrisbyState, seat: int) -> str:
        return NAMES[seat] if seat in (SOUTH, NORTH) else f"seat {seat}"

    def pending(self, state: FrisbyState) -> Pending:
        if state.result is not None:
            return Finished(state.result)
        if state.to_move is None:
            return Roll(1, sides=2)  # 1: South starts, 2: North starts
        if state.dice is None:
            return Roll(2)
        return Await((state.to_move,), "move")

    def apply(self, state: FrisbyState, event: Event) -> FrisbyState:
        if state.result is not None:
            raise IllegalAction("the game is over")
        if isinstance(event, Resigned):
            winner = 1 - event.seat
            reason = f"{NAMES[event.seat]} resigned; {NAMES[winner]} wins"
            return replace(state, result=Outcome.from_winner(winner, 2, reason))
        if isinstance(event, Rolled):
            return self._rolled(state, event.values)
        if isinstance(event, Played):
            return self._played(state, event.seat, event.action)
        raise IllegalAction(f"Martian Frisby has no use for {type(event).__name__}")

    def _rolled(self, state: FrisbyState, values: tuple[int, ...]) -> FrisbyState:
        if state.to_move is None:
            return replace(state, to_move=values[0] - 1)
        if state.dice is not None:
            raise IllegalAction("the dice are already rolled")
        dice = (values[0], values[1])
        seat = state.to_move
        if next(turns_of(state.board, seat, dice, state.change_columns), None) is None:
            return self._end_turn(state, state.board, seat, "pass")
        return replace(state, dice=dice)

    def _played(self, state: FrisbyState, seat: int, action: str) -> FrisbyState:
        if state.to_move != seat or state.dice is None:
            raise IllegalAction(f"it is not {NAMES[seat]}'s turn to move")
        moves = self._moves(self.parse_action(state, seat, action))
        board = self._check_turn(state, seat, moves, state.dice)
        return self._end_turn(state, board, seat, action)

    def _end_turn(self, state: FrisbyState, board: Board, seat: int, action: str) -> FrisbyState:
        turns = state.turns + 1
        result = None
        for candidate in (seat, 1 - seat):
            if has_won(board, candidate):
                reason = f"{NAMES[candidate]} has both nests home"
                result = Outcome.from_winner(candidate, 2, reason)
                break
        if result is None and state.max_turns and turns >= state.max_turns:
            result = Outcome.from_draw(2, f"draw: {state.max_turns} half-turns were played")
        return replace(
            state,
            board=board,
            to_move=1 - seat,
            dice=None,
            turns=turns,
            result=result,
            last=(seat, action),
        )

    def _moves(self, action: str) -> tuple[Move, ...]:
        if action == "pass":
            return ()
        moves = []
        for part in action.split():
            frm, _, to = part.partition("-")
            moves.append((self._square(frm), self._square(to)))
        return tuple(moves)

    @staticmethod
    def _square(text: str) -> Square:
        match = _SQUARE.fullmatch(text)
        if match is None:
            raise InvalidAction(f"{text!r} is not a square like 'a4'")
        return (ord(match[1]) - ord("a"), int(match[2]))

    def _check_turn(
        self, state: FrisbyState, seat: int, moves: tuple[Move, ...], dice: tuple[int, int]
    ) -> Board:
        """The board after a submitted turn, or IllegalAction saying what is wrong."""
        rolled = f"{dice[0]}-{dice[1]}"
        if not moves:
            example = self._example(state, seat, dice)
            raise IllegalAction(f"you cannot pass: you rolled {rolled} and can play {example}")
        if len(moves) > 2:
            raise IllegalAction("a turn is two moves, one for each die")
        used = sorted(die_of(m) for m in moves)
        if len(moves) == 2 and used != sorted(dice):
            raise IllegalAction(
                f"you rolled {rolled}, but {format_moves(moves)} moves "
                f"{used[0]} and {used[1]} squares ({self._hint(state, seat, dice)})"
            )
        if len(moves) == 1 and used[0] not in dice:
            raise IllegalAction(f"you rolled {rolled}; {format_moves(moves)} uses neither die")
        board = state.board
        for i, move in enumerate(moves):
            error = move_error(board, seat, move, state.change_columns)
            if error is not None:
                raise IllegalAction(f"{error} ({self._hint(state, seat, dice)})")
            board = do_move(board, move)
            if has_won(board, seat) and i + 1 < len(moves):
                raise IllegalAction(
                    f"{format_moves(moves[: i + 1])} already wins the game; submit it alone"
                )
        if len(moves) == 1 and not has_won(board, seat):
            raise IllegalAction(
                f"a turn is two moves, one for each die ({rolled}); a single move is "
                f"only complete when it wins ({self._hint(state, seat, dice)})"
            )
        if board == state.board:
            raise IllegalAction(
                f"{format_moves(moves)} leaves the board as it was; the second move may not "
                f"undo the first ({self._hint(state, seat, dice)})"
            )
        return board

    def _example(self, state: FrisbyState, seat: int, dice: tuple[int, int]) -> str:
        found = next(turns_of(state.board, seat, dice, state.change_columns), None)
        return format_moves(found[0]) if found else "nothing"

    def _hint(self, state: FrisbyState, seat: int, dice: tuple[int, int]) -> str:
        options = self.legal(state, seat)
        if not options:
            return "no legal turn exists"
        shown = ", ".join(options[:5])
        more = f" and {len(options) - 5} more" if len(options) > 5 else ""
        return f"legal turns include {shown}{more}"

    def legal(self, state: FrisbyState, seat: int) -> tuple[str, ...]:
        if state.result is not None or state.to_move != seat or state.dice is None:
            return ()
        first_by_outcome: dict[Board, str] = {}
        for moves, board in turns_of(state.board, seat, state.dice, state.change_columns):
            text = format_moves(moves)
            best = first_by_outcome.get(board)
            if best is None or text < best:
                first_by_outcome[board] = text
        return tuple(sorted(first_by_outcome.values()))

    def annotate(self, state: FrisbyState, seat: int, action: str) -> dict[str, Any]:
        """The first piece's square, and where the turn's moves land."""
        try:
            moves = self._moves(action)
        except InvalidAction:
            return {}
        if not moves:
            return {}
        return {"from": name(moves[0][0]), "to": [name(to) for _, to in moves]}

    def bot_action(self, state: FrisbyState, seat: int) -> str:
        """Win if possible, else bring the pieces furthest towards the goal."""
        if state.dice is None:
            return super().bot_action(state, seat)
        scored = [
            (-(10_000 if has_won(board, seat) else progress(board, seat)), format_moves(moves))
            for moves, board in turns_of(state.board, seat, state.dice, state.change_columns)
        ]
        if not scored:
            return super().bot_action(state, seat)
        return min(scored)[1]

    def parse_action(self, state: FrisbyState, seat: int, text: str) -> str:
        if len(text) > 200:
            raise InvalidAction(f"that is {len(text)} characters long; {_FORM}")
        lowered = text.strip().lower()
        if lowered == "pass":
            return "pass"
        squares = _SQUARE.findall(lowered)
        leftover = _SQUARE.sub(" ", lowered)
        if not squares or _FILLER.fullmatch(leftover) is None or len(squares) not in (2, 4):
            raise InvalidAction(f"cannot read {text.strip()!r} as a turn; {_FORM}")
        names = [f"{f}{int(r)}" for f, r in squares]
        pairs = [f"{names[i]}-{names[i + 1]}" for i in range(0, len(names), 2)]
        return " ".join(pairs)

    def describe(self, state: FrisbyState, action: str) -> str:
        seat = state.to_move if state.to_move is not None else SOUTH
        who = NAMES[seat]
        if action == "pass":
            return f"{who} passes"
        try:
            moves = self._moves(action)
        except InvalidAction:
            return f"{who} plays {action}"
        board = state.board
        parts = []
        for move in moves:
            if not (on_board(move[0]) and on_board(move[1])) or not board[index(move[0])]:
                return f"{who} plays {action}"
            size = board[index(move[0])][-1][1]
            target = board[index(move[1])]
            onto = f" onto {NAMES[target[-1][0]]}'s {target[-1][1]}" if target else ""
            parts.append(f"the {size} from {name(move[0])} to {name(move[1])}{onto}")
            board = do_move(board, move)
        won = " and wins" if has_won(board, seat) else ""
        return f"{who} moves " + " and ".join(parts) + won

    def view(self, state: FrisbyState, seat: int | None) -> dict[str, Any]:
        board = {
            name((file, rank)): [
                {"seat": s, "size": z} for s, z in state.board[index((file, rank))]
            ]
            for file in range(len(FILES))
            for rank in range(1, RANKS + 1)
        }
        pending = self.pending(state)
        return {
            "game": self.kind,
            "players": list(NAMES),
            "viewer": seat,
            "files": list(FILES),
            "ranks": RANKS,
            "board": board,
            "goals": {NAMES[s]: [name(sq) for sq in goals(s)] for s in (SOUTH, NORTH)},
            "to_move": state.to_move,
            "dice": list(state.dice) if state.dice else None,
            "turns": state.turns,
            "max_turns": state.max_turns,
            "change_columns": state.change_columns,
            "last": {"seat": state.last[0], "action": state.last[1]} if state.last else None,
            "awaiting": list(pending.seats) if isinstance(pending, Await) else [],
            "finished": state.result is not None,
            "outcome": state.result.to_json() if state.result else None,
        }

    def dump(self, state: FrisbyState) -> dict[str, Any]:
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

    def load(self, data: Mapping[str, Any]) -> FrisbyState:
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


RULES = MartianFrisby()
