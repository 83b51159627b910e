"""What a seat may do now: its legal actions, a hint of them, and the house bot's pick."""

from __future__ import annotations

from collections.abc import Mapping

from ...core import Menu, Question
from ...errors import IllegalAction
from . import moves
from .geometry import (
    BOARD,
    DOG,
    FACING_LETTERS,
    FACING_WORDS,
    SIZE_WORDS,
    parse_square,
    square_name,
)
from .moves import Candidate
from .notation import Clause, format_pushes, parse
from .perform import resolution_of
from .position import Pos
from .state import MarsState, to_pos
from .words import Words, push_words, seat_name, square_label


def legal(state: MarsState, seat: int) -> tuple[str, ...]:
    """Every legal action of the seat: its push choices, or its moves under the must-use rule."""
    if state.result is not None:
        return ()
    if state.chooser is not None:
        if seat != state.chooser:
            return ()
        res = resolution_of(state)
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


def hint(state: MarsState, seat: int) -> str:
    """A few legal actions, for an error message."""
    options = legal(state, seat)
    if not options:
        return "no legal action exists"
    shown = ", ".join(repr(o) for o in options[:3])
    return f"legal actions include {shown}"


def bot_action(state: MarsState, seat: int) -> str:
    """The house bot: the move that brings its pieces nearest home; pushes take the first."""
    if state.chooser is not None or state.roll is None or seat != state.to_move:
        actions = legal(state, seat)
        if not actions:
            raise IllegalAction(f"{seat_name(seat)} has no legal action now")
        return actions[0]  # an unanswered push takes the first canonical path
    if len(state.dice) == 2:
        found, _ = moves.first_moves(state, seat)
    else:
        found = list(moves.candidates(state, seat, state.dice))
    if not found:
        raise IllegalAction(f"{seat_name(seat)} has no legal action now")
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


SHOWN = 12  # a stage lists the moves themselves once at most this many are left


def _legal_moves(
    state: MarsState, seat: int, die: int | None, piece: str | None
) -> list[Candidate]:
    """The legal moves of one die or piece, without listing the others when it can be helped.

    Kept beside the frozen state (out of its fields, like its position snapshot): a state
    never changes, and each stage of a menu asks for the same moves again.
    """
    memo: dict[tuple[int, int | None, str | None], list[Candidate]]
    memo = state.__dict__.setdefault("_stage_moves", {})
    key = (seat, die, piece)
    if key not in memo:
        memo[key] = _find_legal_moves(state, seat, die, piece)
    return memo[key]


def _find_legal_moves(
    state: MarsState, seat: int, die: int | None, piece: str | None
) -> list[Candidate]:
    if seat != state.to_move or state.roll is None or not state.dice or state.chooser is not None:
        return []
    dice = state.dice
    if len(dice) != 2:
        return list(moves.candidates(state, seat, dice, die, piece))
    pos = to_pos(state)

    def both(cand: Candidate) -> bool:
        other = dice[1] if cand.die == dice[0] else dice[0]
        return moves.enables_fast(state, pos, cand, seat, other)

    # Under the must-use rule a move is legal if it lets both dice play, whenever some
    # move does; one such move is usually among the first listed.
    if any(both(c) for c in moves.candidates(state, seat, dice)):
        return [c for c in moves.candidates(state, seat, dice, die, piece) if both(c)]
    found, _ = moves.first_moves(state, seat)
    return [
        c
        for c in found
        if (die is None or c.die == die) and (piece is None or _piece_of(c.text) == piece)
    ]


def _piece_of(text: str) -> str:
    """The piece a move's text names: a designator, '+' or 'dog'."""
    head = text.split(": ", 1)[1].split(" ", 1)[0]
    return "+" if head.startswith("+") else head


