"""Martianopolis 500: the worked scenarios, hidden information, notation, the bot."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Await,
    Finished,
    IllegalAction,
    InvalidAction,
    Played,
    Resigned,
    SetupError,
    Shuffle,
    Shuffled,
    rules_for,
    step,
)
from engine.games.martianopolis import (
    DECK,
    DOWN,
    FACE_CARDS,
    LANES,
    SUITS,
    UP,
    Martianopolis500,
    MartianopolisState,
    Paths,
    Racer,
    card_name,
    column,
    distance,
    is_revealed,
    is_secret,
    laps_done,
    movement_points,
    parse_clauses,
    rank,
    value,
)
from engine.testing import chance_event

RULES = Martianopolis500()
P1, P2, P3, P4 = 0, 1, 2, 3
S, M, L = 1, 2, 3


def card(text: str) -> int:
    """A card from its name: "K♠", "10♥", "2♣"."""
    ranks = {"J": 11, "Q": 12, "K": 13, "A": 14}
    face, suit = text[:-1], text[-1]
    return (ranks.get(face) or int(face)) * 4 - 8 + SUITS.index(suit)


def dealt(seats: int = 2, order: str = "order L M S", **options: object) -> MartianopolisState:
    """A game in its first card choice: grid placed, deck dealt in identity order."""
    state = RULES.start(seats, options)
    if seats == 3:
        state = step(RULES, state, Shuffled(tuple(range(12))))
    for seat in range(seats):
        state = step(RULES, state, Played(seat, order))
    pending = RULES.pending(state)
    assert isinstance(pending, Shuffle)
    return step(RULES, state, Shuffled(tuple(range(pending.n))))


def with_piles(state: MartianopolisState, piles: dict[int, list[str]]) -> MartianopolisState:
    """Give the listed seats exactly these piles (top first); every other card is discarded."""
    given_cards = {seat: tuple(card(c) for c in cards) for seat, cards in piles.items()}
    used = {c for cards in given_cards.values() for c in cards}
    new_piles = tuple(
        given_cards.get(seat, tuple(c for c in state.piles[seat] if c not in used))
        for seat in range(state.seats)
    )
    in_piles = {c for pile in new_piles for c in pile}
    rest = tuple(c for c in DECK if c not in in_piles and c != state.set_aside)
    return replace(state, piles=new_piles, discards=rest)


def square(text: str) -> tuple[int, int]:
    return LANES.index(text[0]), int(text[1:])


def placed(state: MartianopolisState, racers: dict[str, tuple[int, ...]]) -> MartianopolisState:
    """Racers at squares {"a10": (seat, size[, progress[, standing]])}; all others removed."""
    result = []
    for seat in range(state.seats):
        for size in (S, M, L):
            where = [(sq, spec) for sq, spec in racers.items() if spec[:2] == (seat, size)]
            if not where:
                result.append(Racer(seat, size, 0, state.finish, removed=True))
                continue
            sq, spec = where[0]
            lane, col = square(sq)
            progress = spec[2] if len(spec) > 2 else col
            assert column(progress) == col
            standing = bool(spec[3]) if len(spec) > 3 else False
            result.append(Racer(seat, size, lane, progress, standing=standing))
    return replace(state, racers=tuple(result))


def moving(state: MartianopolisState, seat: int, v: int) -> MartianopolisState:
    """The state in which this seat alone moves its racers with movement value v."""
    choices = tuple(UP if s == seat else None for s in range(state.seats))
    return replace(
        state, phase="move", stage=UP, movers=(seat,), value=v, choices=choices, moved=()
    )


def choose(state: MartianopolisState, choices: dict[int, str]) -> MartianopolisState:
    for seat, choice in choices.items():
        state = step(RULES, state, Played(seat, choice))
    return state


def two_lying_flat_again() -> MartianopolisState:
    """Red's L and M crashed last turn and lie flat again this turn; Red's S can move."""
    racers = {
        "a11": (P1, L, 11, True),
        "b15": (P1, M, 15, True),
        "b20": (P1, S),
        "c30": (P2, S),
    }
    state = with_piles(placed(dealt(2), racers), {P1: ["3♠"], P2: ["4♠"]})
    state = choose(state, {P1: UP, P2: DOWN})
    assert state.recovered == (M, L)
    return state


def play(state: MartianopolisState, text: str) -> MartianopolisState:
    pending = RULES.pending(state)
    assert isinstance(pending, Await) and pending.kind == "move"
    seat = pending.seats[0]
    return step(RULES, state, Played(seat, RULES.parse_action(state, seat, text)))


def racer(state: MartianopolisState, seat: int, size: int) -> Racer:
    return next(r for r in state.racers if r.seat == seat and r.size == size)


def where(state: MartianopolisState, seat: int, size: int) -> str:
    r = racer(state, seat, size)
    return f"{LANES[r.lane]}{column(r.progress)}"


def run_moves(state: MartianopolisState) -> tuple[MartianopolisState, list[tuple[int, int]]]:
    """Let every mover of this turn play its first legal moves; (seat, value) in order."""
    slots: list[tuple[int, int]] = []
    turn = state.turn
    while state.result is None and state.turn == turn and state.phase == "move":
        mover = state.movers[0]
        if not slots or slots[-1] != (mover, state.value):
            slots.append((mover, state.value))
        state = step(RULES, state, Played(mover, RULES.legal(state, mover)[0]))
    return state, slots


def cards_accounted(state: MartianopolisState) -> list[int]:
    """Every card once: piles, discards, table tops and the card set aside."""
    cards = [c for pile in state.piles for c in pile] + list(state.discards)
    cards += [t[-1] for t in state.table if t]
    if state.set_aside is not None:
        cards.append(state.set_aside)
    return sorted(cards)


# --- worked scenarios -----------------------------------------------------------------------


def test_m5_t1_value_seven_gives_small_13_medium_12_large_11():
    assert [movement_points(7, size) for size in (S, M, L)] == [13, 12, 11]
    state = moving(dealt(2), P1, 7)
    assert RULES.view(state, P1)["points"] == {"S": 13, "M": 12, "L": 11}


def test_m5_t2_an_ace_gives_a_small_19_and_a_two_gives_a_large_1():
    assert value(card("A♠")) == 10 and value(card("2♣")) == 2
    assert movement_points(value(card("A♠")), S) == 19
    assert movement_points(value(card("2♣")), L) == 1
    assert [value(card(f"{f}♥")) for f in ("K", "Q", "J", "10", "9")] == [10, 10, 10, 10, 9]
    state = moving(dealt(2), P1, 2)
    assert RULES.view(state, P1)["points"]["L"] == 1
    assert RULES.legal(state, P1)[-1] == "L: F"


def test_m5_t3_the_face_up_group_moves_by_its_lowest_card_then_the_face_down_group():
    state = with_piles(dealt(4), {P1: ["K♠"], P2: ["7♠"], P3: ["4♠"], P4: ["Q♠"]})
    state = choose(state, {P1: UP, P2: UP, P3: UP, P4: DOWN})
    assert state.movers == (P1, P2, P3) and state.value == 4
    assert RULES.view(state, P1)["points"] == {"S": 7, "M": 6, "L": 5}
    _, slots = run_moves(state)
    assert slots == [(P1, 4), (P2, 4), (P3, 4), (P4, 10)]


def test_m5_t4_face_up_lowest_first_then_face_down_highest_value():
    state = with_piles(dealt(4), {P1: ["3♠"], P2: ["J♠"], P3: ["9♠"], P4: ["5♠"]})
    state = choose(state, {P1: DOWN, P2: DOWN, P3: UP, P4: UP})
    _, slots = run_moves(state)
    assert slots == [(P3, 5), (P4, 5), (P2, 10), (P1, 10)]


def test_m5_t5_tied_players_draw_replacements_until_all_face_up_ranks_differ():
    piles = {P1: ["9♣", "K♣"], P2: ["9♦", "5♦", "8♦"], P3: ["5♥", "2♥"]}
    state = choose(with_piles(dealt(3), piles), {P1: UP, P2: UP, P3: UP})
    assert [tuple(card_name(c) for c in t) for t in state.table] == [
        ("9♣", "K♣"),
        ("9♦", "5♦", "8♦"),
        ("5♥", "2♥"),
    ]
    assert state.movers == (P1, P2, P3) and state.value == 2
    assert {card("9♣"), card("9♦"), card("5♦"), card("5♥")} <= set(state.discards)
    assert cards_accounted(state) == list(DECK)
    notes = " ".join(state.notes)
    assert "Tie-break, new cards face-up: Red K♣, Yellow 5♦" in notes
    assert "Tie-break, new cards face-up: Yellow 8♦, Green 2♥" in notes


def test_m5_t6_a_lone_face_up_player_moves_first_with_their_own_card():
    state = with_piles(dealt(3), {P1: ["4♠"], P2: ["J♠"], P3: ["6♠"]})
    state = choose(state, {P1: DOWN, P2: UP, P3: DOWN})
    _, slots = run_moves(state)
    assert slots == [(P2, 10), (P3, 6), (P1, 6)]


def t7_board(b11_taken: bool) -> dict[str, tuple[int, ...]]:
    board: dict[str, tuple[int, ...]] = {"a10": (P1, L), "a12": (P2, S), "b12": (P2, M)}
    if b11_taken:
        board["b11"] = (P2, L)
    else:
        board["d30"] = (P2, L)
    return board


def test_m5_t7_with_no_exact_path_the_racer_crashes_upright_after_a_maximal_path():
    occupied = frozenset({square("a12"), square("b11"), square("b12")})
    paths = Paths(occupied, Racer(P1, M, 0, 10), 5, 241)
    assert paths.allowed_ends() == {("crash", 0, 1)}
    assert paths.path_to(("crash", 0, 1)) == ("F",)
    # End to end: a large racer with value 4 also has 5 points.
    state = moving(placed(dealt(2), t7_board(b11_taken=True)), P1, 4)
    assert RULES.legal(state, P1) == ("L: F",)
    with pytest.raises(IllegalAction, match="all points must be used"):
        play(state, "L: stay")
    state = play(state, "L: F")
    assert where(state, P1, L) == "a11" and racer(state, P1, L).standing
    assert any("crashes" in note for note in state.notes)
    # Next turn it only lies flat again: Red is never asked to move it.
    assert state.phase == "choose" and state.turn == 2
    state = choose(state, {P1: UP, P2: DOWN})
    assert not racer(state, P1, L).standing and where(state, P1, L) == "a11"
    assert "Red lays L flat again." in state.notes
    assert state.movers == (P2,)
    state, slots = run_moves(state)
    assert [seat for seat, _ in slots] == [P2]
    # The turn after, it moves normally.
    state = choose(state, {P1: UP, P2: DOWN})
    assert state.movers[0] == P1 and RULES.legal(state, P1)


def test_m5_t8_a_crash_is_illegal_while_an_exact_path_exists():
    occupied = frozenset({square("a12"), square("b12")})
    paths = Paths(occupied, Racer(P1, M, 0, 10), 5, 241)
    assert paths.allowed_ends() == {("exact", 2, 3)}
    assert paths.path_to(("exact", 2, 3)) == ("O", "O", "F")
    state = moving(placed(dealt(2), t7_board(b11_taken=False)), P1, 4)
    assert RULES.legal(state, P1) == ("L: O O F",)
    with pytest.raises(IllegalAction, match="may not crash on a11: .* exists, e.g. 'L: O O F'"):
        play(state, "L: F")
    after = play(state, "l: o o f")
    assert where(after, P1, L) == "c13" and not racer(after, P1, L).standing


def test_m5_t9_the_step_completing_lap_five_removes_the_racer_and_drops_the_rest():
    state = placed(dealt(2), {"b46": (P1, L, 238), "c20": (P1, S, 20), "c5": (P2, S, 5)})
    state = moving(state, P1, 4)
    assert laps_done(238) == 4
    assert "L: F3" in RULES.legal(state, P1)
    with pytest.raises(IllegalAction, match="leaves the track after F3"):
        play(state, "L: F5")
    after = play(state, "L: F3")
    assert racer(after, P1, L).removed and racer(after, P1, L).progress == 241
    assert after.result is None and after.movers == (P1,)
    assert any("off the track after 5 laps" in note for note in after.notes)


def test_m5_t9_the_last_racer_off_the_track_wins_at_once():
    state = moving(placed(dealt(2), {"b46": (P1, L, 238), "c5": (P2, S, 5)}), P1, 4)
    after = play(state, "L: F3")
    pending = RULES.pending(after)
    assert isinstance(pending, Finished)
    assert pending.outcome.ranks == (1, 2)
    assert "Red has all three racers off the track" in pending.outcome.reason


def test_m5_t10_three_players_set_a_face_card_aside_and_get_17_cards_each():
    state = RULES.start(3)
    assert RULES.pending(state) == Shuffle(12)
    state = step(RULES, state, Shuffled((5, *range(5), *range(6, 12))))
    assert state.set_aside == FACE_CARDS[5] and 11 <= rank(state.set_aside) <= 13
    assert RULES.view(state, None)["set_aside"] == card_name(FACE_CARDS[5])
    for seat in range(3):
        state = step(RULES, state, Played(seat, "order S M L"))
    assert RULES.pending(state) == Shuffle(51)
    state = step(RULES, state, Shuffled(tuple(reversed(range(51)))))
    assert [len(p) for p in state.piles] == [17, 17, 17]
    assert state.set_aside not in {c for p in state.piles for c in p}
    assert cards_accounted(state) == list(DECK)


def test_m5_t11_a_pile_running_out_in_a_tie_break_reshuffles_the_rest_and_play_goes_on():
    state = with_piles(dealt(2), {P1: ["9♣", "K♣"], P2: ["9♦"]})
    state = choose(state, {P1: UP, P2: UP})
    pending = RULES.pending(state)
    assert pending == Shuffle(50)  # every card but the two 9s on the table
    gathered = sorted(c for c in DECK if c not in (card("9♣"), card("9♦")))
    gathered.remove(card("K♣"))
    gathered = [card("K♣"), *gathered]  # piles first, then discards, each sorted
    state = step(RULES, state, Shuffled(tuple(range(50))))
    # Dealt one at a time from seat 1: Red gets K♣ (index 0), Yellow 2♣ (index 1).
    assert state.table[P1][-1] == gathered[0] == card("K♣")
    assert state.table[P2][-1] == gathered[1] == card("2♣")
    assert [len(p) for p in state.piles] == [24, 24]
    assert state.movers == (P1, P2) and state.value == 2
    assert cards_accounted(state) == list(DECK)
    assert any("reshuffled" in note for note in state.notes)


def test_m5_t12_no_diagonal_off_the_outer_or_inner_edge_and_no_sideways_steps():
    state = moving(placed(dealt(2), {"d10": (P1, S), "a20": (P1, M), "b5": (P2, S)}), P1, 3)
    with pytest.raises(IllegalAction, match="O from d10 would leave the track at the outer edge"):
        play(state, "S: O F3")
    with pytest.raises(IllegalAction, match="I from a20 would leave the track at the inner edge"):
        play(state, "M: I F2")
    assert not any(a.startswith("S: O") for a in RULES.legal(state, P1))
    assert any(" I" in a for a in RULES.legal(state, P1) if a.startswith("S"))
    for sideways in ("S: R F4", "S: sideways", "S: B", "S: F-1"):
        with pytest.raises(InvalidAction, match="no sideways or backward steps"):
            RULES.parse_action(state, P1, sideways)


# --- the turn around the scenarios ------------------------------------------------------


def test_the_game_starts_with_a_secret_order_round_then_the_deal():
    state = RULES.start(4)
    assert RULES.pending(state) == Await((P1, P2, P3, P4), "order")
    state = step(RULES, state, Played(P3, "order S L M"))
    assert RULES.pending(state) == Await((P1, P2, P4), "order")
    with pytest.raises(IllegalAction, match="not Green's turn"):
        step(RULES, state, Played(P3, "order L M S"))
    for seat in (P1, P2, P4):
        state = step(RULES, state, Played(seat, "order L M S"))
    assert [where(state, P3, size) for size in (S, L, M)] == ["c48", "c47", "c46"]
    assert [where(state, P1, size) for size in (L, M, S)] == ["a48", "a47", "a46"]
    assert all(not r.standing for r in state.racers)
    assert RULES.pending(state) == Shuffle(52)
    state = step(RULES, state, Shuffled(tuple(range(52))))
    assert [len(p) for p in state.piles] == [13] * 4
    assert RULES.pending(state) == Await((P1, P2, P3, P4), "card")


def test_the_deal_goes_round_from_seat_one_top_card_first():
    state = dealt(2)
    assert state.piles[P1][:3] == (0, 2, 4) and state.piles[P2][:3] == (1, 3, 5)


def test_lanes_may_be_chosen_at_game_creation():
    state = dealt(2, lanes="db")
    assert where(state, P1, L) == "d48" and where(state, P2, L) == "b48"


def test_an_empty_pile_at_the_start_of_a_turn_reshuffles_the_whole_deck():
    state = with_piles(dealt(2), {P1: ["5♠"], P2: ["7♠", "8♠"]})
    state = choose(state, {P1: DOWN, P2: DOWN})
    state, _ = run_moves(state)
    assert state.turn == 2 and RULES.pending(state) == Shuffle(52)
    state = step(RULES, state, Shuffled(tuple(range(52))))
    assert [len(p) for p in state.piles] == [26, 26]


def test_a_seat_answers_a_card_round_once():
    state = choose(dealt(2), {P1: UP})
    with pytest.raises(IllegalAction, match="not Red's turn"):
        step(RULES, state, Played(P1, DOWN))
    with pytest.raises(IllegalAction, match="already played"):
        RULES.apply(state, Played(P1, DOWN))
    with pytest.raises(IllegalAction, match="must first play the card"):
        RULES.apply(state, Played(P2, "S: F3"))


def test_a_path_must_use_every_point_and_avoid_taken_squares():
    state = moving(placed(dealt(2), {"b10": (P1, S), "b13": (P2, S)}), P1, 3)
    with pytest.raises(IllegalAction, match="4 of its 5 points left on b11 and can still step"):
        play(state, "S: F")
    with pytest.raises(IllegalAction, match="cannot step F from b12: b13 is taken"):
        play(state, "S: F3")
    with pytest.raises(IllegalAction, match="only 1 remain and O costs 2"):
        play(state, "S: O O O")
    after = play(state, "S: F2 O F")
    assert where(after, P1, S) == "c14"


def test_crossing_the_line_from_the_grid_is_the_start_and_later_crossings_are_laps():
    state = moving(placed(dealt(2), {"a47": (P1, S, -1), "c46": (P2, S, 46)}), P1, 3)
    after = play(state, "S: F5")
    assert racer(after, P1, S).progress == 4 and where(after, P1, S) == "a4"
    assert not any("lap" in n for n in after.notes[-1:])
    state = moving(placed(dealt(2), {"a46": (P1, S, 46), "c20": (P2, S)}), P1, 3)
    after = play(state, "S: F5")
    assert where(after, P1, S) == "a3" and racer(after, P1, S).progress == 51
    assert after.notes[-1].endswith("completing lap 1.")


def test_several_racers_may_be_moved_in_one_action_in_the_order_given():
    state = moving(dealt(2, lanes="ac"), P1, 3)
    assert [where(state, P1, z) for z in (L, M, S)] == ["a48", "a47", "a46"]
    with pytest.raises(IllegalAction, match="cannot step F from a47: a48 is taken"):
        play(state, "M: F4; L: F3")
    after = play(state, "L: F3; M: O F2")
    assert [where(after, P1, z) for z in (L, M, S)] == ["a3", "b2", "a46"]
    assert after.moved == (L, M) and RULES.pending(after) == Await((P1,), "move")
    assert all(a.startswith("S") for a in RULES.legal(after, P1))


def test_a_racer_moves_once_per_turn():
    state = play(moving(dealt(2), P1, 3), "L: F3")
    with pytest.raises(IllegalAction, match="L has already moved this turn"):
        play(state, "L: F3")
    assert all(not a.startswith("L") for a in RULES.legal(state, P1))


def test_an_order_for_a_racer_lying_flat_again_is_ignored_with_a_notice():
    racers = {"a11": (P1, L, 11, True), "b20": (P1, S), "c30": (P2, S)}
    state = with_piles(placed(dealt(2), racers), {P1: ["3♠"], P2: ["4♠"]})
    state = choose(state, {P1: UP, P2: DOWN})
    assert state.movers == (P1,) and state.recovered == (L,)
    action = RULES.parse_action(state, P1, "L: F4; S: F5")
    assert action == "L: flat; S: F5"
    assert RULES.parse_action(state, P1, action) == action
    assert RULES.describe(state, Played(P1, action), None) == (
        "Red moves S from b20 to b25 (F5) (L only lies flat again after its crash, so its "
        "order is ignored)"
    )
    after = step(RULES, state, Played(P1, action))
    assert where(after, P1, L) == "a11" and where(after, P1, S) == "b25"
    assert RULES.pending(after) == Await((P2,), "move")
    with pytest.raises(IllegalAction, match="L crashed last turn and only lies flat again"):
        RULES.parse_action(state, P1, "L: F4")
    with pytest.raises(IllegalAction, match="S did not crash last turn, so it must move"):
        step(RULES, state, Played(P1, "S: flat"))
    assert all(a.startswith("S") for a in RULES.legal(state, P1))


def test_the_race_is_stopped_and_ranked_by_distance_after_max_turns():
    state = with_piles(dealt(2, max_turns=1), {P1: ["2♠"], P2: ["9♠"]})
    state = choose(state, {P1: UP, P2: DOWN})
    while state.result is None:
        seat = state.movers[0]
        state = step(RULES, state, Played(seat, RULES.bot_action(state, seat)))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason.startswith("ended by the 1-turn limit: ")
    assert outcome.scores == (float(distance(state, P1)), float(distance(state, P2)))
    assert distance(state, P2) > distance(state, P1) > -3
    assert outcome.ranks == (2, 1)


def test_the_turn_limit_is_off_by_default_and_was_500_turns_in_version_1():
    assert RULES.resolve_options()["max_turns"] == 0
    old = rules_for("martianopolis-500", 1)
    assert old.resolve_options()["max_turns"] == 500
    state = with_piles(dealt(2, max_turns=1), {P1: ["2♠"], P2: ["9♠"]})
    state = choose(state, {P1: UP, P2: DOWN})  # the same in both versions
    while state.result is None:
        seat = state.movers[0]
        state = step(old, state, Played(seat, old.bot_action(state, seat)))
    assert old.outcome(state).reason == "the race was stopped after 1 turns; ranked by distance"


def test_resigning_leaves_the_race_and_two_players_end_the_game():
    state = step(RULES, dealt(2), Resigned(P1))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 1)
    assert "Red resigned" in outcome.reason


def test_a_resignation_completes_a_card_round_and_empties_the_seats_pile():
    state = choose(dealt(3), {P1: DOWN, P2: UP})
    state = step(RULES, state, Resigned(P3))
    assert state.phase == "move" and state.movers == (P2,)
    assert not state.piles[P3] and cards_accounted(state) == list(DECK)
    assert all(r["seat"] != P3 for r in RULES.view(state, None)["grid"].values())
    with pytest.raises(IllegalAction, match="not in the race"):
        RULES.apply(state, Played(P3, "S: F"))
    state, _ = run_moves(state)
    assert RULES.pending(state) == Await((P1, P2), "card")


def test_a_resigned_mover_is_skipped():
    state = choose(dealt(3), {P1: UP, P2: UP, P3: UP})
    first, second = state.movers[0], state.movers[1]
    state = step(RULES, state, Resigned(first))
    assert state.movers[0] == second
    assert RULES.pending(state) == Await((second,), "move")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"laps": 0}, "'laps': 0 is below 1"),
        ({"lanes": "aa"}, "'lanes': 'aa' must give 2 different lanes"),
        ({"lanes": "ae"}, "'lanes'"),
        ({"lanes": "abc"}, "'lanes'"),
        ({"max_turns": -1}, "'max_turns': -1 is below 0"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_are_refused_naming_the_option(options, message):
    with pytest.raises(SetupError, match=message):
        RULES.start(2, options)


def test_two_to_four_players_can_play():
    with pytest.raises(SetupError, match="played by 2, 3, 4 players, not 5"):
        RULES.start(5)


# --- legal(): complete, bounded, one entry per distinct outcome ----------------------------


def brute_force(state: MartianopolisState, seat: int) -> set[str]:
    """Every accepted single-racer action, by trying every path up to the points."""
    accepted = set()
    for size in (S, M, L):
        r = racer(state, seat, size)
        if r.removed or size in state.moved:
            continue
        points = movement_points(state.value, size)
        for n in range(points + 1):
            for tokens in product("FIO", repeat=n):
                if sum(2 if t != "F" else 1 for t in tokens) > points:
                    continue
                text = f"{'SML'[size - 1]}: {' '.join(tokens) or 'stay'}"
                try:
                    after = step(RULES, state, Played(seat, RULES.parse_action(state, seat, text)))
                except IllegalAction:
                    continue
                accepted.add(json.dumps(RULES.dump(after)["racers"]))
    return accepted


@settings(max_examples=40, deadline=None)
@given(
    st.sets(st.tuples(st.integers(0, 3), st.integers(11, 16)), max_size=9),
    st.integers(0, 3),
    st.integers(2, 3),
)
def test_legal_lists_exactly_one_action_per_reachable_outcome(blocked, lane, v):
    racers = {f"{LANES[lane]}10": (P1, S), f"{LANES[3 - lane]}9": (P1, L)}
    for i, (b_lane, col) in enumerate(sorted(blocked)[:3]):
        racers[f"{LANES[b_lane]}{col}"] = (P2, i + 1)
    state = moving(placed(dealt(2), racers), P1, v)
    legal = RULES.legal(state, P1)
    outcomes = {json.dumps(RULES.dump(play(state, a))["racers"]) for a in legal}
    assert len(outcomes) == len(legal)
    assert outcomes == brute_force(state, P1)


@pytest.mark.parametrize(
    ("v", "expected"),
    [
        # L (1 point) steps to a1; M and S sit behind it and Yellow's file: no step at all.
        (2, ("S: stay", "M: stay", "L: F")),
        # L (3 points) ends on a3 or b2 (F O and O F land on the same square: one entry).
        (3, ("S: stay", "M: stay", "L: F3", "L: F O")),
    ],
)
def test_legal_counts_on_the_starting_grid_by_hand(v, expected):
    assert RULES.legal(moving(dealt(2), P1, v), P1) == expected


def test_legal_stays_small_even_with_an_ace_and_an_empty_track():
    state = moving(placed(dealt(2), {"b10": (P1, S), "b30": (P1, M), "c40": (P1, L)}), P1, 10)
    legal = RULES.legal(state, P1)
    # Distinct ends only: at most 4 lanes x 10 step counts per racer.
    assert len(legal) <= 3 * 4 * 10
    assert len(set(legal)) == len(legal)


# --- hidden information --------------------------------------------------------------------


def scrambled(state: MartianopolisState, viewer: int | None, rng: random.Random):
    """The same state with everything the viewer may not see changed at random."""
    if state.result is not None:
        return state
    others = [s for s in range(state.seats) if s != viewer]
    hidden = [c for s in others for c in state.piles[s]]
    face_down = [
        s for s in others if state.table[s] and state.choices[s] == DOWN and state.stage != DOWN
    ]
    hidden += [state.table[s][-1] for s in face_down]
    rng.shuffle(hidden)
    piles = list(state.piles)
    table = list(state.table)
    for s in others:
        piles[s], hidden = tuple(hidden[: len(piles[s])]), hidden[len(piles[s]) :]
    for s in face_down:
        table[s], hidden = (*table[s][:-1], hidden[0]), hidden[1:]
    choices = list(state.choices)
    orders = list(state.orders)
    for s in others:
        if state.phase == "choose" and choices[s] is not None:
            choices[s] = rng.choice([UP, DOWN])
        if state.phase == "order" and orders[s] is not None:
            orders[s] = tuple(rng.sample([S, M, L], 3))
    return replace(
        state, piles=tuple(piles), table=tuple(table), choices=tuple(choices), orders=tuple(orders)
    )


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_view_ever_depends_on_what_its_viewer_may_not_see(seats):
    rng = random.Random(seats)
    state = RULES.start(seats)
    checked = 0
    while not isinstance(pending := RULES.pending(state), Finished):
        for viewer in [None, *range(seats)]:
            view = RULES.view(state, viewer)
            for _ in range(2):
                assert RULES.view(scrambled(state, viewer, rng), viewer) == view
            checked += 1
        if isinstance(pending, Await):
            seat = pending.seats[rng.randrange(len(pending.seats))]
            event = Played(seat, RULES.bot_action(state, seat))
        else:
            event = chance_event(rng, pending)
        state = step(RULES, state, event)
        assert cards_accounted(state) == sorted(c for c in DECK)
    assert checked > 100


def test_a_player_sees_their_own_top_card_and_no_one_else_s():
    state = with_piles(dealt(4), {P1: ["K♠"], P2: ["7♥"], P3: ["4♦"], P4: ["Q♣"]})
    state = choose(state, {P4: DOWN, P2: UP})
    tops = {P1: "K♠", P2: "7♥", P3: "4♦", P4: "Q♣"}
    for viewer in [None, P1, P2, P3, P4]:
        view = RULES.view(state, viewer)
        text = json.dumps(view, ensure_ascii=False)
        for seat, top in tops.items():
            assert (top in text) == (seat == viewer), (viewer, seat)
        choices = [p["choice"] for p in view["players"]]
        assert choices == [{P2: UP, P4: DOWN}.get(s) if s == viewer else None for s in range(4)]
    assert RULES.view(state, P1)["card"] == "K♠"
    assert RULES.view(state, None)["card"] is None


def test_no_choice_leaks_before_the_round_is_complete():
    base = dealt(4)
    for viewer in [None, P1, P2, P4]:
        up = RULES.view(choose(base, {P3: UP}), viewer)
        down = RULES.view(choose(base, {P3: DOWN}), viewer)
        assert up == down
        assert '"up"' not in json.dumps(up) and '"down"' not in json.dumps(up)
    orders = [RULES.start(3, {}) for _ in range(2)]
    orders = [step(RULES, o, Shuffled(tuple(range(12)))) for o in orders]
    a = step(RULES, orders[0], Played(P1, "order S L M"))
    b = step(RULES, orders[1], Played(P1, "order L M S"))
    assert RULES.view(a, P2) == RULES.view(b, P2)
    assert "S L M" not in json.dumps(RULES.view(a, P2))
    assert RULES.view(a, P1)["players"][P1]["order"] == "S L M"


def test_face_down_cards_stay_hidden_while_the_face_up_group_moves():
    state = with_piles(dealt(4), {P1: ["K♠"], P2: ["7♥"], P3: ["4♦"], P4: ["Q♣"]})
    state = choose(state, {P1: UP, P2: UP, P3: UP, P4: DOWN})
    for viewer in [None, P1, P2, P3]:
        view = RULES.view(state, viewer)
        text = json.dumps(view, ensure_ascii=False)
        assert "Q♣" not in text and "K♠" in text and "4♦" in text
        assert view["players"][P4]["choice"] == DOWN and view["players"][P4]["face_down"]
    assert RULES.view(state, P4)["players"][P4]["cards"] == ["Q♣"]
    state, _ = run_moves(state)  # the down group is turned over after the face-up moves
    assert state.turn == 2
    assert any("Face-down cards turned over: Blue Q♣" in n for n in state.notes)


def test_everything_is_public_once_the_game_is_over():
    state = dealt(3)
    state = step(RULES, state, Resigned(P1))
    state = step(RULES, state, Resigned(P2))
    view = RULES.view(state, None)
    assert view["finished"]
    named = {c for p in view["players"] for c in p["pile_cards"] + p["cards"]}
    named |= set(view["discard_cards"]) | {view["set_aside"]}
    assert named == {card_name(c) for c in DECK}


def test_order_and_card_answers_are_secret_until_their_round_completes():
    state = dealt(3)
    first = Played(P1, UP)
    assert is_secret(state, first) and RULES.is_secret(state, first)
    after_first = step(RULES, state, first)
    after_second = step(RULES, after_first, Played(P2, DOWN))
    assert not is_revealed(state, first, after_second)
    last = Played(P3, UP)
    assert not is_secret(after_second, last)
    done = step(RULES, after_second, last)
    assert is_revealed(state, first, done)
    start = RULES.start(2)
    assert is_secret(start, Played(P1, "order L M S"))
    assert not is_secret(step(RULES, start, Played(P2, "order S M L")), Played(P1, "order S M L"))


def test_deal_shuffles_are_secret_until_the_end_and_moves_are_public():
    state = RULES.start(3)
    assert not is_secret(state, Shuffled(tuple(range(12))))
    state = step(RULES, state, Shuffled(tuple(range(12))))
    for seat in range(3):
        state = step(RULES, state, Played(seat, "order L M S"))
    deal = Shuffled(tuple(range(51)))
    assert is_secret(state, deal)
    after = step(RULES, state, deal)
    later = choose(after, {P1: UP, P2: UP, P3: UP})
    assert not is_revealed(state, deal, later)
    mover = later.movers[0]
    assert not is_secret(later, Played(mover, RULES.legal(later, mover)[0]))
    ended = step(RULES, step(RULES, later, Resigned(P1)), Resigned(P2))
    assert is_revealed(state, deal, ended)


# --- notation and sentences ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("order L M S", "order L M S"),
        ("ORDER l, m, s", "order L M S"),
        ("lms", "order L M S"),
        ("order: small large medium", "order S L M"),
        ("up", "up"),
        ("  UP ", "up"),
        ("face-down", "down"),
        ("Face Down", "down"),
        ("S: F3 O F2; L: I F7; M: F12", "S: F3 O F2; L: I F7; M: F12"),
        ("s:f3of2;l:if7;m:f12", "S: F3 O F2; L: I F7; M: F12"),
        ("s fff o ff\nL: I, F7", "S: F3 O F2; L: I F7"),
        ("large: F1 F1 F", "L: F3"),
        ("m: oo", "M: O O"),
        ("small: stay", "S: stay"),
        ("S : -", "S: stay"),
        ("M: Flat", "M: flat"),
    ],
)
def test_notation_is_forgiving_of_case_and_spacing(text, canonical):
    assert RULES.parse_action(dealt(2), P1, text) == canonical
    assert RULES.parse_action(dealt(2), P1, canonical) == canonical


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("", "S: F3 O F2"),
        ("go fast", "S: F3 O F2"),
        ("S: F3; S: F2", "named twice"),
        ("S:", "S: F3 O F2"),
        ("S: F0", "no step at all"),
        ("order L L S", "order L M S"),
        ("order L M", "order L M S"),
        ("S: F99 F99", "no move is that long"),
        ("x" * 301, "characters long"),
    ],
)
def test_unreadable_notation_names_what_was_given_and_the_expected_form(text, form):
    with pytest.raises(InvalidAction) as caught:
        RULES.parse_action(moving(dealt(2), P1, 3), P1, text)
    assert form in str(caught.value)
    if len(text) <= 300 and text.strip():
        assert repr(text.strip()[:4])[1:-1] in str(caught.value)


def test_unreadable_text_in_a_round_shows_that_round_s_form():
    with pytest.raises(InvalidAction, match="write 'order L M S'"):
        RULES.parse_action(RULES.start(2), P1, "hello")
    with pytest.raises(InvalidAction, match="write 'up' or 'down'"):
        RULES.parse_action(dealt(2), P1, "hello")


@given(st.text(max_size=60))
def test_any_text_parses_to_a_canonical_action_or_a_clean_invalid_action(text):
    state = dealt(2)
    try:
        action = RULES.parse_action(state, P1, text)
    except InvalidAction:
        return
    assert RULES.parse_action(state, P1, action) == action


@given(
    st.lists(
        st.sampled_from(["s", "M", "l", ":", ";", "f", "I", "o", "3", "12", " ", "order", "up"]),
        max_size=14,
    )
)
def test_near_miss_notation_never_escapes_as_another_exception(parts):
    state = moving(dealt(2), P1, 5)
    try:
        action = RULES.parse_action(state, P1, "".join(parts))
    except InvalidAction:
        return
    assert RULES.parse_action(state, P1, action) == action
    try:
        step(RULES, state, Played(P1, action))
    except IllegalAction:
        pass


def test_parse_clauses_reads_racers_in_the_order_given():
    assert parse_clauses("M: F; S: I F") == ((M, ("F",)), (S, ("I", "F")))


def test_describe_names_the_acting_seat():
    start = RULES.start(2)
    assert (
        RULES.describe(start, Played(P1, "order L M S"), P1)
        == "Red lines up the racers L, M, S from the front"
    )
    one_left = step(RULES, start, Played(P1, "order L M S"))
    assert RULES.describe(one_left, Played(P2, "order S M L"), None).startswith(
        "Yellow lines up the racers S, M, L"
    )
    assert RULES.describe(dealt(2), Played(P2, "up"), P2) == "Yellow plays a card face-up"
    state = moving(placed(dealt(2), {"b10": (P1, S), "c20": (P2, S)}), P1, 3)
    assert (
        RULES.describe(state, Played(P1, "S: F3 O"), None) == "Red moves S from b10 to c14 (F3 O)"
    )
    won = moving(placed(dealt(2), {"b46": (P1, L, 238), "c5": (P2, S, 5)}), P1, 4)
    assert "and wins" in RULES.describe(won, Played(P1, "L: F3"), None)


def test_a_secret_choice_reads_in_full_for_its_own_seat_and_hidden_for_the_others():
    start = RULES.start(3)
    start = step(RULES, start, Shuffled(tuple(range(12))))
    order = Played(P2, "order S L M")
    assert RULES.is_secret(start, order)
    assert RULES.describe(start, order, P2) == "Yellow lines up the racers S, L, M from the front"
    for viewer in (None, P1, P3):
        assert RULES.describe(start, order, viewer) == "Yellow lines up the racers in secret"
    state = dealt(2)
    for choice in (UP, DOWN):
        card = Played(P1, choice)
        assert RULES.is_secret(state, card)
        assert RULES.describe(state, card, P1) == f"Red plays a card face-{choice}"
        for viewer in (None, P2):
            assert RULES.describe(state, card, viewer) == "Red plays a card in secret"


def test_the_answer_that_completes_a_round_reads_the_same_for_everyone():
    one_left = step(RULES, dealt(2), Played(P1, DOWN))
    last = Played(P2, UP)
    assert not RULES.is_secret(one_left, last)
    sentences = {RULES.describe(one_left, last, viewer) for viewer in (None, P1, P2)}
    assert sentences == {"Yellow plays a card face-up"}


def test_the_view_is_json_and_shows_the_track():
    state = dealt(2)
    for viewer in (None, P1, P2):
        view = RULES.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
    view = RULES.view(state, None)
    assert view["grid"]["a48"]["name"] == "L" and view["grid"]["b46"]["seat"] == P2
    assert view["awaiting"] == [P1, P2] and view["awaiting_kind"] == "card"
    assert [p["pile"] for p in view["players"]] == [26, 26]


def test_dump_and_load_round_trip_mid_turn():
    state = choose(with_piles(dealt(3), {P1: ["9♣", "K♣"], P2: ["9♦"]}), {P1: UP, P2: UP})
    state = choose(state, {P3: DOWN})
    assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state


# --- the house bot -----------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_house_bot_races_to_a_real_win(seats):
    rng = random.Random(seats)
    state = RULES.start(seats)
    while not isinstance(pending := RULES.pending(state), Finished):
        if isinstance(pending, Await):
            seat = pending.seats[0]
            assert RULES.bot_action(state, seat) in RULES.legal(state, seat)
            event = Played(seat, RULES.bot_action(state, seat))
        else:
            event = chance_event(rng, pending)
        state = step(RULES, state, event)
    assert "all three racers off the track" in pending.outcome.reason
    assert state.turn < 100


def test_the_bot_prefers_finishing_to_wandering():
    state = moving(placed(dealt(2), {"b46": (P1, L, 238), "c20": (P1, S), "c5": (P2, S)}), P1, 4)
    assert RULES.bot_action(state, P1) == "L: F3"
    assert RULES.bot_action(dealt(2), P1) in (UP, DOWN)
    assert RULES.bot_action(RULES.start(2), P1) == "order S M L"
