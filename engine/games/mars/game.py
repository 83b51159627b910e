"""The turn flow, notation and views of the Rules shared by Martian Race and Mad Dog."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ...core import (
    Await,
    Event,
    Finished,
    OptionValue,
    Outcome,
    Pending,
    Played,
    Resigned,
    Roll,
    Rolled,
    Rules,
)
from ...errors import IllegalAction, InvalidAction, RulesError
from . import moves, quick
from .geometry import (
    BOARD,
    COLOURS,
    DOG,
    FACING_LETTERS,
    FACING_WORDS,
    FINISHED,
    NEIGHBOUR,
    OUT,
    RESERVE,
    SIZE_WORDS,
    UP,
    Params,
    Piece,
    square_name,
)
from .moves import piece_label
from .notation import (
    Clause,
    MoveText,
    PushText,
    designator,
    format_move,
    format_pushes,
    parse,
)
from .position import Masks, Pos
from .present import board_view
from .resolution import Resolution
from .state import MarsState, dump_state, evolve, load_state, piece_alive, to_pos

ROLL_TWO = Roll(2)
MOVE_AWAITS = tuple(Await((seat,), "move") for seat in range(len(COLOURS)))
PUSH_AWAITS = tuple(Await((seat,), "push") for seat in range(len(COLOURS)))


@lru_cache(maxsize=64)
def _labels(names: tuple[str, str, str, str], specials: tuple[int, ...]) -> tuple[str, ...]:
    """Every square's label, the special ones named: 'h2 (Government Center)', 'c4'."""
    named: dict[int, str] = {}
    for special, name in zip(specials, names, strict=True):
        named.setdefault(special, name)
    return tuple(
        f"{square_name(q)} ({named[q]})" if q in named else square_name(q) for q in range(64)
    )


def walk(square: int, path: str) -> int:
    """The square a push path ends on, one square per letter (N, E, S, W)."""
    for letter in path:
        nxt = NEIGHBOUR[square][FACING_LETTERS.index(letter)]
        if nxt >= 0:
            square = nxt
    return square