def menu(words: Words, state: MarsState, seat: int, picked: Mapping[str, str]) -> Menu:
    """A move in stages: the die, the piece, where it ends, how it faces; then the moves."""
    if state.chooser is not None or seat != state.to_move or state.roll is None:
        return Menu((), None, legal(state, seat))
    pos = to_pos(state)
    chosen: list[tuple[str, str, str]] = []
    dice = sorted(set(state.dice), reverse=True)
    die = int(picked["die"]) if picked.get("die", "") in {str(d) for d in dice} else None
    if die is None:
        dice = [d for d in dice if _legal_moves(state, seat, d, None)]
        if len(dice) > 1:
            answers: tuple[tuple[str, str, str | None], ...] = tuple(
                (str(d), f"the {d}", None) for d in dice
            )
            return Menu((), Question("die", "Which die do you use first?", answers), ())
        if not dice:
            return Menu((), None, ())
        die = dice[0]
    chosen.append(("die", str(die), f"the {die}"))
    pieces = {name: (index, enter) for index, name, enter in moves.movable(pos, seat)}
    piece = picked.get("piece")
    if piece not in pieces:
        found = [
            (name, *_piece_label(words, state, pos, index, enter))
            for name, (index, enter) in pieces.items()
            if _legal_moves(state, seat, die, name)
        ]
        if not found:
            return menu(words, state, seat, {})  # a die of the address bar with no move
        if len(found) != 1:
            question = Question("piece", f"Which piece moves {die} steps?", tuple(found))
            return Menu(tuple(chosen), question, ())
        piece = found[0][0]
    assert piece is not None
    index, enter = pieces[piece]
    label, _ = _piece_label(words, state, pos, index, enter)
    chosen.append(("piece", piece, label))
    found_moves = list({c.text: c for c in _legal_moves(state, seat, die, piece)}.values())
    if not found_moves:
        return menu(words, state, seat, {"die": str(die)})  # a piece with no move for this die
    ends = sorted({c.square for c in found_moves})
    to = picked.get("to")
    if len(found_moves) > SHOWN and len(ends) > 1 and to not in {square_name(q) for q in ends}:
        answers = tuple(
            (square_name(q), square_label(words, state.params, q), square_name(q)) for q in ends
        )
        return Menu(tuple(chosen), Question("to", "Where does it end its move?", answers), ())
    if to is not None and len(found_moves) > SHOWN and len(ends) > 1:
        square = parse_square(to)
        found_moves = [c for c in found_moves if c.square == square]
        chosen.append(("to", to, square_label(words, state.params, square)))
    facings = sorted({c.facing for c in found_moves})
    face = picked.get("facing")
    if len(found_moves) > SHOWN and len(facings) > 1:
        if face not in {FACING_LETTERS[f] for f in facings}:
            answers = tuple((FACING_LETTERS[f], FACING_WORDS[f], None) for f in facings)
            return Menu(tuple(chosen), Question("facing", "How does it end?", answers), ())
        assert face is not None
        found_moves = [c for c in found_moves if FACING_LETTERS[c.facing] == face]
        chosen.append(("facing", face, FACING_WORDS[FACING_LETTERS.index(face)]))
    texts = list(dict.fromkeys(c.text for c in found_moves))
    # Still too many: the rest differ in where the pieces it pushes go; ask push by push.
    pushes = {t: _pushes(t, state.seats) for t in texts}
    for index in range(max(len(p) for p in pushes.values())):
        if len(texts) <= SHOWN:
            break
        options = {_push_at(pushes[t], index) for t in texts}
        if len(options) == 1:
            continue  # every move left pushes the same here
        key = f"push{index + 1}"
        answer = picked.get(key)
        if answer not in options:
            answers = tuple((o, _push_label(o, state.seats), None) for o in sorted(options))
            question = Question(key, "Where does the pushed piece go?", answers)
            return Menu(tuple(chosen), question, ())
        assert answer is not None
        texts = [t for t in texts if _push_at(pushes[t], index) == answer]
        chosen.append((key, answer, _push_label(answer, state.seats)))
    return Menu(tuple(chosen), None, tuple(texts))


def _pushes(text: str, seats: int) -> tuple[Clause, ...]:
    """The push clauses of a move (or of a push answer), read by the notation's own parser."""
    return parse(text, seats).pushes


def _push_at(pushes: tuple[Clause, ...], index: int) -> str:
    """A move's push at a position, as its notation without 'x ' ('' when it has no more)."""
    return pushes[index].text().removeprefix("x ") if index < len(pushes) else ""


def _push_label(answer: str, seats: int) -> str:
    """A push answer in words: 'bS:NE' is Blue's small 2 squares (NE)."""
    return push_words(_pushes(f"x {answer}", seats)[0]) if answer else "no further push"


def _piece_label(
    words: Words, state: MarsState, pos: Pos, index: int, enter: bool
) -> tuple[str, str | None]:
    """How a page names a movable piece, and the square it stands on."""
    if enter:
        home = state.params.home
        return f"a new small {words.piece_word} onto {square_name(home)}", square_name(home)
    if index == DOG:
        return f"the Mad Dog on {square_name(pos.dog_square)}", square_name(pos.dog_square)
    square = pos.square[index]
    size = SIZE_WORDS[pos.size[index]]
    where = square_name(square)
    return f"the {size} {words.piece_word} on {where}, {FACING_WORDS[pos.facing[index]]}", where
