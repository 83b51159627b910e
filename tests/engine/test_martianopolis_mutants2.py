"""Martianopolis 500: setup, the rules object and the turn's flow, for mutants left alive.

Each test here kills mutants of `rules.py`, `rounds.py` or `paths.py` that the other tests of
the game let live (docs/mutants/martianopolis.md names them).
"""

from __future__ import annotations

import pytest

from engine import Resigned, Rolled, Shuffle, Shuffled, step
from engine.errors import IllegalAction, SetupError
from engine.games.martianopolis import DOWN, UP, Paths, Racer
from engine.games.martianopolis.paths import End
from tests.engine.test_martianopolis import (
    P1,
    P2,
    P3,
    RULES,
    S,
    card,
    choose,
    dealt,
    run_moves,
    with_piles,
)


def test_the_lanes_option_reads_letters_apart_from_spaces_and_commas():
    assert RULES.start(2, {"lanes": "d, b"}).lanes == (3, 1)
    assert RULES.start(3, {"lanes": " C A,B "}).lanes == (2, 0, 1)


def test_a_bad_lanes_option_says_what_it_must_give():
    with pytest.raises(SetupError) as refused:
        RULES.start(2, {"lanes": "aa"})
    assert str(refused.value) == (
        "option 'lanes': 'aa' must give 2 different lanes of a, b, c, d, one per seat in seat order"
    )


def test_a_finished_game_refuses_every_event_and_a_roll_is_of_no_use():
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(dealt(2), Rolled((3,)))
    assert str(refused.value) == "Martianopolis 500 has no use for Rolled"
    over = step(RULES, dealt(2), Resigned(P1))
    assert over.result is not None
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(over, Resigned(P2))
    assert str(refused.value) == "the game is over"


def test_a_crash_is_not_offered_beside_a_path_that_uses_every_point():
    # S on a10 with 3 points, b12 taken: F F F ends exactly on a13; O to b11 is then stuck
    # (b12 taken, no point left for a side step), a crash the rules allow only without
    # an exact path.
    paths = Paths(frozenset({(1, 12)}), Racer(P1, S, 0, 10), 3, 241)
    assert paths.reach(0, 0, 3) == {("exact", 0, 3), ("crash", 1, 1)}
    assert paths.allowed_ends() == {("exact", 0, 3)}


def test_the_search_of_a_racer_s_ends_visits_each_point_of_a_path_once(monkeypatch):
    # 19 points on an empty track: some 2^18 raw paths, but at most 4 x 20 x 20 points
    # (lane, steps, points left) to search, each once.
    calls = 0
    terminal = Paths.terminal

    def counted(self: Paths, lane: int, steps: int, left: int) -> End | None:
        nonlocal calls
        calls += 1
        assert calls <= 4 * 20 * 20, "the search walks raw paths"
        return terminal(self, lane, steps, left)

    monkeypatch.setattr(Paths, "terminal", counted)
    ends = Paths(frozenset(), Racer(P1, S, 1, 10), 19, 241).allowed_ends()
    assert ("exact", 1, 19) in ends and ("exact", 0, 10) in ends


def test_three_players_are_told_which_face_card_is_set_aside():
    state = step(RULES, RULES.start(3), Shuffled(tuple(range(12))))
    assert state.notes == ("The J♣ is set aside for the whole game.",)
    assert state.set_aside == card("J♣")


def test_a_shuffle_is_refused_while_the_game_waits_for_a_choice():
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(dealt(2), Shuffled((0,)))
    assert str(refused.value) == "no shuffle is due now"


def test_a_deal_to_two_seats_of_a_three_seat_game_says_both_pile_sizes():
    # 51 cards to the two seats left after Green resigned: 26 to Red, 25 to Yellow.
    state = step(RULES, dealt(3), Resigned(P3))
    state = choose(with_piles(state, {P1: ["2♠"], P2: ["9♠"]}), {P1: UP, P2: DOWN})
    state, _ = run_moves(state)
    assert RULES.pending(state) == Shuffle(51)
    state = step(RULES, state, Shuffled(tuple(range(51))))
    assert state.notes[-1] == "The deck is shuffled and dealt: 25 or 26 cards each."
    assert sorted(len(pile) for pile in state.piles) == [0, 25, 26]