class MarsRules(Rules[MarsState]):
    """Rules on the shared movement engine; subclasses give names, options and parameters."""

    piece_word = "Martian"
    goal_names: tuple[str, str, str, str] = (
        "Home",
        "Government Center",
        "Supply Depot",
        "Launch Pad",
    )
    goal_roles: tuple[str, str, str, str] = ("home", "goal1", "goal2", "goal3")

    @abstractmethod
    def make_params(self, seats: int, options: Mapping[str, OptionValue]) -> Params:
        """The rule parameters for this many seats and these resolved options."""

    # --- setup and bookkeeping ----------------------------------------------------------

    def start(self, seats: int, options: Mapping[str, object] | None = None) -> MarsState:
        """Everyone's Martians in reserve as smalls; the first seat rolls first."""
        self.check_seats(seats)
        params = self.make_params(seats, self.resolve_options(options))
        pieces = tuple(Piece(s, 1, RESERVE) for s in range(seats) for _ in range(params.martians))
        return MarsState(
            params=params,
            seats=seats,
            pieces=pieces,
            dog=None,
            victims=0,
            winner=None,
            to_move=0,
            roll=None,
            dice=(),
            queue=(),
            stage=0,
            chooser=None,
            seen=(),
            turns=0,
            calm=0,
            dog_turns=0,
            resigned=(),
            result=None,
            last=None,
        )

    def seat_count(self, state: MarsState) -> int:
        return state.seats

    def seat_name(self, state: MarsState, seat: int) -> str:
        return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"

    def pending(self, state: MarsState) -> Pending:
        if state.result is not None:
            return Finished(state.result)
        # Pending values are frozen: the common ones are made once, not at every event.
        if state.chooser is not None:
            return PUSH_AWAITS[state.chooser]
        if state.roll is None:
            return ROLL_TWO
        return MOVE_AWAITS[state.to_move]

    def square_label(self, params: Params, square: int) -> str:
        """'h2 (Government Center)' for a special square, 'c4' otherwise."""
        return _labels(self.goal_names, params.specials)[square]

    # --- events ----------------------------------------------------------------------------

    def apply(self, state: MarsState, event: Event) -> MarsState:
        if state.result is not None:
            raise IllegalAction("the game is over")
        if isinstance(event, Rolled):
            return self._rolled(state, event.values)
        if isinstance(event, Played):
            return self._played(state, event.seat, event.action)
        if isinstance(event, Resigned):
            return self._resigned(state, event.seat)
        raise IllegalAction(f"{self.title} has no use for {type(event).__name__}")

    def _rolled(self, state: MarsState, values: tuple[int, ...]) -> MarsState:
        if state.roll is not None or state.chooser is not None:
            raise IllegalAction("the dice are already rolled")
        if len(values) != 2 or not all(1 <= v <= 6 for v in values):
            raise IllegalAction(f"a roll of two dice is due, not {list(values)}")
        rolled = evolve(state, {"roll": tuple(values), "dice": tuple(values)})
        if quick.rests(state, state.to_move):
            return rolled
        pos = to_pos(rolled)
        if any(moves.usable(pos, state.to_move, die) for die in set(values)):
            return rolled
        who = self.seat_name(state, state.to_move)
        sentence = f"{who} cannot use {values[0]}-{values[1]} and forfeits the turn"
        return self._end_turn(replace(rolled, last=(state.to_move, "forfeit", sentence)))

    def _played(self, state: MarsState, seat: int, action: str) -> MarsState:
        parsed = parse(action, state.seats)
        if state.chooser is not None:
            sentence = self.describe(state, action)
            if seat != state.chooser:
                raise IllegalAction(
                    f"{self.seat_name(state, state.chooser)} must choose a push now"
                )
            if not isinstance(parsed, PushText):
                raise IllegalAction(
                    f"a push must be chosen first: reply like {self.legal(state, seat)[0]!r}"
                )
            res = self._resolution(state)
            done = res.run(parsed.pushes)
            return self._settle(state, res, done, state.dice, (seat, action, sentence))
        if seat != state.to_move or state.roll is None:
            raise IllegalAction(f"it is not {self.seat_name(state, seat)}'s turn to move")
        if not isinstance(parsed, MoveText):
            raise IllegalAction(f"there is no push to choose now; {self._hint(state, seat)}")
        if parsed.die is None:
            parsed = replace(parsed, die=self._infer_die(state, parsed))
        after = quick.simple_move(self, state, seat, parsed, action)
        if after is not None:
            return after
        pos = to_pos(state)
        sentence = self._sentence(state, pos, action, parsed)
        before = pos.key() if parsed.pushes or self._lands_busy(state, pos, seat, parsed) else None
        piece, square = self._perform(state, pos, seat, parsed)
        assert parsed.die is not None
        rest = list(state.dice)
        rest.remove(parsed.die)
        # Positions matter to the repetition guard only once something is pushed.
        seen = [] if before is None else [before, pos.key()]
        res = Resolution(pos, [(piece, square)], 0, seen, state.winner)
        res.moving = True
        done = res.run(parsed.pushes, expect=piece)
        if (
            len(state.dice) == 2
            and not moves.surely_enabled(res, done, seat, piece)
            and not moves.enables(res, done, seat, rest[0], state.winner)
        ):
            self._check_single(state, seat, parsed.die)
        return self._settle(state, res, done, tuple(rest), (seat, action, sentence))

    def _lands_busy(self, state: MarsState, pos: Pos, seat: int, move: MoveText) -> bool:
        """Whether a move (not yet checked) would end where it has something to push."""
        square = self._landing(state, pos, seat, move)
        if square is None:
            return True
        if move.piece == "dog":
            return bool(pos.at(square))
        return pos.dog_square == square or bool(pos.enemies_at(square, seat))

    def _landing(self, state: MarsState, pos: Pos, seat: int, move: MoveText) -> int | None:
        """Where a move's steps lead, without checking them; None if its piece is unclear."""
        if move.piece == "+":
            square, facing, steps = (
                state.params.home,
                FACING_LETTERS.index(move.steps[0]),
                (move.steps[1:]),
            )
        elif move.piece == "dog":
            square, facing, steps = pos.dog_square, pos.dog_facing, move.steps
        else:
            try:
                piece = self._find_piece(pos, seat, move)
            except IllegalAction:
                return None
            square, facing, steps = pos.square[piece], pos.facing[piece], move.steps
        for token in steps:
            if token == "F":
                if facing != UP and square >= 0 and NEIGHBOUR[square][facing] >= 0:
                    square = NEIGHBOUR[square][facing]
            else:
                facing = FACING_LETTERS.index(token)
        return square

    def _resigned(self, state: MarsState, seat: int) -> MarsState:
        if seat in state.resigned:
            raise IllegalAction(f"{self.seat_name(state, seat)} has already resigned")
        pos = to_pos(state)
        for i, owner in enumerate(pos.owner):
            if owner == seat and piece_alive(pos.status[i]):
                pos.status[i] = OUT
        if pos.dog_owner == seat:
            pos.dog_square = -1
        resigned = (*state.resigned, seat)
        sentence = f"{self.seat_name(state, seat)} resigns"
        state = replace(
            state,
            pieces=pos.pieces(),
            dog=pos.dog(),
            resigned=resigned,
            last=(seat, "resign", sentence),
        )
        active = [s for s in range(state.seats) if s not in resigned]
        if len(active) <= 1:
            return self._finish(state, "everyone else resigned", only=active[0] if active else None)
        if state.chooser is not None:
            res = self._resolution(state)
            return self._settle(state, res, res.run(), state.dice, state.last)
        if state.to_move == seat:
            return self._end_turn(state)
        return state

    def _resolution(self, state: MarsState) -> Resolution:
        return Resolution(
            to_pos(state), list(state.queue), state.stage, list(state.seen), state.winner
        )

    def _settle(
        self,
        state: MarsState,
        res: Resolution,
        done: bool,
        dice: tuple[int, ...],
        last: tuple[int, str, str] | None,
    ) -> MarsState:
        """The state after a resolution ran: paused, the game over, or the turn going on."""
        pos = res.pos
        changes: dict[str, Any] = {
            "pieces": pos.pieces(state.pieces),
            "dog": pos.dog(),
            "victims": pos.victims,
            "winner": res.winner,
            "dice": dice,
            "last": last,
            "calm": 0 if res.progress else state.calm,
        }
        if res.over:
            return self._finish(evolve(state, changes), "")
        if not done:
            changes.update(
                queue=tuple(res.queue),
                stage=res.stage,
                chooser=res.chooser(),
                seen=tuple(res.seen),
            )
            return evolve(state, changes)
        changes.update(queue=(), stage=0, chooser=None, seen=())
        if res.winner is not None and not any(map(piece_alive, pos.status)):
            word = self.piece_word
            new = evolve(state, changes)
            return self._finish(new, f"every {word} has finished or been destroyed")
        mover = state.to_move
        released = state.winner is None and res.winner == mover
        if (
            dice
            and not released
            and mover not in state.resigned
            and moves.usable(pos, mover, dice[0])
        ):
            return evolve(state, changes)
        return self._end_turn(state, changes)

    def _has_turn(self, state: MarsState, seat: int) -> bool:
        if seat in state.resigned:
            return False
        if state.dog is not None and state.dog[0] == seat:
            return True
        for p in state.pieces:
            if p.owner == seat and (p.status == BOARD or p.status == RESERVE):  # piece_alive
                return True
        return False

    def _end_turn(self, state: MarsState, changes: dict[str, Any] | None = None) -> MarsState:
        """Pass the turn to the next seat with something to move, or end a guarded game."""
        if changes:
            state = evolve(state, changes)
        params = state.params
        mover = state.to_move
        turns = state.turns + 1
        dog_turns = state.dog_turns + (state.dog is not None and state.dog[0] == mover)
        calm = state.calm + 1
        after = {"roll": None, "dice": (), "turns": turns, "dog_turns": dog_turns, "calm": calm}
        reason = ""
        active = state.seats - len(state.resigned)
        if params.max_turns and turns >= params.max_turns:
            reason = f"the turn limit of {params.max_turns} turns was reached"
        elif params.stall_rounds and calm >= params.stall_rounds * active:
            reason = (
                f"no {self.piece_word} grew, finished or was destroyed "
                f"in {params.stall_rounds} rounds"
            )
        elif params.dog_round_limit and dog_turns >= params.dog_round_limit:
            reason = f"the Mad Dog phase limit of {params.dog_round_limit} rounds was reached"
        if reason:
            return self._finish(evolve(state, after), reason)
        for k in range(1, state.seats + 1):
            seat = (mover + k) % state.seats
            if self._has_turn(state, seat):
                after["to_move"] = seat
                return evolve(state, after)
        return self._finish(evolve(state, after), f"nobody has a {self.piece_word} left to move")

    def scores(self, state: MarsState) -> tuple[int, ...]:
        """Finished pieces per seat, plus the Dog's bonus for the winner in the Mad Dog phase."""
        finished = [0] * state.seats
        for piece in state.pieces:
            if piece.status == FINISHED:
                finished[piece.owner] += 1
        if state.params.dog_phase and state.winner is not None:
            finished[state.winner] += 5 + state.victims
        return tuple(finished)

    def _finish(self, state: MarsState, reason: str, only: int | None = None) -> MarsState:
        scores = self.scores(state)
        active = [s for s in range(state.seats) if s not in state.resigned]
        ranks = [0] * state.seats
        names = self.seat_name
        if only is not None:
            ranks[only] = 1
            reason = f"{names(state, only)} wins: {reason}"
        elif state.winner is not None and not state.params.dog_phase:
            for s in active:
                ranks[s] = 1 if s == state.winner else 2
            reason = f"{names(state, state.winner)} wins: every {self.piece_word} finished"
        else:
            for s in active:
                ranks[s] = 1 + sum(scores[o] > scores[s] for o in active)
            shown = ", ".join(f"{names(state, s)} {scores[s]}" for s in active)
            reason = f"{reason}; scores {shown}"
        worst = max(ranks) if any(ranks) else 0
        for k, seat in enumerate(reversed(state.resigned)):
            ranks[seat] = worst + 1 + k
        outcome = Outcome(tuple(ranks), tuple(float(s) for s in scores), reason)
        return replace(state, result=outcome, queue=(), stage=0, chooser=None, seen=())

    # --- performing a move -----------------------------------------------------------------

    def _infer_die(self, state: MarsState, move: MoveText) -> int:
        steps = len(move.steps)
        if state.params.exact_steps:
            fitting = {d for d in state.dice if d == steps}
        else:
            fitting = {d for d in state.dice if d >= steps}
        if len(fitting) == 1:
            return fitting.pop()
        dice = " and ".join(str(d) for d in state.dice) or "no dice"
        raise InvalidAction(
            f"say which die {' '.join(move.steps)} uses: you have {dice} to play "
            f"(write it first, like '{state.dice[0] if state.dice else 5}: ...')"
        )

    def _find_piece(self, pos: Pos, seat: int, move: MoveText) -> int:
        if move.piece == "+":
            piece = pos.reserve_piece(seat)
            if piece < 0:
                raise IllegalAction(f"you have no {self.piece_word} in reserve to enter")
            return piece
        if move.piece == "dog":
            if pos.dog_owner != seat or pos.dog_square < 0:
                raise IllegalAction("you do not control the Mad Dog")
            return DOG
        where = square_name(move.square)
        mine = [
            i
            for i in pos.at(move.square)
            if pos.owner[i] == seat
            and (move.size is None or pos.size[i] == move.size)
            and (move.facing is None or pos.facing[i] == move.facing)
        ]
        if not mine:
            what = f"{SIZE_WORDS[move.size]} " if move.size else ""
            raise IllegalAction(f"you have no {what}{self.piece_word} on {where}")
        kinds = {(pos.size[i], pos.facing[i]) for i in mine}
        if len(kinds) > 1:
            raise IllegalAction(
                f"several of your pieces are on {where}; name one like "
                f"{designator(move.square, pos.size[mine[0]], pos.facing[mine[0]])}"
            )
        return mine[0]

    def _blocked_reason(self, pos: Pos, piece: int, square: int, masks: Masks, end: bool) -> str:
        params = pos.params
        label = self.square_label(params, square)
        bit = 1 << square
        colour = pos.seats if piece == DOG else pos.owner[piece]
        if masks[0][colour] & bit:
            return f"{label} is totally blocked"
        if piece != DOG:
            size = pos.size[piece]
            if params.gate_mask(size) & bit:
                return f"a {SIZE_WORDS[size]} may not enter or end on {label}"
            if pos.own_specials(colour, piece) & bit:
                return f"{label} already holds one of your pieces"
        if end and masks[1][colour] & bit:
            return f"{label} is partially blocked: you may pass but not end there"
        return f"{label} cannot be entered"

    def _perform(self, state: MarsState, pos: Pos, seat: int, move: MoveText) -> tuple[int, int]:
        """Walk the move's steps on pos, checking each; return the piece and its landing square."""
        params = state.params
        die = move.die
        assert die is not None
        if die not in state.dice:
            left = " and ".join(str(d) for d in state.dice)
            raise IllegalAction(f"you have {left} to play, not a {die}")
        piece = self._find_piece(pos, seat, move)
        steps = move.steps
        count = len(steps)
        if params.exact_steps and count != die:
            raise IllegalAction(f"a move uses exactly the die: {count} steps given for a {die}")
        if count > die:
            raise IllegalAction(f"{count} steps given for a {die}; a move has at most {die}")
        masks = pos.masks()
        passing, ending = pos.forbidden(piece, masks)
        if move.piece == "+":
            home = params.home
            if pos.own_specials(seat, piece) & (1 << home):
                raise IllegalAction(
                    f"{self.square_label(params, home)} already holds one of your pieces"
                )
            if passing & (1 << home):
                raise IllegalAction(self._blocked_reason(pos, piece, home, masks, False))
            square, facing = home, FACING_LETTERS.index(steps[0])
            steps = steps[1:]
        elif piece == DOG:
            square, facing = pos.dog_square, pos.dog_facing
        else:
            square, facing = pos.square[piece], pos.facing[piece]
        for token in steps:
            if token == "F":
                if facing == UP:
                    raise IllegalAction(
                        f"a standing piece on {square_name(square)} cannot step; lie down first"
                    )
                nxt = NEIGHBOUR[square][facing]
                if nxt < 0:
                    raise IllegalAction(f"F from {square_name(square)} leaves the board")
                if passing & (1 << nxt):
                    raise IllegalAction(self._blocked_reason(pos, piece, nxt, masks, False))
                square = nxt
            elif token == "U":
                if facing == UP:
                    raise IllegalAction(f"the piece on {square_name(square)} is already standing")
                facing = UP
            else:
                turn = FACING_LETTERS.index(token)
                if turn == facing:
                    raise IllegalAction(
                        f"the piece on {square_name(square)} already points {token}"
                    )
                if facing != UP and params.quarter_turns and (turn - facing) % 2 == 0:
                    raise IllegalAction("turning around takes two quarter-turn steps")
                facing = turn
        if ending & (1 << square):
            raise IllegalAction(self._blocked_reason(pos, piece, square, masks, True))
        busy = pos.dog_square == square if piece != DOG else False
        colour = pos.seats if piece == DOG else seat
        busy = busy or any(pos.owner[i] != colour for i in pos.at(square) if i != piece)
        # Clauses for every occupant are checked path by path when the pushes are made, which
        # proves each occupant can move; only otherwise is the landing searched here.
        covered = (
            piece != DOG
            and pos.dog_square != square
            and len(move.pushes) == len(pos.enemies_at(square, seat))
        )
        if busy and not covered and not pos.landing_ok(piece, square, facing):
            raise IllegalAction(
                f"you may not end on {square_name(square)}: a piece there could not be pushed "
                "anywhere"
            )
        if piece == DOG:
            pos.dog_square, pos.dog_facing = square, facing
        else:
            pos.square[piece], pos.facing[piece], pos.status[piece] = square, facing, BOARD
        return piece, square

    # --- the must-use rule (§1.4) -----------------------------------------------------------

    def _check_single(self, state: MarsState, seat: int, die: int) -> None:
        """Refuse a first move that strands the other die while both could be used."""
        allowed, full = moves.first_moves(state, seat)
        if full:
            raise IllegalAction(
                "you must use both dice when you can: that move loses the other die, but "
                f"for example {allowed[0].text!r} keeps it playable"
            )
        if allowed and die not in {c.die for c in allowed}:
            raise IllegalAction(f"only one die can be used: play it with the {allowed[0].die}")

    # --- the contract's queries ----------------------------------------------------------------

    def legal(self, state: MarsState, seat: int) -> tuple[str, ...]:
        if state.result is not None:
            return ()
        if state.chooser is not None:
            if seat != state.chooser:
                return ()
            res = self._resolution(state)
            res.probe = res.queue[0][0] if res.stage < 2 else DOG
            res.run()
            return tuple(format_pushes(c.clauses) for c in res.probed)
        if seat != state.to_move or state.roll is None or not state.dice:
            return ()
        if len(state.dice) == 2:
            found, _ = moves.first_moves(state, seat)
        else:
            found = list(moves.candidates(state, seat, state.dice))
        return tuple(dict.fromkeys(c.text for c in found))

    def bot_action(self, state: MarsState, seat: int) -> str:
        """The house bot: the move that brings its pieces nearest home; pushes take the first."""
        if state.chooser is not None or state.roll is None or seat != state.to_move:
            actions = self.legal(state, seat)
            if not actions:
                raise IllegalAction(f"{self.seat_name(state, seat)} has no legal action now")
            return actions[0]  # RULES §1.10: an unanswered push takes the first canonical path
        if len(state.dice) == 2:
            found, _ = moves.first_moves(state, seat)
        else:
            found = list(moves.candidates(state, seat, state.dice))
        if not found:
            raise IllegalAction(f"{self.seat_name(state, seat)} has no legal action now")
        pos = to_pos(state)
        best, best_score = found[0].text, float("-inf")
        for cand in found:
            if cand.res is None and cand.choice is None:
                after = pos.copy()
                if cand.piece == DOG:
                    after.dog_square, after.dog_facing = cand.square, cand.facing
                else:
                    after.square[cand.piece], after.facing[cand.piece] = cand.square, cand.facing
                    after.status[cand.piece] = BOARD
            elif cand.choice is not None:
                after = pos.copy()
                if cand.piece != DOG:
                    after.square[cand.piece], after.facing[cand.piece] = cand.square, cand.facing
                    after.status[cand.piece] = BOARD
                for piece, end in cand.choice.pushed:
                    after.square[piece] = end
            else:
                assert cand.res is not None
                after = cand.res.pos
            # Chained pushes are not followed: the bot judges where its own move leaves things.
            mine = moves.steps_left(after, seat)
            if mine == 0:
                return cand.text
            others = [moves.steps_left(after, s) for s in range(state.seats) if s != seat]
            score = -mine + 0.25 * min(others, default=0)
            if score > best_score:
                best, best_score = cand.text, score
        return best

    def _hint(self, state: MarsState, seat: int) -> str:
        options = self.legal(state, seat)
        if not options:
            return "no legal action exists"
        shown = ", ".join(repr(o) for o in options[:3])
        return f"legal actions include {shown}"

    def parse_action(self, state: MarsState, seat: int, text: str) -> str:
        parsed = parse(text, state.seats)
        if isinstance(parsed, PushText):
            pushes = tuple(c for c in parsed.pushes if c.path)
            if not pushes:
                raise InvalidAction(
                    f"cannot read {text.strip()!r}: a push needs a path like 'x gS:N'"
                )
            return format_pushes(pushes)
        if parsed.die is None:
            parsed = replace(parsed, die=self._infer_die(state, parsed))
        assert parsed.die is not None
        name = parsed.piece
        steps = parsed.steps
        start: tuple[int, int] | None = None
        if name == "+":
            start, steps = (state.params.home, FACING_LETTERS.index(steps[0])), steps[1:]
        elif name == "dog":
            if state.dog is not None:
                start = (state.dog[1], state.dog[2])
        else:
            name = designator(parsed.square, parsed.size, parsed.facing)
            kinds = {
                (p.size, p.facing)
                for p in state.pieces
                if p.status == BOARD and p.owner == seat and p.square == parsed.square
            }
            matching = {
                (z, f)
                for z, f in kinds
                if (parsed.size is None or z == parsed.size)
                and (parsed.facing is None or f == parsed.facing)
            }
            if len(matching) == 1:
                ((size, facing),) = matching
                name = piece_label(parsed.square, kinds, size, facing)
                start = (parsed.square, facing)
        pushes = tuple(c for c in parsed.pushes if c.path)
        if not pushes and start is not None:
            square, facing = start
            for token in steps:
                if token == "F":
                    if facing != UP and NEIGHBOUR[square][facing] >= 0:
                        square = NEIGHBOUR[square][facing]
                elif token == "U":
                    facing = UP
                else:
                    facing = FACING_LETTERS.index(token)
            enemy = seat if name != "dog" else -1
            busy = (state.dog is not None and state.dog[1] == square and name != "dog") or any(
                p.status == BOARD and p.square == square and p.owner != enemy for p in state.pieces
            )
            if busy:
                pushes = self._forced_pushes(state, seat, replace(parsed, pushes=()))
        return format_move(parsed.die, name, parsed.steps, pushes)

    def _forced_pushes(self, state: MarsState, seat: int, move: MoveText) -> tuple[Clause, ...]:
        """The clauses a move implies when its pushes have one legal outcome (else none)."""
        if state.roll is None or state.chooser is not None or seat != state.to_move:
            return ()
        try:
            pos = to_pos(state)
            piece, square = self._perform(state, pos, seat, move)
        except RulesError:
            return ()
        res = Resolution(pos, [(piece, square)], 0, [], state.winner)
        res.moving = True
        res.probe = piece
        res.run()
        if res.probe is None and len(res.probed) == 1:
            return res.probed[0].clauses
        return ()

    def annotate(self, state: MarsState, seat: int, action: str) -> dict[str, Any]:
        """Where a move's piece starts and lands, or where a pushed piece goes."""
        try:
            parsed = parse(action, state.seats)
        except InvalidAction:
            return {}
        if isinstance(parsed, PushText):
            if not state.queue:
                return {}
            origin = state.queue[0][1]
            return {
                "from": square_name(origin),
                "to": [square_name(walk(origin, c.path)) for c in parsed.pushes],
            }
        if parsed.die is None:
            return {}
        if parsed.piece == "+":
            start = state.params.home
        elif parsed.piece == "dog":
            if state.dog is None:
                return {}
            start = state.dog[1]
        elif parsed.square is not None:
            start = parsed.square
        else:
            return {}
        try:
            _, landing = self._perform(state, to_pos(state), seat, parsed)
        except RulesError:
            return {}
        return {"from": square_name(start), "to": [square_name(landing)]}

    def describe(self, state: MarsState, action: str) -> str:
        try:
            parsed = parse(action, state.seats)
        except InvalidAction:
            who = self.seat_name(state, state.to_move)
            return f"{who} plays {action}"
        return self._sentence(state, to_pos(state), action, parsed)

    def _sentence(
        self, state: MarsState, pos: Pos, action: str, parsed: MoveText | PushText
    ) -> str:
        who = self.seat_name(state, state.chooser if state.chooser is not None else state.to_move)
        if isinstance(parsed, PushText):
            return f"{who} pushes " + ", ".join(self._push_words(c) for c in parsed.pushes)
        params = state.params
        if parsed.piece == "dog":
            square, facing, thing = pos.dog_square, pos.dog_facing, "Mad Dog"
        elif parsed.piece == "+":
            square, facing, thing = params.home, FACING_LETTERS.index(parsed.steps[0]), None
        else:
            try:
                piece = self._find_piece(pos, state.to_move, parsed)
            except IllegalAction:
                return f"{who} plays {action}"
            square, facing = pos.square[piece], pos.facing[piece]
            thing = SIZE_WORDS[pos.size[piece]]
        return self.move_words(params, parsed, who, thing, square, facing)

    def move_words(
        self,
        params: Params,
        parsed: MoveText,
        who: str,
        thing: str | None,
        square: int,
        facing: int,
    ) -> str:
        """A move's sentence: who moves what (None: enters a piece) from where (not checked)."""
        start = square
        for token in parsed.steps[1:] if parsed.piece == "+" else parsed.steps:
            if token == "F" and facing != UP and square >= 0 and NEIGHBOUR[square][facing] >= 0:
                square = NEIGHBOUR[square][facing]
            elif token != "F":
                facing = FACING_LETTERS.index(token)
        here, there = self.square_label(params, start), self.square_label(params, square)
        if thing is None:
            moved = " and stays" if square == start else f" and moves it to {there}"
            head = f"{who} enters a small {self.piece_word} on {here}{moved}"
        elif square == start:
            head = f"{who}'s {thing} on {here} stays there"  # it only turns, stands or lies
        else:
            head = f"{who} moves the {thing} from {here} to {there}"
        steps = len(parsed.steps)
        text = (
            f"{head}, {FACING_WORDS[facing]} "
            f"({steps} step{'s' if steps != 1 else ''} of a {parsed.die or '?'})"
        )
        if parsed.pushes:
            text += ", pushing " + ", ".join(self._push_words(c) for c in parsed.pushes)
        return text

    def _push_words(self, clause: Clause) -> str:
        return (
            f"{COLOURS[clause.colour]}'s {SIZE_WORDS[clause.size]} "
            f"{len(clause.path)} square{'s' if len(clause.path) != 1 else ''} ({clause.path})"
        )

    def view(self, state: MarsState, seat: int | None) -> dict[str, Any]:
        return board_view(self, state, seat, self.pending(state), self.scores(state))

    def dump(self, state: MarsState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> MarsState:
        return load_state(data)


__all__ = ["MarsRules", "MarsState", "to_pos"]
