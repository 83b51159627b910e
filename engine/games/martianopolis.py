"""Martianopolis 500 v1.0: race three pyramids round a ring track, moved by secret cards."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
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
    Rules,
    Shuffle,
    Shuffled,
)
from ..errors import IllegalAction, InvalidAction, SetupError

# --- the track (RULES §5.1) -----------------------------------------------------------

LANES = "abcd"  # a is the inner edge, d the outer edge
COLUMNS = 48
COLOURS = ("Red", "Yellow", "Green", "Blue")
HEX = ("#d62728", "#e6b800", "#2ca02c", "#1f5fd6")
SIZES = (1, 2, 3)
SIZE_LETTERS = {1: "S", 2: "M", 3: "L"}
LETTER_SIZES = {"s": 1, "small": 1, "m": 2, "medium": 2, "l": 3, "large": 3}

# token -> (lane change, cost); I steps inward (towards lane a), O outward (towards lane d).
STEPS = {"F": (0, 1), "I": (-1, 2), "O": (1, 2)}

# --- the cards (RULES §5.2) -----------------------------------------------------------

# A card is an int 0..51: rank = card // 4 + 2 (14 is the ace), suit = card % 4.
DECK = tuple(range(52))
SUITS = "♣♦♥♠"
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
FACE_CARDS = tuple(c for c in DECK if 11 <= c // 4 + 2 <= 13)

UP, DOWN = "up", "down"
SETASIDE, ORDER, SHUFFLE, CHOOSE, MOVE = "setaside", "order", "shuffle", "choose", "move"


def rank(card: int) -> int:
    """The card's rank for ordering: 2..14, the ace highest."""
    return card // 4 + 2


def value(card: int) -> int:
    """The card's movement value: 10 for A, K, Q, J and 10, else the face value."""
    return min(rank(card), 10)


def card_name(card: int) -> str:
    """The card as text: "10♥", "K♠"."""
    return f"{RANK_NAMES.get(rank(card), str(rank(card)))}{SUITS[card % 4]}"


def column(progress: int) -> int:
    """The column (1..48) of a racer with this progress counter."""
    return (progress - 1) % COLUMNS + 1


def square_name(lane: int, progress: int) -> str:
    """The square of a lane and progress, as lane letter + column: "b17"."""
    return f"{LANES[lane]}{column(progress)}"


def movement_points(card_value: int, size: int) -> int:
    """Movement points of a racer: twice the movement value minus its pips."""
    return 2 * card_value - size


