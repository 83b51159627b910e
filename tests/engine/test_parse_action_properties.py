"""parse_action reads anything a player may type: a result, or InvalidAction or IllegalAction.

For every game: random text, and legal actions mutated (characters inserted, dropped,
swapped, cased, spaced, cut) from random positions reached by random play.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.testing import chance_event

KINDS = sorted(engine.GAMES)
NOISE = " \t-,;.:/()[]x0123456789abcdefghlmnoprsuvwLMSHNSEWéß😀\u00a0\u200b\u202e\x00"


@cache
def positions(kind: str, seats: int) -> tuple[tuple[Any, tuple[int, ...]], ...]:
    """Positions of a game reached by random play (with the seats each awaits), cached."""
    rules = engine.rules_for(kind)
    rng = random.Random(f"{kind}/{seats}")
    found: list[tuple[Any, tuple[int, ...]]] = []
    for _ in range(2):
        state = rules.start(seats, None)
        for _ in range(120):
            pending = rules.pending(state)
            if isinstance(pending, engine.Finished):
                break
            if isinstance(pending, engine.Await):
                found.append((state, pending.seats))
                seat = pending.seats[rng.randrange(len(pending.seats))]
                legal = rules.legal(state, seat)
                event: engine.Event = engine.Played(seat, legal[rng.randrange(len(legal))])
            else:
                event = chance_event(rng, pending)
            state = engine.step(rules, state, event)
    return tuple(found[:: max(1, len(found) // 40)])


def parse(rules: engine.Rules[Any], state: Any, seat: int, text: str) -> None:
    """Parse, allowing only a canonical string or the two errors of the contract."""
    try:
        action = rules.parse_action(state, seat, text)
    except (engine.InvalidAction, engine.IllegalAction) as e:
        assert str(e), "an error says what is wrong"
        return
    assert isinstance(action, str)


def mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply edits (what, where, a character) to a text."""
    chars = list(text)
    for what, where, char in edits:
        at = where % (len(chars) + 1)
        if what == 0:
            chars.insert(at, char)
        elif what == 1 and chars:
            del chars[at % len(chars)]
        elif what == 2 and chars:
            chars[at % len(chars)] = char
        elif what == 3:
            chars = chars[:at]
        elif what == 4:
            chars = list("".join(chars).swapcase())
        elif what == 5:
            chars = list("".join(chars) + " " + "".join(chars))
        elif what == 6 and chars:
            chars[at % len(chars)], chars[-1] = chars[-1], chars[at % len(chars)]
    return "".join(chars)


EDITS = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 200), st.sampled_from(NOISE)), max_size=6
)


@st.composite
def places(draw: st.DrawFn) -> tuple[engine.Rules[Any], Any, int]:
    """A game, a position from random play, and a seat that must act there."""
    kind = draw(st.sampled_from(KINDS))
    rules = engine.rules_for(kind)
    seats = draw(st.sampled_from(sorted({rules.seats[0], rules.seats[-1]})))
    state, awaited = draw(st.sampled_from(positions(kind, seats)))
    return rules, state, draw(st.sampled_from(awaited))


@settings(max_examples=150)
@given(places(), st.text(max_size=80))
def test_random_text_is_an_action_or_a_clean_error_in_every_game(place, text):
    rules, state, seat = place
    parse(rules, state, seat, text)


@settings(max_examples=250)
@given(places(), st.data(), EDITS)
def test_mutated_legal_actions_are_an_action_or_a_clean_error(place, data, edits):
    rules, state, seat = place
    legal = rules.legal(state, seat)
    action = data.draw(st.sampled_from(legal))
    parse(rules, state, seat, mutate(action, edits))


@settings(max_examples=100)
@given(places(), st.data())
def test_every_legal_action_parses_as_itself(place, data):
    rules, state, seat = place
    action = data.draw(st.sampled_from(rules.legal(state, seat)))
    assert rules.parse_action(state, seat, action) == action


@settings(max_examples=100)
@given(places(), st.integers(0, 10))
def test_a_seat_that_is_not_awaited_gets_a_clean_error_too(place, other):
    rules, state, _ = place
    parse(rules, state, other % rules.seat_count(state), "a1-a2")
