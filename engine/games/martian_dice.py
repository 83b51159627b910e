"""Martian Dice for 2 to 8 players: push your luck abducting earthlings past tanks (RULES §4)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from math import factorial
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

DICE = 13
TARGET = 25
DUEL_DICE = 6
BONUS = 3

# Indices into the five-count tuples that hold what is set aside or rolled.
TANK, RAY, HUMAN, COW, CHICKEN = range(5)
EARTHLINGS = (HUMAN, COW, CHICKEN)
PICKABLE = (RAY, HUMAN, COW, CHICKEN)
LETTERS = ("T", "R", "H", "C", "K")
FACE_NAMES = ("tank", "ray", "human", "cow", "chicken")
SINGULAR = ("tank", "death ray", "human", "cow", "chicken")
PLURAL = ("tanks", "death rays", "humans", "cows", "chickens")
# RULES §4.1: 1 tank, 2-3 death ray, 4 human, 5 cow, 6 chicken.
FACE_OF_VALUE = {1: TANK, 2: RAY, 3: RAY, 4: HUMAN, 5: COW, 6: CHICKEN}
# Probability of each face on one die, in the order of the five-count tuples.
FACE_CHANCE = (1 / 6, 2 / 6, 1 / 6, 1 / 6, 1 / 6)

COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange", "Pink", "White")
ROLL, STOP = "roll", "stop"

Counts = tuple[int, int, int, int, int]
NOTHING: Counts = (0, 0, 0, 0, 0)


def counts_of(values: tuple[int, ...]) -> Counts:
    """Count the tanks, rays, humans, cows and chickens in a roll of d6 values."""
    counts = [0] * 5
    for value in values:
        counts[FACE_OF_VALUE[value]] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def turn_points(aside: Counts) -> int:
    """Score what is set aside: nothing if tanks outnumber rays, else earthlings plus bonus."""
    if aside[TANK] > aside[RAY]:
        return 0
    earthlings = sum(aside[e] for e in EARTHLINGS)
    return earthlings + (BONUS if all(aside[e] for e in EARTHLINGS) else 0)


def pickable(aside: Counts, rolled: Counts) -> tuple[int, ...]:
    """List the types a player may set aside from a roll: rays always, earthlings once a turn."""
    return tuple(face for face in PICKABLE if rolled[face] and (face == RAY or aside[face] == 0))


def add(counts: Counts, face: int, n: int) -> Counts:
    """Return the counts with n more of one face."""
    out = list(counts)
    out[face] += n
    return (out[0], out[1], out[2], out[3], out[4])


def count_words(n: int, face: int) -> str:
    """Say how many of a face: '4 humans', '1 chicken'."""
    return f"{n} {SINGULAR[face] if n == 1 else PLURAL[face]}"


def names_of(names: list[str]) -> str:
    """Join names for a sentence: 'Red', 'Red and Blue', 'Red, Blue and Green'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def dice_word(n: int) -> str:
    """Say how many dice: '1 die', '7 dice'."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def format_action(face: int, decision: str | None) -> str:
    """Write an action canonically: 'H roll', 'R stop', or the bare letter when no dice remain."""
    return LETTERS[face] if decision is None else f"{LETTERS[face]} {decision}"


@dataclass(frozen=True)
class LastTurn:
    """How a finished turn went, for the next mail: rolls, picks, what was aside, points."""

    seat: int
    rolls: tuple[tuple[int, ...], ...]
    picks: tuple[str, ...]
    aside: Counts
    points: int
    ending: str  # "stopped", "no pick", "all dice aside" or "resigned"


@dataclass(frozen=True)
class DiceState:
    """The scores, the round, and the turn in progress: what is aside and what was rolled."""

    seats: int
    duel_retie: str
    first: int | None  # the starting seat; None until the chance event that picks it
    to_move: int | None
    scores: tuple[int, ...]
    resigned: tuple[int, ...]  # in the order the seats resigned
    round: int
    played: tuple[int, ...]  # seats that have had their turn in this round, in order
    end_triggered: bool  # someone reached TARGET: this round is the last
    aside: Counts
    rolled: tuple[int, ...] | None  # d6 values of the roll awaiting a pick (tanks included)
    rolls: tuple[tuple[int, ...], ...]  # every roll of the turn in progress
    picks: tuple[str, ...]  # every action of the turn in progress
    dueling: bool
    duels: tuple[tuple[tuple[int, int], ...], ...]  # duel rounds of (seat, rays rolled)
    result: Outcome | None
    last: LastTurn | None

    @property
    def available(self) -> int:
        """Count the dice not set aside."""
        return DICE - sum(self.aside)

    def active(self) -> tuple[int, ...]:
        """List the seats still playing, in play order from the starting seat."""
        first = self.first or 0
        order = ((first + i) % self.seats for i in range(self.seats))
        return tuple(s for s in order if s not in self.resigned)


def leaders(state: DiceState) -> tuple[int, ...]:
    """List the active seats sharing the highest score, in play order."""
    active = state.active()
    best = max(state.scores[s] for s in active)
    return tuple(s for s in active if state.scores[s] == best)


def rank_key(state: DiceState, seat: int) -> tuple[int, ...]:
    """Order seats: active before resigned, then score, then each duel round's rays."""
    if seat in state.resigned:
        return (0, state.resigned.index(seat))
    # A seat left out of a duel round has fewer rays than those who went on: -1 says so.
    rays = tuple(dict(rnd).get(seat, -1) for rnd in state.duels)
    return (1, state.scores[seat], *rays)