def laps_done(progress: int) -> int:
    """Laps a racer has completed: lap k ends on the step from 48k to 48k + 1."""
    return max(0, (progress - 1) // COLUMNS)


@dataclass(frozen=True)
class Racer:
    """One pyramid on the track: whose, its size, where it is and whether it stands."""

    seat: int
    size: int
    lane: int
    progress: int
    standing: bool = False  # crashed: upright until its owner's next move
    removed: bool = False  # finished the race and left the track


@dataclass(frozen=True)
class MartianopolisState:
    """The whole server-side state: track, every pile, every secret choice."""

    seats: int
    laps: int
    max_turns: int
    lanes: tuple[int, ...]  # lane of each seat's starting file
    phase: str  # setaside, order, shuffle, choose, move (ignored once result is set)
    set_aside: int | None  # the face card out of play with 3 players
    orders: tuple[tuple[int, ...] | None, ...]  # each seat's sizes front to back, once chosen
    racers: tuple[Racer, ...]  # by seat, then size; empty until the grid is placed
    piles: tuple[tuple[int, ...], ...]  # face-down, top card first
    discards: tuple[int, ...]  # also the undealt stock before the first deal
    turn: int  # the current turn, from 1
    choices: tuple[str | None, ...]  # up/down of this turn
    table: tuple[tuple[int, ...], ...]  # cards played this turn; the last one counts
    stage: str | None  # the group being resolved (up, down), None between turns
    value: int  # movement value of the group that moves
    movers: tuple[int, ...]  # seats still to move in this group, the first moves now
    moved: tuple[int, ...]  # sizes the current mover has already moved (or laid flat)
    recovered: tuple[int, ...]  # sizes of the current mover that only lay flat again
    rounds: int  # completed simultaneous rounds (order, card): secrets become public
    resigned: tuple[int, ...]  # seats in the order they resigned
    notes: tuple[str, ...]  # public sentences about the latest reveal and moves
    result: Outcome | None

    @property
    def finish(self) -> int:
        """The progress at which a racer has completed every lap and leaves the track."""
        return COLUMNS * self.laps + 1

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the race."""
        return tuple(s for s in range(self.seats) if s not in self.resigned)


def racer_of(state: MartianopolisState, seat: int, size: int) -> Racer | None:
    """The racer of a seat and size, if it is placed."""
    for racer in state.racers:
        if racer.seat == seat and racer.size == size:
            return racer
    return None


def on_track(state: MartianopolisState) -> tuple[Racer, ...]:
    """Racers occupying a square: placed, not removed, of seats still racing."""
    return tuple(r for r in state.racers if not r.removed and r.seat not in state.resigned)


def distance(state: MartianopolisState, seat: int) -> int:
    """How far a seat's racers have come in total; a removed racer counts the full race."""
    return sum(state.finish if r.removed else r.progress for r in state.racers if r.seat == seat)


# --- paths (RULES §5.4) -----------------------------------------------------------------

# An end of a racer's move: (kind, lane, steps) with kind "exact" (all points used),
# "finish" (removed on the last lap; lane 0) or "crash" (a maximal shorter path).
End = tuple[str, int, int]


class Paths:
    """Every end one racer can reach with its points, by dynamic programming over squares.

    The states are (lane, steps taken, points left): at most 4 x 20 x 20 of them, so the
    sets of reachable ends are computed once and paths are rebuilt greedily from them; the
    number of raw paths (up to ~2^19) is never enumerated.
    """

    def __init__(
        self, occupied: frozenset[tuple[int, int]], racer: Racer, points: int, finish: int
    ) -> None:
        self.occupied = occupied
        self.lane = racer.lane
        self.progress = racer.progress
        self.points = points
        self.finish = finish
        self._memo: dict[tuple[int, int, int], frozenset[End]] = {}

    def step(self, lane: int, steps: int, left: int, token: str) -> tuple[int, int] | None:
        """The lane and points left after one step, or None if it is not allowed."""
        change, cost = STEPS[token]
        target = lane + change
        if cost > left or not 0 <= target < len(LANES):
            return None
        if (target, column(self.progress + steps + 1)) in self.occupied:
            return None
        return target, left - cost

    def terminal(self, lane: int, steps: int, left: int) -> End | None:
        """The end a path stopping here makes, or None if it must go on."""
        if steps > 0 and self.progress + steps == self.finish:
            return ("finish", 0, steps)
        if left == 0:
            return ("exact", lane, steps)
        if all(self.step(lane, steps, left, t) is None for t in STEPS):
            return ("crash", lane, steps)
        return None

    def reach(self, lane: int, steps: int, left: int) -> frozenset[End]:
        """Every end reachable from this point of a path."""
        key = (lane, steps, left)
        found = self._memo.get(key)
        if found is None:
            end = self.terminal(lane, steps, left)
            if end is not None:
                found = frozenset((end,))
            else:
                ends: set[End] = set()
                for token in STEPS:
                    after = self.step(lane, steps, left, token)
                    if after is not None:
                        ends |= self.reach(after[0], steps + 1, after[1])
                found = frozenset(ends)
            self._memo[key] = found
        return found

    def allowed_ends(self) -> frozenset[End]:
        """The ends a player may choose: full paths if any exist, else maximal crashes."""
        ends = self.reach(self.lane, 0, self.points)
        full = frozenset(e for e in ends if e[0] != "crash")
        return full or ends

    def path_to(self, end: End) -> tuple[str, ...]:
        """A canonical path to an end: straight steps preferred, then inward, then outward."""
        lane, steps, left = self.lane, 0, self.points
        tokens: list[str] = []
        while self.terminal(lane, steps, left) != end:
            for token in STEPS:
                after = self.step(lane, steps, left, token)
                if after is not None and end in self.reach(after[0], steps + 1, after[1]):
                    tokens.append(token)
                    lane, left = after
                    steps += 1
                    break
            else:
                raise ValueError(f"{end} is not reachable")
        return tuple(tokens)


# The path of a racer that crashed last turn and only lies flat again: its order is ignored.
FLAT = ("flat",)


def format_path(tokens: tuple[str, ...]) -> str:
    """Canonical path text: runs of F as Fk (F for one), I and O one by one; "stay" if empty."""
    if tokens == FLAT:
        return "flat"
    parts: list[str] = []
    run = 0
    for token in (*tokens, ""):
        if token == "F":
            run += 1
            continue
        if run:
            parts.append("F" if run == 1 else f"F{run}")
            run = 0
        if token:
            parts.append(token)
    return " ".join(parts) or "stay"


# --- notation (RULES §5.5) --------------------------------------------------------------

_ORDER_FORM = "'order L M S' (your racers from the front of the file to the back)"
_CARD_FORM = "'up' or 'down'"
_MOVE_FORM = (
    "one clause per racer in the order moved, like 'S: F3 O F2; L: I F7; M: F12' "
    "(F straight on for 1 point, I diagonally inward or O diagonally outward for 2; "
    "'S: stay' if S cannot move at all)"
)
_ALL_FORMS = f"write {_ORDER_FORM}, {_CARD_FORM}, or moves as {_MOVE_FORM}"
_SIZE_WORD = r"(?:small|medium|large|s|m|l)"
_ORDER = re.compile(
    rf"(?:order\b)?[\s:,\-]*({_SIZE_WORD})[\s,\-]*({_SIZE_WORD})[\s,\-]*({_SIZE_WORD})"
)
_ORDER_WORD = re.compile(r"order\b")
_UP = re.compile(r"(?:play\s+)?(?:face[\s-]*)?up")
_DOWN = re.compile(r"(?:play\s+)?(?:face[\s-]*)?down")
_CLAUSE = re.compile(rf"({_SIZE_WORD})(?:\s*:\s*|\s+)(.*)", re.DOTALL)
_PATH = re.compile(r"(?:[\s,]*[fio][0-9]{0,2})+[\s,]*")
_TOKEN = re.compile(r"([fio])([0-9]{0,2})")
_STAY = re.compile(r"stay|-|none|crash")
MAX_STEPS = 99


def parse_path(text: str) -> tuple[str, ...]:
    """Path text ("f3 o f2", "FFFOFF", "stay") as steps; InvalidAction on anything else."""
    lowered = text.strip().lower()
    if _STAY.fullmatch(lowered):
        return ()
    if lowered == "flat":
        return FLAT
    if not lowered or _PATH.fullmatch(lowered) is None:
        raise InvalidAction(
            f"cannot read {text.strip()!r} as a path: steps are F (straight on), "
            "I (diagonally inward) and O (diagonally outward); there are no sideways or "
            "backward steps"
        )
    tokens: list[str] = []
    for letter, count in _TOKEN.findall(lowered):
        times = 1 if count == "" else int(count)
        if times == 0:
            raise InvalidAction(f"{letter.upper()}0 in {text.strip()!r} is no step at all")
        tokens.extend(letter.upper() * times)
    if len(tokens) > MAX_STEPS:
        raise InvalidAction(f"{text.strip()!r} has {len(tokens)} steps; no move is that long")
    return tuple(tokens)


def parse_clauses(text: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """Move text as (size, steps) per racer in the order moved; InvalidAction if unreadable."""
    parts = [p.strip() for line in text.strip().splitlines() for p in line.split(";")]
    parts = [p for p in parts if p]
    if not parts:
        raise InvalidAction(f"cannot read {text.strip()!r} as a move; write {_MOVE_FORM}")
    clauses: list[tuple[int, tuple[str, ...]]] = []
    for part in parts:
        match = _CLAUSE.fullmatch(part.lower())
        if match is None:
            raise InvalidAction(f"cannot read {part!r} as a racer's move; write {_MOVE_FORM}")
        size = LETTER_SIZES[match[1]]
        if any(size == seen for seen, _ in clauses):
            raise InvalidAction(
                f"{SIZE_LETTERS[size]} is named twice in {text.strip()!r}; each racer moves once"
            )
        try:
            path = parse_path(match[2])
        except InvalidAction as e:
            raise InvalidAction(f"{part!r}: {e}; write {_MOVE_FORM}") from e
        clauses.append((size, path))
    return tuple(clauses)


def format_clauses(clauses: tuple[tuple[int, tuple[str, ...]], ...]) -> str:
    """Canonical move text: "S: F3 O F2; L: I F7"."""
    return "; ".join(f"{SIZE_LETTERS[size]}: {format_path(path)}" for size, path in clauses)


def parse_order(text: str) -> tuple[int, ...] | None:
    """An order text as sizes front to back, None if it is not one; InvalidAction if wrong."""
    lowered = text.strip().lower()
    match = _ORDER.fullmatch(lowered)
    if match is None:
        if _ORDER_WORD.match(lowered):
            raise InvalidAction(f"cannot read {text.strip()!r} as an order; write {_ORDER_FORM}")
        return None
    sizes = tuple(LETTER_SIZES[word] for word in match.groups())
    if sorted(sizes) != list(SIZES):
        raise InvalidAction(f"{text.strip()!r} does not name each racer once; write {_ORDER_FORM}")
    return sizes


def format_order(sizes: tuple[int, ...]) -> str:
    """Canonical order text: "order L M S"."""
    return "order " + " ".join(SIZE_LETTERS[s] for s in sizes)


# --- hidden information -------------------------------------------------------------------


def is_secret(state: MartianopolisState, event: Event) -> bool:
    """Whether an event applied to this state must be hidden from the other seats for now.

    Deal shuffles are secret until the game ends (their order reveals every pile). An
    `order ...` or `up`/`down` answer is secret until its round is complete; the answer
    that completes the round is public at once, and so is everything else.
    """
    if state.result is not None:
        return False
    if isinstance(event, Shuffled):
        return state.phase == SHUFFLE
    if isinstance(event, Played) and state.phase in (ORDER, CHOOSE):
        waiting = _waiting(state)
        return event.seat in waiting and len(waiting) > 1
    return False


def is_revealed(before: MartianopolisState, event: Event, now: MartianopolisState) -> bool:
    """Whether an event, applied to `before`, may be shown to everyone in the state `now`."""
    if not is_secret(before, event) or now.result is not None:
        return True
    return not isinstance(event, Shuffled) and now.rounds > before.rounds


def _waiting(state: MartianopolisState) -> tuple[int, ...]:
    """Seats whose answer the current simultaneous round still lacks."""
    if state.phase == ORDER:
        return tuple(s for s in state.active if state.orders[s] is None)
    if state.phase == CHOOSE:
        return tuple(s for s in state.active if state.choices[s] is None)
    return ()


# --- the rules ------------------------------------------------------------------------------


class Martianopolis500(Rules[MartianopolisState]):
    """Martianopolis 500 for 2 to 4 players: cards played face-up or face-down move trios."""

    kind = "martianopolis-500"
    title = "Martianopolis 500"
    version = 1
    seats = (2, 3, 4)
    options = (
        Option("laps", 5, "laps to race before a racer leaves the track", minimum=1, maximum=20),
        Option(
            "lanes",
            None,
            "starting lane of each seat in seat order, e.g. 'db' (none: a, b, c, d)",
            kind=str,
        ),
        Option(
            "max_turns",
            500,
            "turns before the race is stopped and ranked (0: no limit)",
            minimum=0,
        ),
    )
    presets = {
        "standard": {},
        "sprint": {"laps": 1},
    }

    # --- setup -------------------------------------------------------------------------

    def start(self, seats: int, options: Mapping[str, object] | None = None) -> MartianopolisState:
        """The grid empty, the deck unshuffled; 3 players first set a face card aside."""
        self.check_seats(seats)
        opts = self.resolve_options(options)
        laps, max_turns, lanes_text = opts["laps"], opts["max_turns"], opts["lanes"]
        if not isinstance(laps, int) or not isinstance(max_turns, int):
            raise SetupError("options laps and max_turns must be whole numbers")
        lanes = self._lanes(str(lanes_text or ""), seats)
        return MartianopolisState(
            seats=seats,
            laps=laps,
            max_turns=max_turns,
            lanes=lanes,
            phase=SETASIDE if seats == 3 else ORDER,
            set_aside=None,
            orders=(None,) * seats,
            racers=(),
            piles=((),) * seats,
            discards=DECK,
            turn=0,
            choices=(None,) * seats,
            table=((),) * seats,
            stage=None,
            value=0,
            movers=(),
            moved=(),
            recovered=(),
            rounds=0,
            resigned=(),
            notes=(),
            result=None,
        )

    @staticmethod
    def _lanes(text: str, seats: int) -> tuple[int, ...]:
        letters = re.sub(r"[\s,]", "", text.lower())
        if not letters:
            return tuple(range(seats))
        if len(letters) != seats or len(set(letters)) != seats or set(letters) - set(LANES):
            raise SetupError(
                f"option 'lanes': {text!r} must give {seats} different lanes of a, b, c, d, "
                "one per seat in seat order"
            )
        return tuple(LANES.index(c) for c in letters)

    def seat_count(self, state: MartianopolisState) -> int:
        return state.seats

    def seat_name(self, state: MartianopolisState, seat: int) -> str:
        return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"

    # --- what the game waits for ---------------------------------------------------------

    def pending(self, state: MartianopolisState) -> Pending:
        if state.result is not None:
            return Finished(state.result)
        if state.phase == SETASIDE:
            return Shuffle(len(FACE_CARDS))
        if state.phase == SHUFFLE:
            return Shuffle(len(self._gatherable(state)))
        if state.phase == ORDER:
            return Await(_waiting(state), "order")
        if state.phase == CHOOSE:
            return Await(_waiting(state), "card")
        return Await((state.movers[0],), "move")

    @staticmethod
    def _gatherable(state: MartianopolisState) -> tuple[int, ...]:
        """Every card not on the table, in a fixed order a shuffle permutes."""
        return tuple(sorted(card for pile in state.piles for card in pile) + sorted(state.discards))

    # --- events ---------------------------------------------------------------------------

    def apply(self, state: MartianopolisState, event: Event) -> MartianopolisState:
        if state.result is not None:
            raise IllegalAction("the game is over")
        if isinstance(event, Resigned):
            return self._resigned(state, event.seat)
        if isinstance(event, Shuffled):
            return self._shuffled(state, event.order)
        if isinstance(event, Played):
            return self._played(state, event.seat, event.action)
        raise IllegalAction(f"{self.title} has no use for {type(event).__name__}")

    def _shuffled(self, state: MartianopolisState, order: tuple[int, ...]) -> MartianopolisState:
        if state.phase == SETASIDE:
            self._check_permutation(order, len(FACE_CARDS))
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
        cards = self._gatherable(state)
        self._check_permutation(order, len(cards))
        active = state.active
        piles: list[list[int]] = [[] for _ in range(state.seats)]
        for k, i in enumerate(order):
            piles[active[k % len(active)]].append(cards[i])
        dealt = replace(state, piles=tuple(tuple(p) for p in piles), discards=())
        if state.stage is None:
            sizes = sorted({len(dealt.piles[s]) for s in active})
            each = " or ".join(str(n) for n in sizes)
            return replace(
                dealt,
                phase=CHOOSE,
                notes=(*state.notes, f"The deck is shuffled and dealt: {each} cards each."),
            )
        note = f"A pile ran out in a tie-break: {len(cards)} cards are reshuffled and dealt."
        return self._settle(replace(dealt, notes=(*state.notes, note)))

    @staticmethod
    def _check_permutation(order: tuple[int, ...], n: int) -> None:
        if sorted(order) != list(range(n)):
            raise IllegalAction(f"a shuffle must order 0..{n - 1} exactly once each")

    def _played(self, state: MartianopolisState, seat: int, action: str) -> MartianopolisState:
        if seat not in state.active:
            raise IllegalAction(f"{self.seat_name(state, seat)} is not in the race")
        action = self.parse_action(state, seat, action)
        if state.phase == ORDER:
            return self._ordered(state, seat, action)
        if state.phase == CHOOSE:
            return self._chosen(state, seat, action)
        if state.phase == MOVE:
            return self._moved(state, seat, action)
        raise IllegalAction("no player acts now: the game waits for the server to shuffle")

    def _ordered(self, state: MartianopolisState, seat: int, action: str) -> MartianopolisState:
        who = self.seat_name(state, seat)
        if state.orders[seat] is not None:
            raise IllegalAction(f"{who} has already lined up the racers")
        sizes = parse_order(action) if action.startswith("order") else None
        if sizes is None:
            raise IllegalAction(f"{who} must first line up the racers: write {_ORDER_FORM}")
        orders = tuple(sizes if s == seat else o for s, o in enumerate(state.orders))
        state = replace(state, orders=orders)
        return self._place_grid(state) if not _waiting(state) else state

    def _place_grid(self, state: MartianopolisState) -> MartianopolisState:
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
            notes.append(f"{self.seat_name(state, seat)} lines up {squares}.")
        state = replace(
            state, racers=tuple(racers), rounds=state.rounds + 1, notes=(*state.notes, *notes)
        )
        return self._start_turn(state)

    def _start_turn(self, state: MartianopolisState) -> MartianopolisState:
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

    def _chosen(self, state: MartianopolisState, seat: int, action: str) -> MartianopolisState:
        who = self.seat_name(state, seat)
        if state.choices[seat] is not None:
            raise IllegalAction(f"{who} has already played this turn's card")
        if action not in (UP, DOWN):
            raise IllegalAction(f"{who} must first play the card: write {_CARD_FORM}")
        choices = tuple(action if s == seat else c for s, c in enumerate(state.choices))
        state = replace(state, choices=choices)
        return self._reveal(state) if not _waiting(state) else state

    def _reveal(self, state: MartianopolisState) -> MartianopolisState:
        """Everyone has chosen: cards go to the table, the face-up ones are turned over."""
        piles = list(state.piles)
        table = list(state.table)
        for seat in state.active:
            table[seat] = (piles[seat][0],)
            piles[seat] = piles[seat][1:]
        ups = [s for s in state.active if state.choices[s] == UP]
        downs = [s for s in state.active if state.choices[s] == DOWN]
        shown = ", ".join(f"{self.seat_name(state, s)} {card_name(table[s][0])}" for s in ups)
        hidden = ", ".join(self.seat_name(state, s) for s in downs)
        note = f"Turn {state.turn}: face-up {shown or 'nobody'}; face-down {hidden or 'nobody'}."
        return self._settle(
            replace(
                state,
                piles=tuple(piles),
                table=tuple(table),
                rounds=state.rounds + 1,
                stage=UP,
                notes=(note,),
            )
        )

    def _settle(self, state: MartianopolisState) -> MartianopolisState:
        """Break the current group's ties, then set its order and movement value."""
        group = state.stage
        members = [s for s in state.active if state.choices[s] == group and state.table[s]]
        piles = list(state.piles)
        table = list(state.table)
        discards = list(state.discards)
        notes = list(state.notes)
        while True:
            counts = Counter(rank(table[s][-1]) for s in members)
            tied = [s for s in members if counts[rank(table[s][-1])] > 1]
            if not tied:
                break
            if any(not piles[s] for s in tied):
                return replace(
                    state,
                    phase=SHUFFLE,
                    piles=tuple(piles),
                    table=tuple(table),
                    discards=tuple(discards),
                    notes=tuple(notes),
                )
            draws = []
            for seat in tied:
                discards.append(table[seat][-1])
                table[seat] = (*table[seat], piles[seat][0])
                piles[seat] = piles[seat][1:]
                draws.append(f"{self.seat_name(state, seat)} {card_name(table[seat][-1])}")
            notes.append(f"Tie-break, new cards face-up: {', '.join(draws)}.")
        state = replace(
            state,
            piles=tuple(piles),
            table=tuple(table),
            discards=tuple(discards),
            notes=tuple(notes),
        )
        if not members:
            return self._next_stage(state)
        order = tuple(sorted(members, key=lambda s: -rank(table[s][-1])))
        values = [value(table[s][-1]) for s in members]
        group_value = min(values) if group == UP else max(values)
        names = ", ".join(self.seat_name(state, s) for s in order)
        note = f"Face-{group} group moves in the order {names} with value {group_value}."
        state = replace(state, value=group_value, movers=order, notes=(*state.notes, note))
        return self._begin_slot(state)

    def _begin_slot(self, state: MartianopolisState) -> MartianopolisState:
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
                names = " and ".join(SIZE_LETTERS[s] for s in recovered)
                notes = (*notes, f"{self.seat_name(state, mover)} lays {names} flat again.")
            state = replace(
                state,
                racers=tuple(racers),
                moved=tuple(recovered),
                recovered=tuple(recovered),
                notes=notes,
            )
            if self._to_move(state):
                return replace(state, phase=MOVE)
            state = replace(state, movers=state.movers[1:])
        return self._next_stage(state)

    def _to_move(self, state: MartianopolisState) -> tuple[Racer, ...]:
        """The current mover's racers that still have to move this turn."""
        if not state.movers:
            return ()
        mover = state.movers[0]
        return tuple(
            r
            for r in state.racers
            if r.seat == mover and not r.removed and r.size not in state.moved
        )

    def _next_stage(self, state: MartianopolisState) -> MartianopolisState:
        if state.stage == UP:
            downs = [s for s in state.active if state.choices[s] == DOWN]
            notes = state.notes
            if downs:
                shown = ", ".join(
                    f"{self.seat_name(state, s)} {card_name(state.table[s][-1])}" for s in downs
                )
                notes = (*notes, f"Face-down cards turned over: {shown}.")
            return self._settle(
                replace(state, stage=DOWN, movers=(), moved=(), recovered=(), notes=notes)
            )
        discards = state.discards + tuple(cards[-1] for cards in state.table if cards)
        state = replace(state, discards=discards, table=((),) * state.seats)
        if state.max_turns and state.turn >= state.max_turns:
            return self._stopped(state)
        return self._start_turn(state)

    # --- movement --------------------------------------------------------------------------

    def _occupied(self, state: MartianopolisState, moving: Racer) -> frozenset[tuple[int, int]]:
        return frozenset((r.lane, column(r.progress)) for r in on_track(state) if r != moving)

    def _paths(self, state: MartianopolisState, racer: Racer) -> Paths:
        points = movement_points(state.value, racer.size)
        return Paths(self._occupied(state, racer), racer, points, state.finish)

    def _moved(self, state: MartianopolisState, seat: int, action: str) -> MartianopolisState:
        who = self.seat_name(state, seat)
        if seat != state.movers[0]:
            raise IllegalAction(
                f"it is {self.seat_name(state, state.movers[0])}'s move, not {who}'s"
            )
        try:
            clauses = parse_clauses(action)
        except InvalidAction as e:
            raise IllegalAction(f"{who} must move racers now: {e}") from e
        for size, path in clauses:
            state = self._move_racer(state, seat, size, path)
            if state.result is not None:
                return state
        if self._to_move(state):
            return state
        return self._begin_slot(replace(state, movers=state.movers[1:]))

    def _move_racer(
        self, state: MartianopolisState, seat: int, size: int, path: tuple[str, ...]
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
        paths = self._paths(state, racer)
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
        end = paths.terminal(lane, len(path), left)
        if end is None:
            raise IllegalAction(
                f"{name} has {left} of its {paths.points} points left on {here} and can still "
                f"step on: all points must be used ({self._hint(state, racer)})"
            )
        if end not in paths.allowed_ends():
            example = format_path(paths.path_to(min(paths.allowed_ends())))
            raise IllegalAction(
                f"{name} may not crash on {here}: a path using all {paths.points} points "
                f"exists, e.g. '{name}: {example}'"
            )
        progress = racer.progress + len(path)
        moved = replace(
            racer, lane=lane, progress=progress, standing=end[0] == "crash", removed=removed
        )
        racers = tuple(moved if r == racer else r for r in state.racers)
        note = self._move_note(state, racer, moved, path)
        state = replace(
            state, racers=racers, moved=(*state.moved, size), notes=(*state.notes, note)
        )
        if removed and all(r.removed for r in state.racers if r.seat == seat):
            return self._won(state, seat)
        return state

    def _move_note(
        self, state: MartianopolisState, before: Racer, after: Racer, path: tuple[str, ...]
    ) -> str:
        who = self.seat_name(state, before.seat)
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

    def _hint(self, state: MartianopolisState, racer: Racer) -> str:
        paths = self._paths(state, racer)
        ends = sorted(paths.allowed_ends())
        shown = ", ".join(format_path(paths.path_to(e)) for e in ends[:4])
        more = f" and {len(ends) - 4} more" if len(ends) > 4 else ""
        return f"possible paths include {shown}{more}"

    # --- endings --------------------------------------------------------------------------

    def _won(self, state: MartianopolisState, winner: int) -> MartianopolisState:
        reason = (
            f"{self.seat_name(state, winner)} has all three racers off the track after "
            f"{state.laps} laps"
        )
        return replace(state, result=self._ranked(state, reason, winner))

    def _stopped(self, state: MartianopolisState) -> MartianopolisState:
        reason = f"the race was stopped after {state.max_turns} turns; ranked by distance"
        return replace(state, result=self._ranked(state, reason, None))

    def _ranked(self, state: MartianopolisState, reason: str, winner: int | None) -> Outcome:
        """Winner first, then seats still racing by distance, then resigned, last out first."""
        keys: list[tuple[int, int]] = []
        for seat in range(state.seats):
            if seat == winner:
                keys.append((0, 0))
            elif seat in state.resigned:
                keys.append((2, -state.resigned.index(seat)))
            else:
                keys.append((1, -distance(state, seat)))
        ranks = tuple(1 + sum(other < mine for other in keys) for mine in keys)
        scores = tuple(float(distance(state, s)) for s in range(state.seats))
        return Outcome(ranks, scores, reason)

    def _resigned(self, state: MartianopolisState, seat: int) -> MartianopolisState:
        who = self.seat_name(state, seat)
        if not 0 <= seat < state.seats:
            raise IllegalAction(f"there is no seat {seat} in this game")
        if seat in state.resigned:
            raise IllegalAction(f"{who} has already resigned")
        piles = tuple(() if s == seat else p for s, p in enumerate(state.piles))
        state = replace(
            state,
            resigned=(*state.resigned, seat),
            piles=piles,
            discards=state.discards + state.piles[seat],
            notes=(*state.notes, f"{who} resigns and leaves the race."),
        )
        if state.phase == CHOOSE:
            choices = tuple(None if s == seat else c for s, c in enumerate(state.choices))
            state = replace(state, choices=choices)
        if len(state.active) == 1:
            last = state.active[0]
            reason = f"{who} resigned; {self.seat_name(state, last)} is the last one racing"
            return replace(state, result=self._ranked(state, reason, last))
        if state.phase == ORDER:
            return self._place_grid(state) if not _waiting(state) else state
        if state.phase == CHOOSE:
            return self._reveal(state) if not _waiting(state) else state
        if state.phase == SHUFFLE and state.stage is not None:
            return self._settle(state)
        if state.phase == MOVE:
            if state.movers[0] == seat:
                return self._begin_slot(replace(state, movers=state.movers[1:]))
            return replace(state, movers=tuple(m for m in state.movers if m != seat))
        return state

    # --- actions ------------------------------------------------------------------------

    def legal(self, state: MartianopolisState, seat: int) -> tuple[str, ...]:
        """Every legal action; a move is one racer's, one entry per distinct end square."""
        # A racer's paths can number ~2^19, but its distinct ends (lane, steps, crashed or
        # finished) are at most 4 x 20, so each racer's entries come from the end sets of
        # Paths. A multi-racer action ("S: F3; L: I F7") is the same as these one-racer
        # actions in a row, so listing one-racer actions covers every outcome.
        if state.result is not None or seat not in state.active:
            return ()
        if state.phase == ORDER and seat in _waiting(state):
            return tuple(
                format_order(p)
                for p in ((3, 2, 1), (3, 1, 2), (2, 3, 1), (2, 1, 3), (1, 3, 2), (1, 2, 3))
            )
        if state.phase == CHOOSE and seat in _waiting(state):
            return (DOWN, UP)
        if state.phase == MOVE and state.movers[0] == seat:
            actions: list[str] = []
            for racer in self._to_move(state):
                paths = self._paths(state, racer)
                for end in sorted(paths.allowed_ends()):
                    actions.append(format_clauses(((racer.size, paths.path_to(end)),)))
            return tuple(actions)
        return ()

    def is_secret(self, state: MartianopolisState, event: Event) -> bool:
        """Whether the event must be hidden from the other seats (see the module's is_secret)."""
        return is_secret(state, event)

    def is_revealed(
        self, before: MartianopolisState, event: Event, now: MartianopolisState
    ) -> bool:
        """Round answers become public when the round completes; deals at the end."""
        return is_revealed(before, event, now)

    def bot_action(self, state: MartianopolisState, seat: int) -> str:
        """Fast racer in front; low cards face-down; move the racer that gets furthest."""
        if state.phase == ORDER:
            return format_order((1, 2, 3))
        if state.phase == CHOOSE and state.piles[seat]:
            # The face-down group moves by its highest card, so a low card gains there.
            return DOWN if value(state.piles[seat][0]) <= 6 else UP
        if state.phase == MOVE and state.movers and state.movers[0] == seat:
            best: tuple[tuple[int, int, int], str] | None = None
            for racer in sorted(self._to_move(state), key=lambda r: -r.progress):
                paths = self._paths(state, racer)
                for end in paths.allowed_ends():
                    score = (end[0] == "finish", end[0] != "crash", end[2])
                    text = format_clauses(((racer.size, paths.path_to(end)),))
                    if best is None or score > best[0]:
                        best = (score, text)
            if best is not None:
                return best[1]
        return super().bot_action(state, seat)

    def parse_action(self, state: MartianopolisState, seat: int, text: str) -> str:
        """Read an order, a card choice or racers' moves; clauses for racers lying flat drop."""
        if len(text) > 300:
            raise InvalidAction(f"that is {len(text)} characters long; {_ALL_FORMS}")
        lowered = " ".join(text.strip().lower().split())
        if _UP.fullmatch(lowered):
            return UP
        if _DOWN.fullmatch(lowered):
            return DOWN
        sizes = parse_order(lowered)
        if sizes is not None:
            return format_order(sizes)
        try:
            clauses = parse_clauses(text)
        except InvalidAction as e:
            if state.phase == ORDER:
                raise InvalidAction(f"cannot read {text.strip()!r}; write {_ORDER_FORM}") from e
            if state.phase == CHOOSE:
                raise InvalidAction(f"cannot read {text.strip()!r}; write {_CARD_FORM}") from e
            raise
        if state.phase == MOVE and state.recovered:
            # RULES §5.5: an order for a racer that only lies flat again is ignored.
            clauses = tuple((z, FLAT if z in state.recovered else p) for z, p in clauses)
            if all(z in state.recovered for z, _ in clauses):
                names = " and ".join(SIZE_LETTERS[z] for z, _ in clauses)
                raise IllegalAction(
                    f"{names} crashed last turn and only lies flat again this turn, which "
                    "happens by itself; give the moves of your other racers"
                )
        return format_clauses(clauses)

    def describe(self, state: MartianopolisState, action: str) -> str:
        waiting = _waiting(state) if state.phase in (ORDER, CHOOSE) else ()
        who = self.seat_name(state, waiting[0]) if len(waiting) == 1 else "A player"
        if action in (UP, DOWN):
            return f"{who} plays a card face-{action}"
        if action.startswith("order"):
            try:
                sizes = parse_order(action)
            except InvalidAction:
                sizes = None
            if sizes is None:
                return f"{who} plays {action}"
            names = ", ".join(SIZE_LETTERS[s] for s in sizes)
            return f"{who} lines up the racers {names} from the front"
        if state.phase != MOVE or not state.movers:
            return f"{who} plays {action}"
        mover = state.movers[0]
        try:
            after = self._moved(state, mover, action)
        except (InvalidAction, IllegalAction):
            return f"{self.seat_name(state, mover)} plays {action}"
        start = len(state.notes)
        prefix = f"{self.seat_name(state, mover)} moves "
        moves = [n.rstrip(".") for n in after.notes[start:] if n.startswith(prefix)]
        text = "; ".join(moves) if moves else f"{self.seat_name(state, mover)} plays {action}"
        flat = [SIZE_LETTERS[z] for z, p in parse_clauses(action) if p == FLAT]
        if flat:
            names = " and ".join(flat)
            text += f" ({names} only lies flat again after its crash, so its order is ignored)"
        if after.result is not None:
            text += f", and wins: {after.result.reason}"
        return text

    # --- views ---------------------------------------------------------------------------

    def view(self, state: MartianopolisState, seat: int | None) -> dict[str, Any]:
        """The track, the cards each viewer may see, whose choices are in; secrets removed."""
        over = state.result is not None
        pending = self.pending(state)
        racers = [self._racer_view(state, r) for r in state.racers]
        grid = {r["square"]: r for r in racers if r["square"] is not None}
        players = []
        for s in range(state.seats):
            mine = over or s == seat
            table = state.table[s]
            revealed = over or (
                state.phase != CHOOSE
                and state.choices[s] is not None
                and (state.choices[s] == UP or state.stage == DOWN)
            )
            choice_public = over or (state.phase != CHOOSE and state.choices[s] is not None)
            players.append(
                {
                    "seat": s,
                    "name": self.seat_name(state, s),
                    "colour": HEX[s],
                    "lane": LANES[state.lanes[s]],
                    "resigned": s in state.resigned,
                    "pile": len(state.piles[s]),
                    "distance": distance(state, s),
                    "order": (
                        " ".join(SIZE_LETTERS[z] for z in state.orders[s] or ())
                        if (mine or state.racers) and state.orders[s]
                        else None
                    ),
                    "choice": state.choices[s] if (mine or choice_public) else None,
                    "cards": [card_name(c) for c in table] if (mine or revealed) else [],
                    "face_down": bool(table) and not (mine or revealed),
                    "pile_cards": [card_name(c) for c in state.piles[s]] if over else None,
                }
            )
        own_card = None
        if seat is not None and 0 <= seat < state.seats and not over:
            if state.phase == CHOOSE and state.piles[seat] and seat in state.active:
                own_card = card_name(state.piles[seat][0])
            elif state.table[seat]:
                own_card = card_name(state.table[seat][-1])
        mover = state.movers[0] if state.phase == MOVE and state.movers and not over else None
        points = (
            {
                SIZE_LETTERS[r.size]: movement_points(state.value, r.size)
                for r in self._to_move(state)
            }
            if mover is not None
            else {}
        )
        return {
            "game": self.kind,
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
            "awaiting": list(pending.seats) if isinstance(pending, Await) else [],
            "awaiting_kind": pending.kind if isinstance(pending, Await) else None,
            "finished": over,
            "outcome": state.result.to_json() if state.result else None,
        }

    def _racer_view(self, state: MartianopolisState, racer: Racer) -> dict[str, Any]:
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

    # --- snapshots -----------------------------------------------------------------------

    def dump(self, state: MartianopolisState) -> dict[str, Any]:
        return {
            "seats": state.seats,
            "laps": state.laps,
            "max_turns": state.max_turns,
            "lanes": list(state.lanes),
            "phase": state.phase,
            "set_aside": state.set_aside,
            "orders": [list(o) if o is not None else None for o in state.orders],
            "racers": [
                [r.seat, r.size, r.lane, r.progress, r.standing, r.removed] for r in state.racers
            ],
            "piles": [list(p) for p in state.piles],
            "discards": list(state.discards),
            "turn": state.turn,
            "choices": list(state.choices),
            "table": [list(t) for t in state.table],
            "stage": state.stage,
            "value": state.value,
            "movers": list(state.movers),
            "moved": list(state.moved),
            "recovered": list(state.recovered),
            "rounds": state.rounds,
            "resigned": list(state.resigned),
            "notes": list(state.notes),
            "result": state.result.to_json() if state.result else None,
        }

    def load(self, data: Mapping[str, Any]) -> MartianopolisState:
        def ints(values: Any) -> tuple[int, ...]:
            return tuple(int(v) for v in values)

        result = data["result"]
        return MartianopolisState(
            seats=int(data["seats"]),
            laps=int(data["laps"]),
            max_turns=int(data["max_turns"]),
            lanes=ints(data["lanes"]),
            phase=str(data["phase"]),
            set_aside=None if data["set_aside"] is None else int(data["set_aside"]),
            orders=tuple(None if o is None else ints(o) for o in data["orders"]),
            racers=tuple(
                Racer(int(s), int(z), int(ln), int(p), bool(st), bool(rm))
                for s, z, ln, p, st, rm in data["racers"]
            ),
            piles=tuple(ints(p) for p in data["piles"]),
            discards=ints(data["discards"]),
            turn=int(data["turn"]),
            choices=tuple(None if c is None else str(c) for c in data["choices"]),
            table=tuple(ints(t) for t in data["table"]),
            stage=None if data["stage"] is None else str(data["stage"]),
            value=int(data["value"]),
            movers=ints(data["movers"]),
            moved=ints(data["moved"]),
            recovered=ints(data["recovered"]),
            rounds=int(data["rounds"]),
            resigned=ints(data["resigned"]),
            notes=tuple(str(n) for n in data["notes"]),
            result=Outcome.from_json(result) if result else None,
        )


RULES = Martianopolis500()
