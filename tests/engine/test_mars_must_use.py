"""The must-use rule's short cut for a paused push chain answers as playing the chain out does."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.games.mars import moves
from engine.games.mars.resolution import Resolution
from engine.testing import play_randomly

# Crowded boards make long chains: many seats, blocking from low strengths, the Mad Dog
# formula's longer pushes; the Mad Dog game brings the Dog (where the short cut must decline).
SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("martian-race", 5, {}),
    ("martian-race", 4, {"push_formula": "MD"}),
    ("martian-race", 4, {"block_partial_min": 2, "block_total_min": 3}),
    ("martian-race", 3, {"step_usage": "exact", "one_per_colour": "resting"}),
    ("martian-race", 3, {"mad_dog_phase": True, "growth_on_push_arrival": False}),
    ("mad-dog", 4, {}),
]
LIMITS = {"stall_rounds": 12, "max_turns": 160}

Case = tuple[Resolution, int, int, int | None]


def paused_checks(kind: str, seats: int, options: dict[str, Any], seed: int) -> list[Case]:
    """Every paused chain the must-use rule asked about in a random game, as it was asked."""
    cases: list[Case] = []
    real = moves.enables

    def spy(res: Resolution, done: bool | None, seat: int, die: int, winner: int | None) -> bool:
        if done is False:
            cases.append((res.clone(), seat, die, winner))
        return real(res, done, seat, die, winner)

    moves.enables = spy
    try:
        rules = engine.rules_for(kind)
        play_randomly(rules, seats, random.Random(seed), {**options, **LIMITS})
    finally:
        moves.enables = real
    return cases


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32 - 1))
def test_the_short_cut_gives_the_answer_of_playing_every_chain_out(setup, seed):
    kind, seats, options = setup
    for res, seat, die, winner in paused_checks(kind, seats, options, seed):
        old = moves.explores(res.clone(), False, seat, die, winner)
        assert moves.enables(res.clone(), False, seat, die, winner) == old


def test_where_the_short_cut_answers_the_seat_can_use_the_die_in_every_final_position():
    answered = declined = 0
    for n, (kind, seats, options) in enumerate(SETUPS * 3):
        for res, seat, die, _ in paused_checks(kind, seats, options, seed=n):
            if not moves.spared(res, seat):
                declined += 1
                continue
            answered += 1
            for final in moves.finals(res.clone(), False):
                assert moves.usable(final.pos, seat, die)
    # Both ways are met, so the comparison means something.
    assert answered >= 5 and declined >= 20


def test_while_a_dog_may_still_be_released_the_short_cut_declines():
    setups = [("martian-race", 3, {"mad_dog_phase": True}), ("mad-dog", 3, {})]
    cases = [c for kind, seats, options in setups for c in paused_checks(kind, seats, options, 7)]
    assert cases
    for res, seat, _, _ in cases:
        assert res.winner is not None or not moves.spared(res, seat)