def ranks_of(state: DiceState) -> tuple[int, ...]:
    """Rank every seat by rank_key; equal keys share a place (1, 2, 2, 4)."""
    keys = [rank_key(state, s) for s in range(state.seats)]
    return tuple(1 + sum(other > mine for other in keys) for mine in keys)


def next_duelist(state: DiceState) -> int | None:
    """Name the seat that rolls next in the current duel round, or None if no duel is on."""
    if not state.dueling or state.result is not None:
        return None
    seats = leaders(state)
    for rnd in state.duels:
        rolled = {s: r for s, r in rnd if s in seats}
        missing = [s for s in seats if s not in rolled]
        if missing:
            return missing[0]
        best = max(rolled.values())
        seats = tuple(s for s in seats if rolled[s] == best)
    return None


# --- the house bot: one-step lookahead ------------------------------------------------


@lru_cache(maxsize=4096)
def _outcomes(n: int) -> tuple[tuple[Counts, float], ...]:
    """List every roll of n dice as face counts, with its probability."""
    found: list[tuple[Counts, float]] = []
    for t in range(n + 1):
        for r in range(n - t + 1):
            for h in range(n - t - r + 1):
                for c in range(n - t - r - h + 1):
                    counts: Counts = (t, r, h, c, n - t - r - h - c)
                    ways = factorial(n)
                    chance = 1.0
                    for k, p in zip(counts, FACE_CHANCE, strict=True):
                        ways //= factorial(k)
                        chance *= p**k
                    found.append((counts, ways * chance))
    return tuple(found)


def _best_stop(aside: Counts, rolled: Counts) -> int:
    """Score the best pick from a roll followed by stopping (tanks already aside)."""
    picks = pickable(aside, rolled)
    if not picks:
        return turn_points(aside)
    return max(turn_points(add(aside, f, rolled[f])) for f in picks)


@lru_cache(maxsize=65536)
def roll_value(aside: Counts, avail: int) -> float:
    """Expect the points of rolling once more, taking the best type and then stopping."""
    total = 0.0
    for rolled, chance in _outcomes(avail):
        total += chance * _best_stop(add(aside, TANK, rolled[TANK]), rolled)
    return total


def bot_choice(aside: Counts, rolled: Counts, score: int, need: int | None) -> tuple[int, bool]:
    """Choose the type to take and whether to roll on, looking one roll ahead.

    Each pick is valued at the better of stopping now and the expected points of exactly
    one more roll (best pick, then stop); the bot rolls on when that roll is worth more
    than the points in hand. Two overrides come from the game around the turn: in the
    final round a bot whose points in hand are short of `need` (what it takes to lead)
    keeps rolling, since stopping loses anyway; otherwise a bot that would reach TARGET
    by stopping stops.
    """

    def value(face: int) -> tuple[float, int]:
        after = add(aside, face, rolled[face])
        left = DICE - sum(after)
        stop = turn_points(after)
        ahead = roll_value(after, left) if left else 0.0
        return (max(stop, ahead), face == RAY)

    face = max(pickable(aside, rolled), key=value)
    after = add(aside, face, rolled[face])
    left = DICE - sum(after)
    points = turn_points(after)
    if not left:
        return face, False
    if need is not None and points < need:
        return face, True
    if score + points >= TARGET:
        return face, False
    return face, roll_value(after, left) > points


# --- notation ---------------------------------------------------------------------------

_TYPE_WORDS = {
    "r": RAY,
    "ray": RAY,
    "rays": RAY,
    "deathray": RAY,
    "deathrays": RAY,
    "h": HUMAN,
    "human": HUMAN,
    "humans": HUMAN,
    "c": COW,
    "cow": COW,
    "cows": COW,
    "k": CHICKEN,
    "chicken": CHICKEN,
    "chickens": CHICKEN,
}
_TANK_WORDS = {"t", "tank", "tanks"}
_DECISION_WORDS = {
    "roll": ROLL,
    "rolls": ROLL,
    "reroll": ROLL,
    "again": ROLL,
    "continue": ROLL,
    "stop": STOP,
    "stops": STOP,
    "bank": STOP,
    "score": STOP,
}
_FILLER = {
    "take",
    "takes",
    "pick",
    "picks",
    "choose",
    "keep",
    "set",
    "aside",
    "all",
    "the",
    "my",
    "i",
    "and",
    "then",
    "a",
    "an",
    "of",
    "death",
    "here",
    "please",
}
_SEPARATORS = re.compile(r"[\s,.;:!&+/\-–—]+")
_FORM = (
    "write the type you take and whether you roll again, like 'H roll' or 'R stop' "
    "(R death rays, H humans, C cows, K chickens)"
)


def read_action(text: str) -> tuple[int, str | None]:
    """Read the type and decision ('roll', 'stop' or None) in a player's words."""
    shown = text.strip()
    if len(text) > 200:
        raise InvalidAction(f"that is {len(text)} characters long; {_FORM}")
    words = [w for w in _SEPARATORS.split(shown.lower()) if w]
    faces: set[int] = set()
    decisions: set[str] = set()
    for word in words:
        if word in _TYPE_WORDS:
            faces.add(_TYPE_WORDS[word])
        elif word in _DECISION_WORDS:
            decisions.add(_DECISION_WORDS[word])
        elif word in _TANK_WORDS:
            raise InvalidAction(
                f"cannot read {shown!r}: tanks are set aside automatically, never picked; {_FORM}"
            )
        elif word not in _FILLER and not word.isdecimal():
            raise InvalidAction(f"cannot read {shown!r}: {word!r} is not part of a pick; {_FORM}")
    if len(faces) != 1:
        problem = "it names no type" if not faces else "it names more than one type"
        raise InvalidAction(f"cannot read {shown!r}: {problem}; {_FORM}")
    if len(decisions) > 1:
        raise InvalidAction(f"cannot read {shown!r}: it says both roll and stop; {_FORM}")
    return faces.pop(), decisions.pop() if decisions else None


class MartianDice(Rules[DiceState]):
    """Martian Dice for 2 to 8 players, with the death-ray duel's re-tie rule as an option."""

    kind = "martian-dice"
    title = "Martian Dice"
    version = 1
    seats = (2, 3, 4, 5, 6, 7, 8)
    options = (
        Option(
            "duel_retie",
            "repeat",
            "a tied death-ray duel is rolled again (repeat) or the tie is shared (shared)",
            kind=str,
            choices=("repeat", "shared"),
        ),
        Option(
            "first_player",
            None,
            "seat that starts (0 is the first seat); empty: chosen by a roll",
            minimum=0,
            maximum=7,
        ),
    )
    presets = {
        "standard": {},
        "shared-duel-ties": {"duel_retie": "shared"},
    }

    def start(self, seats: int, options: Mapping[str, object] | None = None) -> DiceState:
        """Every score at zero; the starting seat is a chance event unless given."""
        self.check_seats(seats)
        opts = self.resolve_options(options)
        first = opts["first_player"]
        if first is not None and (not isinstance(first, int) or first >= seats):
            raise SetupError(
                f"option 'first_player': {first} is not a seat of a {seats}-player game "
                f"(0 to {seats - 1})"
            )
        return DiceState(
            seats=seats,
            duel_retie=str(opts["duel_retie"]),
            first=first,
            to_move=first,
            scores=(0,) * seats,
            resigned=(),
            round=1 if first is not None else 0,
            played=(),
            end_triggered=False,
            aside=NOTHING,
            rolled=None,
            rolls=(),
            picks=(),
            dueling=False,
            duels=(),
            result=None,
            last=None,
        )

    def seat_count(self, state: DiceState) -> int:
        return state.seats

    def seat_name(self, state: DiceState, seat: int) -> str:
        return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"

    def pending(self, state: DiceState) -> Pending:
        if state.result is not None:
            return Finished(state.result)
        if state.first is None:
            return Roll(1, sides=state.seats)  # face n: seat n - 1 starts
        if state.dueling:
            return Roll(DUEL_DICE)
        if state.rolled is None:
            return Roll(state.available)
        assert state.to_move is not None
        return Await((state.to_move,), "pick")

    # --- events -------------------------------------------------------------------------

    def apply(self, state: DiceState, event: Event) -> DiceState:
        if state.result is not None:
            raise IllegalAction("the game is over")
        if isinstance(event, Resigned):
            return self._resigned(state, event.seat)
        if isinstance(event, Rolled):
            return self._rolled(state, event.values)
        if isinstance(event, Played):
            return self._played(state, event.seat, event.action)
        raise IllegalAction(f"Martian Dice has no use for {type(event).__name__}")

    def _rolled(self, state: DiceState, values: tuple[int, ...]) -> DiceState:
        pending = self.pending(state)
        if not isinstance(pending, Roll):
            raise IllegalAction("no roll is due: a pick is awaited")
        if len(values) != pending.count or not all(1 <= v <= pending.sides for v in values):
            raise IllegalAction(
                f"a roll of {pending.count} dice of {pending.sides} sides is due, "
                f"not {list(values)}"
            )
        if state.first is None:
            first = values[0] - 1
            started = replace(state, first=first, round=1)
            return replace(started, to_move=started.active()[0])
        if state.dueling:
            return self._duel_rolled(state, values)
        seat = state.to_move
        assert seat is not None
        rolled = counts_of(values)
        aside = add(state.aside, TANK, rolled[TANK])
        state = replace(state, aside=aside, rolled=values, rolls=(*state.rolls, values))
        if not pickable(aside, rolled):
            return self._end_turn(state, "no pick")
        return state

    def _played(self, state: DiceState, seat: int, action: str) -> DiceState:
        if state.to_move != seat or state.dueling:
            raise IllegalAction(f"it is not {self.seat_name(state, seat)}'s turn to pick")
        if state.rolled is None:
            raise IllegalAction("no pick is due: the dice must be rolled first")
        canonical = self.parse_action(state, seat, action)
        face, decision = read_action(canonical)
        rolled = counts_of(state.rolled)
        allowed = pickable(state.aside, rolled)
        if face not in allowed:
            if not rolled[face]:
                why = f"no {SINGULAR[face]} was rolled"
            else:
                why = f"{PLURAL[face]} were already taken this turn"
            raise IllegalAction(
                f"{canonical!r} is not allowed: {why}; legal now: "
                + ", ".join(self.legal(state, seat))
            )
        aside = add(state.aside, face, rolled[face])
        state = replace(state, aside=aside, rolled=None, picks=(*state.picks, canonical))
        if state.available == 0:
            return self._end_turn(state, "all dice aside")
        if decision == STOP:
            return self._end_turn(state, "stopped")
        return state

    def _end_turn(self, state: DiceState, ending: str) -> DiceState:
        seat = state.to_move
        assert seat is not None
        points = 0 if ending == "resigned" else turn_points(state.aside)
        scores = list(state.scores)
        scores[seat] += points
        last = LastTurn(seat, state.rolls, state.picks, state.aside, points, ending)
        state = replace(
            state,
            scores=tuple(scores),
            end_triggered=state.end_triggered or scores[seat] >= TARGET,
            played=(*state.played, seat),
            aside=NOTHING,
            rolled=None,
            rolls=(),
            picks=(),
            last=last,
        )
        return self._advance(state)

    def _advance(self, state: DiceState) -> DiceState:
        """Pass the dice on: next seat of the round, a new round, or the end of the game."""
        active = state.active()
        if len(active) == 1:
            return self._finish(state)
        waiting = [s for s in active if s not in state.played]
        if waiting:
            return replace(state, to_move=waiting[0])
        if state.end_triggered:
            return self._finish(state)
        return replace(state, round=state.round + 1, played=(), to_move=active[0])

    def _finish(self, state: DiceState) -> DiceState:
        """End the game, or start the death-ray duel if the lead is shared."""
        state = replace(state, to_move=None, aside=NOTHING, rolled=None, rolls=(), picks=())
        if len(leaders(state)) > 1:
            return self._settle_duel(replace(state, dueling=True))
        return replace(state, result=self._outcome(state))

    def _duel_rolled(self, state: DiceState, values: tuple[int, ...]) -> DiceState:
        seat = next_duelist(state)
        assert seat is not None
        rays = counts_of(values)[RAY]
        rounds = list(state.duels)
        rounds[-1] = (*rounds[-1], (seat, rays))
        return self._settle_duel(replace(state, duels=tuple(rounds)))

    def _settle_duel(self, state: DiceState) -> DiceState:
        """Decide the duel if its rounds allow it, else wait for the next duel roll."""
        seats = leaders(state)
        for i, rnd in enumerate(state.duels):
            if len(seats) == 1:
                return self._decided(state, state.duels[:i])
            rolled = {s: r for s, r in rnd if s in seats}
            if any(s not in rolled for s in seats):
                return replace(state, duels=state.duels[: i + 1])
            best = max(rolled.values())
            seats = tuple(s for s in seats if rolled[s] == best)
            if len(seats) > 1 and state.duel_retie == "shared":
                return self._decided(state, state.duels[: i + 1])
        if len(seats) > 1:
            return replace(state, duels=(*state.duels, ()))
        return self._decided(state, state.duels)

    def _decided(
        self, state: DiceState, duels: tuple[tuple[tuple[int, int], ...], ...]
    ) -> DiceState:
        state = replace(state, duels=duels)
        return replace(state, result=self._outcome(state))

    def _resigned(self, state: DiceState, seat: int) -> DiceState:
        if not 0 <= seat < state.seats:
            raise IllegalAction(f"there is no seat {seat} in this game")
        if seat in state.resigned:
            raise IllegalAction(f"{self.seat_name(state, seat)} has already resigned")
        turn_ends = state.to_move == seat and state.first is not None and not state.dueling
        if turn_ends:
            # The abandoned turn scores nothing, then play goes on as after any turn.
            return self._end_turn(replace(state, resigned=(*state.resigned, seat)), "resigned")
        state = replace(state, resigned=(*state.resigned, seat))
        if len(state.active()) == 1:
            return self._finish(state)
        if state.dueling:
            return self._settle_duel(state)
        return state

    def _outcome(self, state: DiceState) -> Outcome:
        ranks = ranks_of(state)
        winners = [s for s in range(state.seats) if ranks[s] == 1]
        names = names_of([self.seat_name(state, s) for s in winners])
        if len(state.active()) == 1:
            reason = f"{names} wins: every other player resigned"
        elif not state.duels:
            reason = f"{names} wins with {state.scores[winners[0]]} points"
        else:
            tied = leaders(state)
            points = state.scores[tied[0]]
            duel = "; ".join(
                ", ".join(f"{self.seat_name(state, s)} {r}" for s, r in rnd) for rnd in state.duels
            )
            tied_names = names_of([self.seat_name(state, s) for s in tied])
            if len(winners) > 1:
                reason = (
                    f"{tied_names} tie with {points} points; the death-ray duel was tied "
                    f"({duel} rays), so {names} share first place"
                )
            else:
                reason = (
                    f"{tied_names} tie with {points} points; {names} wins the death-ray "
                    f"duel ({duel} rays)"
                )
        return Outcome(ranks, tuple(state.scores), reason)

    # --- actions --------------------------------------------------------------------------

    def _remaining_after(self, state: DiceState, face: int) -> int | None:
        """Count the dice left after taking that type from the roll awaiting a pick, if any."""
        if state.rolled is None:
            return None
        taken = counts_of(state.rolled)[face]
        return state.available - taken if taken else None

    def legal(self, state: DiceState, seat: int) -> tuple[str, ...]:
        """Each allowed pick with 'roll' and 'stop', or bare when it takes the last dice.

        A pick that sets aside the last dice ends the turn whatever the player says, so
        'roll' and 'stop' are one outcome there, written as the bare letter (RULES §4.4: a
        decision is given "when dice remain"). Everywhere else rolling and stopping are
        distinct, even when no further roll can change the score: the player still chooses.
        """
        pending = self.pending(state)
        if not isinstance(pending, Await) or seat not in pending.seats or state.rolled is None:
            return ()
        actions: list[str] = []
        for face in pickable(state.aside, counts_of(state.rolled)):
            if self._remaining_after(state, face) == 0:
                actions.append(format_action(face, None))
            else:
                actions += [format_action(face, ROLL), format_action(face, STOP)]
        return tuple(actions)

    def parse_action(self, state: DiceState, seat: int, text: str) -> str:
        """Read a pick in letters or words; the decision is dropped when no dice would remain."""
        face, decision = read_action(text)
        left = self._remaining_after(state, face)
        if left == 0:
            return format_action(face, None)
        if decision is None and left is not None:
            raise InvalidAction(
                f"cannot read {text.strip()!r}: say whether you roll the {dice_word(left)} "
                f"left or stop, like '{format_action(face, ROLL)}' or "
                f"'{format_action(face, STOP)}'"
            )
        return format_action(face, decision)

    def same_turn(self, before: DiceState, after: DiceState) -> bool:
        """The same seat picking again with the picks of its turn so far kept."""
        return (
            before.to_move == after.to_move
            and before.round == after.round
            and len(after.picks) > len(before.picks)
            and after.picks[: len(before.picks)] == before.picks
        )

    def bot_action(self, state: DiceState, seat: int) -> str:
        """Look one roll ahead; see bot_choice."""
        if state.rolled is None or state.to_move != seat or self.legal(state, seat) == ():
            return super().bot_action(state, seat)
        score = state.scores[seat]
        need = None
        if state.end_triggered:
            others = [state.scores[s] for s in state.active() if s != seat]
            need = max(others) - score + 1 if others else None
        face, again = bot_choice(state.aside, counts_of(state.rolled), score, need)
        if self._remaining_after(state, face) == 0:
            return format_action(face, None)
        return format_action(face, ROLL if again else STOP)

    def describe(self, state: DiceState, action: str) -> str:
        seat = state.to_move if state.to_move is not None else 0
        who = self.seat_name(state, seat)
        try:
            face, decision = read_action(action)
        except InvalidAction:
            return f"{who} plays {action}"
        left = self._remaining_after(state, face)
        if state.rolled is None or left is None or (left and decision is None):
            return f"{who} plays {action}"
        taken = counts_of(state.rolled)[face]
        aside = add(state.aside, face, taken)
        takes = f"{who} takes the {count_words(taken, face)}"
        if left and decision == ROLL:
            return f"{takes} and rolls the {left} remaining {'die' if left == 1 else 'dice'}"
        score = self._score_sentence(aside)
        if not left:
            return f"{takes}, the last dice, {score}"
        return f"{takes} and stops, {score}"

    @staticmethod
    def _score_sentence(aside: Counts) -> str:
        if aside[TANK] > aside[RAY]:
            tanks, rays = count_words(aside[TANK], TANK), count_words(aside[RAY], RAY)
            return f"scoring nothing: {tanks} beat {rays}"
        points = turn_points(aside)
        bonus = (
            " with the bonus for all three earthlings"
            if points > sum(aside[e] for e in EARTHLINGS)
            else ""
        )
        return f"scoring {points} {'point' if points == 1 else 'points'}{bonus}"

    # --- pictures -------------------------------------------------------------------------

    def view(self, state: DiceState, seat: int | None) -> dict[str, Any]:
        pending = self.pending(state)
        rolled = counts_of(state.rolled) if state.rolled is not None else None
        # The 13 dice: set aside by type, then the roll awaiting a pick, then the unrolled.
        dice: list[dict[str, Any]] = []
        for face in range(5):
            dice += [{"face": FACE_NAMES[face], "where": "aside"} for _ in range(state.aside[face])]
        if state.rolled is not None and rolled is not None:
            for value in state.rolled:
                if FACE_OF_VALUE[value] != TANK:
                    dice.append({"face": FACE_NAMES[FACE_OF_VALUE[value]], "where": "rolled"})
        while len(dice) < DICE:
            dice.append({"face": None, "where": "cup"})
        in_turn = state.first is not None and not state.dueling and state.result is None
        return {
            "game": self.kind,
            "players": [self.seat_name(state, s) for s in range(state.seats)],
            "viewer": seat,
            "target": TARGET,
            "first_player": state.first,
            "to_move": state.to_move if in_turn else None,
            "round": state.round,
            "final_round": state.end_triggered,
            "played_this_round": list(state.played),
            "played_final_round": list(state.played) if state.end_triggered else [],
            "scores": list(state.scores),
            "resigned": list(state.resigned),
            "rolled": (
                [FACE_NAMES[FACE_OF_VALUE[v]] for v in state.rolled]
                if state.rolled is not None
                else None
            ),
            "rolled_counts": self._named(rolled) if rolled is not None else None,
            "aside": self._named(state.aside),
            "available": state.available if in_turn else 0,
            "turn_points": turn_points(state.aside),
            "picks": list(state.picks),
            "dice": dice,
            "legal": list(self.legal(state, state.to_move)) if state.to_move is not None else [],
            "duel": self._duel_view(state),
            "last": self._last_view(state),
            "awaiting": list(pending.seats) if isinstance(pending, Await) else [],
            "finished": state.result is not None,
            "outcome": state.result.to_json() if state.result else None,
        }

    @staticmethod
    def _named(counts: Counts) -> dict[str, int]:
        return {FACE_NAMES[f]: counts[f] for f in range(5)}

    def _duel_view(self, state: DiceState) -> dict[str, Any] | None:
        if not state.dueling:
            return None
        return {
            "seats": list(leaders(state)),
            "rounds": [[{"seat": s, "rays": r} for s, r in rnd] for rnd in state.duels],
            "next": next_duelist(state),
        }

    def _last_view(self, state: DiceState) -> dict[str, Any] | None:
        last = state.last
        if last is None:
            return None
        return {
            "seat": last.seat,
            "name": self.seat_name(state, last.seat),
            "rolls": [[FACE_NAMES[FACE_OF_VALUE[v]] for v in roll] for roll in last.rolls],
            "picks": list(last.picks),
            "aside": self._named(last.aside),
            "points": last.points,
            "ending": last.ending,
        }

    # --- snapshots ------------------------------------------------------------------------

    def dump(self, state: DiceState) -> dict[str, Any]:
        last = state.last
        return {
            "seats": state.seats,
            "duel_retie": state.duel_retie,
            "first": state.first,
            "to_move": state.to_move,
            "scores": list(state.scores),
            "resigned": list(state.resigned),
            "round": state.round,
            "played": list(state.played),
            "end_triggered": state.end_triggered,
            "aside": list(state.aside),
            "rolled": list(state.rolled) if state.rolled is not None else None,
            "rolls": [list(r) for r in state.rolls],
            "picks": list(state.picks),
            "dueling": state.dueling,
            "duels": [[[s, r] for s, r in rnd] for rnd in state.duels],
            "result": state.result.to_json() if state.result else None,
            "last": None
            if last is None
            else {
                "seat": last.seat,
                "rolls": [list(r) for r in last.rolls],
                "picks": list(last.picks),
                "aside": list(last.aside),
                "points": last.points,
                "ending": last.ending,
            },
        }

    def load(self, data: Mapping[str, Any]) -> DiceState:
        last = data["last"]
        rolled = data["rolled"]
        return DiceState(
            seats=int(data["seats"]),
            duel_retie=str(data["duel_retie"]),
            first=None if data["first"] is None else int(data["first"]),
            to_move=None if data["to_move"] is None else int(data["to_move"]),
            scores=tuple(int(s) for s in data["scores"]),
            resigned=tuple(int(s) for s in data["resigned"]),
            round=int(data["round"]),
            played=tuple(int(s) for s in data["played"]),
            end_triggered=bool(data["end_triggered"]),
            aside=_counts(data["aside"]),
            rolled=tuple(int(v) for v in rolled) if rolled is not None else None,
            rolls=tuple(tuple(int(v) for v in r) for r in data["rolls"]),
            picks=tuple(str(p) for p in data["picks"]),
            dueling=bool(data["dueling"]),
            duels=tuple(tuple((int(s), int(r)) for s, r in rnd) for rnd in data["duels"]),
            result=Outcome.from_json(data["result"]) if data["result"] else None,
            last=None
            if last is None
            else LastTurn(
                seat=int(last["seat"]),
                rolls=tuple(tuple(int(v) for v in r) for r in last["rolls"]),
                picks=tuple(str(p) for p in last["picks"]),
                aside=_counts(last["aside"]),
                points=int(last["points"]),
                ending=str(last["ending"]),
            ),
        )


def _counts(values: Any) -> Counts:
    t, r, h, c, k = (int(v) for v in values)
    return (t, r, h, c, k)


RULES = MartianDice()
