"""Martian Frisby: the worked scenarios, and the rules around them."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    Await,
    Finished,
    IllegalAction,
    InvalidAction,
    Played,
    Resigned,
    Roll,
    Rolled,
    SetupError,
    Shuffled,
    rules_for,
    step,
)
from engine.games.frisby import FrisbyState, index, move_error
from engine.games.frisby.bot import progress
from engine.games.frisby.notation import read_square
from engine.testing import chance_event

RULES = rules_for("martian-frisby")
SOUTH, NORTH = 0, 1


def started(first: int = SOUTH, **options: object) -> FrisbyState:
    """A new game with the first player already chosen."""
    return RULES.start(2, {"first_player": first, **options})


def rolled(state: FrisbyState, a: int, b: int) -> FrisbyState:
    return step(RULES, state, Rolled((a, b)))


def position(stacks: dict[str, str], to_move: int = SOUTH, dice: tuple[int, int] | None = None):
    """A state from {"a3": "S1 N2"}: pieces bottom to top, S/N then size."""
    board = [()] * 16
    for square, text in stacks.items():
        pieces = tuple((SOUTH if p[0] == "S" else NORTH, int(p[1])) for p in text.split())
        board[index((ord(square[0]) - ord("a"), int(square[1:])))] = pieces
    return replace(started(to_move), board=tuple(board), dice=dice)


def top(state: FrisbyState, square: str) -> tuple[int, int] | None:
    stack = state.board[index((ord(square[0]) - ord("a"), int(square[1:])))]
    return stack[-1] if stack else None


def play(state: FrisbyState, text: str, seat: int | None = None) -> FrisbyState:
    seat = state.to_move if seat is None else seat
    return step(RULES, state, Played(seat, RULES.parse_action(state, seat, text)))


def refusal(state: FrisbyState, text: str) -> str:
    """The whole message of a turn the rules refuse."""
    with pytest.raises(IllegalAction) as caught:
        play(state, text)
    return str(caught.value)


# --- worked scenarios -----------------------------------------------------------------------


def test_fr_t1_both_three_pointers_move_and_uncover_the_two_pointers():
    state = play(rolled(started(), 3, 5), "a1-a4 b1-b6")
    assert top(state, "a4") == (SOUTH, 3)
    assert top(state, "b6") == (SOUTH, 3)
    assert top(state, "a1") == (SOUTH, 2)
    assert top(state, "b1") == (SOUTH, 2)
    assert state.to_move == NORTH


def test_fr_t2_one_piece_may_move_twice_in_opposite_directions_by_different_lengths():
    state = play(rolled(started(), 3, 5), "a1-a6 a6-a3")
    assert top(state, "a3") == (SOUTH, 3)
    assert top(state, "a6") is None


def test_fr_t3_a_move_off_the_board_is_illegal():
    state = rolled(started(), 3, 5)
    with pytest.raises(IllegalAction, match="a9 is off the board"):
        play(state, "a1-a4 a4-a9")


def test_fr_t4_a_turn_that_leaves_the_position_unchanged_is_illegal():
    state = rolled(started(), 2, 2)
    with pytest.raises(IllegalAction, match="leaves the board as it was"):
        play(state, "a1-a3 a3-a1")


def test_fr_t5_doubles_are_two_moves_of_that_length():
    state = play(rolled(started(), 2, 2), "a1-a3 a3-a5")
    assert top(state, "a5") == (SOUTH, 3)
    assert "a1-a3 a3-a5" in RULES.legal(rolled(started(), 2, 2), SOUTH)


def test_fr_t6_a_piece_nests_only_on_a_smaller_piece():
    state = position(
        {"a3": "S2", "a5": "N1", "a6": "N2", "a1": "S1", "b1": "S1 S2 S3", "a7": "S3", "b8": "N3"},
        dice=(2, 3),
    )
    assert move_error(state.board, SOUTH, ((0, 3), (0, 5)), False) is None
    error = move_error(state.board, SOUTH, ((0, 3), (0, 6)), False)
    assert error is not None and "may only nest on a smaller piece" in error
    after = play(state, "a3-a5 a5-a2")
    assert top(after, "a5") == (NORTH, 1)
    assert top(after, "a2") == (SOUTH, 2)
    with pytest.raises(IllegalAction, match="a6 has North's 2-pointer on top"):
        play(state, "a3-a6 b1-b3")


def test_fr_t7_a_piece_under_another_is_trapped():
    state = position(
        {"a4": "N1 S2", "b8": "N1 N2 N3", "a8": "N2 N3", "a1": "S1 S2 S3", "b1": "S3"},
        to_move=NORTH,
        dice=(1, 2),
    )
    with pytest.raises(IllegalAction, match="trapped under South's 2-pointer"):
        play(state, "a4-a5 a8-a6")
    assert all(not turn.startswith("a4") for turn in RULES.legal(state, NORTH))


def test_fr_t8_a_winning_first_move_ends_the_game_at_once():
    state = position(
        {
            "a8": "S1 S2 S3",
            "b8": "S1 S2",
            "b5": "S3",
            "a4": "N3",
            "b4": "N3",
            "a1": "N1 N2",
            "b1": "N1 N2",
        },
        dice=(3, 4),
    )
    assert "b5-b8" in RULES.legal(state, SOUTH)
    after = play(state, "b5-b8")
    pending = RULES.pending(after)
    assert isinstance(pending, Finished)
    assert pending.outcome.ranks == (1, 2)
    assert RULES.outcome(after) == pending.outcome
    # No 4 could be played after the win: both South nests face a North 3-pointer.
    board_after = after.board
    assert move_error(board_after, SOUTH, ((0, 8), (0, 4)), False) is not None
    assert move_error(board_after, SOUTH, ((1, 8), (1, 4)), False) is not None


def test_fr_t8_a_second_move_after_the_win_is_refused_with_the_reason():
    state = position(
        {"a8": "S1 S2 S3", "b8": "S1 S2", "b5": "S3", "a1": "N1 N2 N3", "b1": "N1 N2 N3"},
        dice=(3, 4),
    )
    with pytest.raises(IllegalAction, match="b5-b8 already wins the game; submit it alone"):
        play(state, "b5-b8 b8-b4")


def test_fr_t9_a_player_with_no_legal_pair_passes_automatically():
    state = position(
        {
            "a2": "S1 N2",
            "b2": "S1 N2",
            "a3": "S2 N3",
            "b3": "S2 N3",
            "a4": "S3",
            "b4": "S3",
            "a8": "N1",
            "b8": "N1",
        }
    )
    for dice in [(5, 6), (6, 5), (6, 6)]:
        after = rolled(state, *dice)
        assert after.board == state.board
        assert after.turns == state.turns + 1
        assert after.to_move == NORTH
        assert after.last == (SOUTH, "pass")
        assert RULES.pending(after) == Roll(2)


def test_fr_t10_pieces_jump_over_the_rows_between():
    state = play(rolled(started(), 6, 6), "a1-a7 b1-b7")
    assert top(state, "a7") == (SOUTH, 3)
    assert top(state, "b7") == (SOUTH, 3)


# --- turn rules around the scenarios ---------------------------------------------------


def test_either_die_may_be_played_first():
    state = rolled(started(), 3, 5)
    assert play(state, "a1-a6 b1-b4").board != state.board
    assert play(state, "b1-b4 a1-a6").board == play(state, "a1-a6 b1-b4").board


def test_legal_lists_one_turn_per_distinct_outcome():
    state = rolled(started(), 3, 5)
    turns = RULES.legal(state, SOUTH)
    outcomes = {play(state, t).board for t in turns}
    assert len(outcomes) == len(turns)
    assert "a1-a4 b1-b6" in turns or "b1-b6 a1-a4" in turns


def test_dice_must_match_the_roll():
    state = rolled(started(), 3, 5)
    with pytest.raises(IllegalAction, match="you rolled 3-5, but a1-a3 b1-b6 moves 2 and 5"):
        play(state, "a1-a3 b1-b6")


def test_a_single_move_is_not_a_turn_unless_it_wins():
    state = rolled(started(), 3, 5)
    with pytest.raises(IllegalAction, match="a turn is two moves"):
        play(state, "a1-a4")


def test_an_illegal_first_move_cannot_be_repaired_by_the_second():
    state = position(
        {"a1": "S1 S2 S3", "b1": "S1 S2 S3", "a4": "N3", "a8": "N1 N2", "b8": "N1 N2 N3"},
        dice=(3, 5),
    )
    with pytest.raises(IllegalAction, match="a4 has North's 3-pointer on top"):
        play(state, "a1-a4 a4-a9")


def test_pass_is_refused_while_a_legal_turn_exists():
    state = rolled(started(), 3, 5)
    with pytest.raises(IllegalAction, match="you cannot pass"):
        play(state, "pass")


def test_moving_out_of_turn_is_refused():
    state = rolled(started(), 3, 5)
    with pytest.raises(IllegalAction, match="not North's turn"):
        step(RULES, state, Played(NORTH, "a8-a5 b8-b3"))


def test_pieces_stay_in_their_column_unless_the_variant_is_on():
    plain = rolled(started(), 3, 5)
    with pytest.raises(IllegalAction, match="change-columns variant is off"):
        play(plain, "a1-b4 b1-b6")
    variant = rolled(started(change_columns=True), 3, 5)
    after = play(variant, "a1-b4 b1-b6")
    assert top(after, "b4") == (SOUTH, 3)
    assert any(t.startswith("a1-b") for t in RULES.legal(variant, SOUTH))
    assert not any(t.startswith("a1-b") for t in RULES.legal(plain, SOUTH))


def test_the_first_player_is_a_chance_event_of_the_server():
    state = RULES.start(2)
    assert RULES.pending(state) == Roll(1, sides=2)
    north_first = step(RULES, state, Rolled((2,)))
    assert RULES.pending(north_first) == Roll(2)
    assert north_first.to_move == NORTH
    assert RULES.pending(rolled(north_first, 1, 2)) == Await((NORTH,), "move")


def test_the_loser_of_the_last_game_may_be_set_to_go_first():
    assert RULES.pending(RULES.start(2, {"first_player": 1})) == Roll(2)
    assert RULES.start(2, {"first_player": "1"}).to_move == NORTH


def test_the_draw_guard_ends_a_long_game_in_a_draw():
    state = rolled(started(max_turns=2), 3, 5)
    state = play(state, "a1-a4 b1-b6")
    state = play(rolled(state, 3, 5), "a8-a5 b8-b3")
    pending = RULES.pending(state)
    assert isinstance(pending, Finished)
    assert pending.outcome.ranks == (1, 1)
    assert pending.outcome.reason == "ended by the 2-half-turn limit: a draw after 2 half-turns"


def test_a_version_1_draw_at_the_limit_keeps_its_old_reason():
    old = rules_for("martian-frisby", 1)
    state = step(old, started(max_turns=2), Rolled((3, 5)))
    state = step(old, state, Played(SOUTH, old.parse_action(state, SOUTH, "a1-a4 b1-b6")))
    state = step(old, state, Rolled((3, 5)))
    state = step(old, state, Played(NORTH, old.parse_action(state, NORTH, "a8-a5 b8-b3")))
    assert old.outcome(state).reason == "draw: 2 half-turns were played"


def test_resigning_gives_the_game_to_the_opponent():
    state = step(RULES, rolled(started(), 3, 5), Resigned(SOUTH))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 1)
    assert "South resigned" in outcome.reason
    with pytest.raises(IllegalAction, match="the game is over"):
        step(RULES, state, Rolled((1, 2)))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_turns": -1}, "'max_turns': -1 is below 0"),
        ({"first_player": 2}, "'first_player': 2 is above 1"),
        ({"change_columns": "maybe"}, "'change_columns': 'maybe' is not a valid bool"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_are_refused_naming_the_option(options, message):
    with pytest.raises(SetupError, match=message):
        RULES.start(2, options)


def test_only_two_players_can_play():
    with pytest.raises(SetupError, match="played by 2 players, not 3"):
        RULES.start(3)


# --- notation, sentences, views ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "a1-a4 b1-b6",
        "A1-A4 B1-B6",
        "  a1 - a4 ,  b1-b6 ",
        "a1a4 b1b6",
        "a1 to a4 then b1 to b6",
        "a1–a4; b1—b6",
        "a1 a4 b1 b6",
    ],
)
def test_notation_is_forgiving_of_case_and_spacing(text):
    assert RULES.parse_action(started(), SOUTH, text) == "a1-a4 b1-b6"


def test_a_single_winning_move_and_pass_parse():
    assert RULES.parse_action(started(), SOUTH, "B5 B8") == "b5-b8"
    assert RULES.parse_action(started(), SOUTH, " PASS ") == "pass"


@pytest.mark.parametrize("text", ["", "move my piece", "a1-a4 b1", "a1-a4 b1-b6 a2-a3", "z"])
def test_unreadable_notation_names_what_was_given_and_the_expected_form(text):
    with pytest.raises(InvalidAction) as caught:
        RULES.parse_action(started(), SOUTH, text)
    assert repr(text.strip()) in str(caught.value)
    assert "a1-a4 b1-b6" in str(caught.value)


@given(st.text(max_size=60))
def test_any_text_parses_to_a_canonical_action_or_a_clean_invalid_action(text):
    state = started()
    try:
        action = RULES.parse_action(state, SOUTH, text)
    except InvalidAction:
        return
    assert RULES.parse_action(state, SOUTH, action) == action


@given(st.lists(st.sampled_from(["a", "b", "c", "1", "4", "9", "-", " ", "x", "to"]), max_size=12))
def test_near_miss_notation_never_escapes_as_another_exception(parts):
    try:
        RULES.parse_action(started(), SOUTH, "".join(parts))
    except InvalidAction:
        pass


def test_describe_names_the_seat_that_plays_for_every_reader():
    state = rolled(started(NORTH), 3, 5)
    turn = Played(NORTH, "a8-a5 b8-b3")
    for viewer in (None, SOUTH, NORTH):
        assert RULES.describe(state, turn, viewer) == (
            "North moves the 3 from a8 to a5 and the 3 from b8 to b3"
        )


def test_describe_says_who_moved_what_where():
    state = rolled(started(), 3, 5)
    assert (
        RULES.describe(state, Played(SOUTH, "a1-a4 b1-b6"), None)
        == "South moves the 3 from a1 to a4 and the 3 from b1 to b6"
    )
    nest = position({"a3": "S2", "a5": "N1", "b1": "S3", "a8": "N3"}, dice=(2, 1))
    assert "onto North's 1" in RULES.describe(nest, Played(SOUTH, "a3-a5 b1-b2"), None)
    assert RULES.describe(state, Played(SOUTH, "pass"), None) == "South passes"


def test_the_view_is_json_and_shows_the_board_dice_and_whose_turn():
    state = rolled(started(), 3, 5)
    for seat in (None, SOUTH, NORTH):
        view = RULES.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        assert view["viewer"] == seat
    view = RULES.view(state, None)
    assert view["dice"] == [3, 5]
    assert view["awaiting"] == [SOUTH]
    assert view["board"]["a1"] == [
        {"seat": 0, "size": 1},
        {"seat": 0, "size": 2},
        {"seat": 0, "size": 3},
    ]


def test_dump_and_load_round_trip_a_finished_game():
    state = step(RULES, rolled(started(), 3, 5), Resigned(NORTH))
    assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state


def test_the_house_bot_plays_games_to_a_real_win():
    for seed in range(20):
        rng = random.Random(seed)
        state = RULES.start(2)
        while not isinstance(pending := RULES.pending(state), Finished):
            if isinstance(pending, Await):
                seat = pending.seats[0]
                event = Played(seat, RULES.bot_action(state, seat))
            else:
                event = chance_event(rng, pending)
            state = step(RULES, state, event)
        assert "both nests home" in pending.outcome.reason
        # Nesting in order keeps bot games short (median 35 half-turns over 300 seeds).
        assert state.turns < 200


# --- chance addresses, refusals that list the legal turns, snapshots, names ---------------


def test_each_pending_roll_has_an_address_a_mirror_game_shares():
    # "first" for who starts, "turn7/seat1" for the dice of a half-turn, none otherwise.
    state = RULES.start(2)
    assert RULES.chance_address(state) == "first"
    state = step(RULES, state, Rolled((1,)))
    assert RULES.chance_address(state) == "turn0/seat0"
    state = rolled(state, 3, 5)
    assert RULES.chance_address(state) is None
    state = play(state, "a1-a4 b1-b6")
    assert RULES.chance_address(state) == "turn1/seat1"
    state = step(RULES, state, Resigned(NORTH))
    assert RULES.chance_address(state) is None


def test_legal_is_empty_for_the_seat_not_to_move():
    state = rolled(started(), 3, 5)
    assert RULES.legal(state, SOUTH) and RULES.legal(state, NORTH) == ()


def test_legal_writes_each_outcome_in_its_first_notation():
    # a1-a4 then b1-b6 and b1-b6 then a1-a4 end alike; the list shows the first in order.
    turns = RULES.legal(rolled(started(), 3, 5), SOUTH)
    assert "a1-a4 b1-b6" in turns and "b1-b6 a1-a4" not in turns


# South's six pieces: a nest on a1, two on b1, a 3-pointer on b3; North's 3-pointer on b4.
HINTED = {"a1": "S1 S2 S3", "b1": "S1 S2", "b3": "S3", "b4": "N3", "a8": "N1 N2", "b8": "N1 N2 N3"}


@pytest.mark.parametrize(
    ("dice", "turn", "hint"),
    [
        (
            (2, 2),
            "a1-a2 a1-a3",
            "legal turns include a1-a3 a3-a5, a1-a3 b3-b1, a1-a3 b3-b5, b3-b5 b1-b3, "
            "b3-b5 b5-b7",
        ),
        (
            (3, 6),
            "a1-a2 a1-a4",
            "legal turns include a1-a4 a1-a7, a1-a4 b1-b7, a1-a7 a1-a4, a1-a7 a7-a4, "
            "a1-a7 b3-b6 and 1 more",
        ),
    ],
)
def test_a_refused_turn_lists_five_legal_turns_and_counts_the_rest(dice, turn, hint):
    state = position(HINTED, dice=dice)
    assert len(RULES.legal(state, SOUTH)) == len(hint.split(", ")) + hint.endswith("1 more")
    with pytest.raises(IllegalAction) as caught:
        play(state, turn)
    assert str(caught.value).endswith(f"({hint})")


def test_a_refused_turn_at_the_start_counts_the_legal_turns_not_shown():
    assert refusal(rolled(started(), 3, 5), "a1-a2 b1-b6") == (
        "you rolled 3-5, but a1-a2 b1-b6 moves 1 and 5 squares (legal turns include "
        "a1-a4 a1-a6, a1-a4 b1-b6, a1-a6 a1-a4, a1-a6 a6-a3, a1-a6 b1-b4 and 3 more)"
    )


def test_a_refused_pass_names_the_first_legal_turn():
    assert refusal(rolled(started(), 3, 5), "pass") == (
        "you cannot pass: you rolled 3-5 and can play a1-a4 a1-a6"
    )


def test_dump_and_load_round_trip_a_game_before_and_during_play():
    fresh = started(change_columns=True)
    moving = rolled(play(rolled(fresh, 3, 5), "a1-b4 b1-b6"), 2, 2)
    assert moving.last == (SOUTH, "a1-b4 b1-b6") and moving.dice == (2, 2)
    for state in (RULES.start(2), fresh, moving):
        assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state


@pytest.mark.parametrize("turn", ["a1-a9 b1-b4", "a0-a3 b1-b4", "c1-c4 b1-b4"])
def test_describe_falls_back_to_the_text_for_a_move_off_the_board(turn):
    state = rolled(started(), 3, 5)
    assert RULES.describe(state, Played(SOUTH, turn), None) == f"South plays {turn}"


def test_a_seat_other_than_south_or_north_is_named_by_its_number():
    assert [RULES.seat_name(started(), s) for s in (0, 1, 2)] == ["South", "North", "seat 2"]


def test_the_bots_progress_counts_nests_built_in_order_then_distance():
    state = position(
        {
            "a1": "S1 S2",
            "a4": "S3",
            "b6": "N1 S2",
            "a8": "S1",
            "b8": "S3",
            "b3": "N1 N2 N3",
            "a7": "N2 N3",
        }
    )
    # South: the 1 under the 2 on a1 travelled 0, less 1 for being covered (-1), the 2 on
    # top 0; the 3 on a4 travelled 3, the 2 on b6 travelled 5; on its goal squares a8 holds
    # a 1 to nest on (+20) and b8 a 3 that blocks the nest (-6): 21.
    assert progress(state.board, SOUTH) == -1 + 0 + 3 + 5 + 20 - 6
    # North (travelling down): the covered 1 on b6 2 - 1; the nest on b3 5 each, less 1 for
    # the two covered; a7's 2 covered, 1 - 1, and its 3, 1; nothing on its goals a1, b1: 15.
    assert progress(state.board, NORTH) == 1 + (4 + 4 + 5) + (0 + 1)


def test_the_bot_has_no_action_before_the_dice_are_rolled():
    with pytest.raises(IllegalAction, match="South has no legal action now"):
        RULES.bot_action(started(), SOUTH)


def test_the_view_shows_every_square_the_goals_the_last_turn_and_the_settings():
    state = rolled(play(rolled(started(max_turns=50), 3, 5), "a1-a4 b1-b6"), 2, 4)
    view = RULES.view(state, SOUTH)
    nest = [{"seat": NORTH, "size": size} for size in (1, 2, 3)]
    board = {f"{file}{rank}": [] for file in "ab" for rank in range(1, 9)}
    board.update(
        a1=[{"seat": SOUTH, "size": 1}, {"seat": SOUTH, "size": 2}],
        b1=[{"seat": SOUTH, "size": 1}, {"seat": SOUTH, "size": 2}],
        a4=[{"seat": SOUTH, "size": 3}],
        b6=[{"seat": SOUTH, "size": 3}],
        a8=nest,
        b8=nest,
    )
    assert view == {
        "game": "martian-frisby",
        "players": ["South", "North"],
        "viewer": SOUTH,
        "files": ["a", "b"],
        "ranks": 8,
        "board": board,
        "goals": {"South": ["a8", "b8"], "North": ["a1", "b1"]},
        "to_move": NORTH,
        "dice": [2, 4],
        "turns": 1,
        "max_turns": 50,
        "change_columns": False,
        "last": {"seat": SOUTH, "action": "a1-a4 b1-b6"},
        "awaiting": [NORTH],
        "finished": False,
        "outcome": None,
    }
    assert RULES.seat_count(state) == 2


def test_the_view_before_the_dice_and_after_the_end():
    fresh = RULES.view(started(change_columns=True), None)
    assert (fresh["dice"], fresh["last"], fresh["awaiting"]) == (None, None, [])
    assert fresh["change_columns"] is True and fresh["to_move"] == SOUTH
    over = step(RULES, rolled(started(), 3, 5), Resigned(SOUTH))
    view = RULES.view(over, None)
    assert view["finished"] is True and view["awaiting"] == []
    assert view["outcome"] == RULES.outcome(over).to_json()


def test_describe_names_the_owner_of_the_piece_nested_on_and_a_win():
    own = position({"a3": "S1", "a1": "S2", "b1": "S3", "a8": "N3"}, dice=(2, 1))
    assert RULES.describe(own, Played(SOUTH, "a1-a3 b1-b2"), None) == (
        "South moves the 2 from a1 to a3 onto South's 1 and the 3 from b1 to b2"
    )
    win = position(
        {"a8": "S1 S2 S3", "b8": "S1 S2", "b5": "S3", "a1": "N1 N2 N3", "b1": "N1 N2 N3"},
        dice=(3, 4),
    )
    assert RULES.describe(win, Played(SOUTH, "b5-b8"), None) == (
        "South moves the 3 from b5 to b8 onto South's 2 and wins"
    )
    assert RULES.describe(win, Played(NORTH, "a1-a5"), None) == "North moves the 3 from a1 to a5"


def test_annotate_gives_the_first_square_and_where_each_move_lands():
    state = rolled(started(), 3, 5)
    assert RULES.annotate(state, SOUTH, "a1-a4 b1-b6") == {"from": "a1", "to": ["a4", "b6"]}
    assert RULES.annotate(state, SOUTH, "b5-b8") == {"from": "b5", "to": ["b8"]}
    assert RULES.annotate(state, SOUTH, "pass") == {}
    assert RULES.annotate(state, SOUTH, "a1-") == {}


def test_a_refused_single_move_says_what_is_wrong_with_it():
    board = position(
        {"a4": "N1 S2", "b5": "S2 N3", "a1": "S1 S2 S3", "b1": "S1", "a8": "N2"}
    ).board
    assert move_error(board, SOUTH, ((0, 0), (0, 3)), False) == (
        "a0-a3: a0 is off the board (files a-b, ranks 1-8)"
    )
    assert move_error(board, SOUTH, ((0, 3), (0, 5)), False) == (
        "a3-a5: there is no piece on a3"
    )
    assert move_error(board, SOUTH, ((0, 8), (0, 5)), False) == (
        "a8-a5: the piece on top of a8 is North's"
    )
    assert move_error(board, NORTH, ((0, 4), (0, 5)), False) == (
        "a4-a5: your 1-pointer on a4 is trapped under South's 2-pointer"
    )
    assert move_error(board, SOUTH, ((1, 5), (1, 6)), False) == (
        "b5-b6: your 2-pointer on b5 is trapped under North's 3-pointer"
    )


def test_with_the_variant_the_bot_wins_by_changing_columns():
    state = position(
        {"a8": "S1 S2 S3", "b8": "S1 S2", "a5": "S3", "a1": "N1 N2 N3", "b1": "N1 N2 N3"},
        dice=(3, 1),
    )
    state = replace(state, change_columns=True)
    assert RULES.bot_action(state, SOUTH) == "a5-b8"


def test_the_rules_refuse_dice_twice_and_a_move_out_of_turn_themselves():
    # engine.step checks these first; the rules refuse them too when applied directly.
    state = rolled(started(), 3, 5)
    with pytest.raises(IllegalAction, match="^the dice are already rolled$"):
        RULES.apply(state, Rolled((1, 2)))
    with pytest.raises(IllegalAction, match="^it is not North's turn to move$"):
        RULES.apply(state, Played(NORTH, "a8-a5 b8-b3"))
    with pytest.raises(IllegalAction, match="^it is not South's turn to move$"):
        RULES.apply(started(), Played(SOUTH, "a1-a4 b1-b6"))


def test_a_single_move_of_neither_die_says_so():
    with pytest.raises(IllegalAction, match="^you rolled 3-5; a1-a2 uses neither die$"):
        play(rolled(started(), 3, 5), "a1-a2")


# South's 3-pointers on b1 and b7 face North's 3 on b4; only a4 is open to them.
COLUMNS_ONLY = {
    "a1": "S1 S2 N3",
    "b1": "S1 S2 S3",
    "b7": "S3",
    "b4": "N3",
    "a8": "N1 N2",
    "b8": "N1 N2",
}


def test_with_the_variant_a_seat_whose_only_turns_change_columns_does_not_pass():
    stacks = COLUMNS_ONLY
    plain = rolled(position(stacks), 3, 3)
    assert plain.last == (SOUTH, "pass") and plain.to_move == NORTH
    variant = rolled(replace(position(stacks), change_columns=True), 3, 3)
    assert variant.dice == (3, 3) and RULES.pending(variant) == Await((SOUTH,), "move")
    assert "b1-a4 a4-a7" in RULES.legal(variant, SOUTH)


# --- the notation's limits, off-board names, and the turns behind a win ----------------------


def test_notation_of_200_characters_is_read_and_of_201_refused_with_its_length():
    turn = "a1-a4 b1-b6".ljust(200)
    assert RULES.parse_action(started(), SOUTH, turn) == "a1-a4 b1-b6"
    with pytest.raises(InvalidAction) as caught:
        RULES.parse_action(started(), SOUTH, turn + " ")
    assert str(caught.value) == (
        "that is 201 characters long; write two moves like 'a1-a4 b1-b6', a single move "
        "only if it wins, or 'pass'"
    )


@pytest.mark.parametrize("text", ["a1-a4 b1-b6 please", "a1 x a4", "go a1-a4 b1-b6"])
def test_squares_among_words_that_are_not_filler_are_refused(text):
    with pytest.raises(InvalidAction, match="^cannot read "):
        RULES.parse_action(started(), SOUTH, text)


@pytest.mark.parametrize("text", ["a", "a0x", "4a", ""])
def test_a_bad_square_is_refused_naming_it(text):
    with pytest.raises(InvalidAction) as caught:
        read_square(text)
    assert str(caught.value) == f"{text!r} is not a square like 'a4'"


@pytest.mark.parametrize(
    ("square", "text"), [((2, 1), "c1"), ((3, 4), "d4"), ((0, 9), "a9"), ((1, 0), "b0")]
)
def test_a_square_off_the_board_is_named_by_its_file_letter_and_rank(square, text):
    board = started().board
    assert move_error(board, SOUTH, (square, (0, 4)), False) == (
        f"{text}-a4: {text} is off the board (files a-b, ranks 1-8)"
    )


def test_a_winning_move_does_not_cut_short_the_other_turns_of_the_same_die():
    # South's a7-a8 (a 1) wins; every other turn of the double 1 is still a legal turn.
    state = position(
        {"a7": "S3", "a8": "S1 S2", "b8": "S1 S2 S3", "a1": "N1 N2 N3", "b1": "N1 N2 N3"},
        dice=(1, 1),
    )
    assert RULES.legal(state, SOUTH) == (
        "a7-a6 a6-a5",
        "a7-a6 a8-a7",
        "a7-a6 b8-b7",
        "a7-a8",
        "b8-b7 a7-a8",
        "b8-b7 b7-b6",
    )


def test_with_the_variant_the_second_move_may_change_columns_too():
    legal = RULES.legal(rolled(started(change_columns=True), 3, 5), SOUTH)
    # a1-a4 then b1-a6 ends as b1-a6 then a1-a4 does; the list shows the first in order.
    assert "a1-a4 b1-a6" in legal and "b1-a6 a1-a4" not in legal


def test_a_finished_game_takes_no_event_and_no_game_of_frisby_takes_a_shuffle():
    over = step(RULES, rolled(started(), 3, 5), Resigned(SOUTH))
    for event in (Rolled((1, 2)), Played(NORTH, "a8-a5 b8-b3"), Resigned(NORTH)):
        with pytest.raises(IllegalAction, match="^the game is over$"):
            RULES.apply(over, event)
    with pytest.raises(IllegalAction, match="^Martian Frisby has no use for Shuffled$"):
        RULES.apply(started(), Shuffled((1, 0)))


def test_a_refused_move_of_a_turn_lists_the_movers_legal_turns():
    hint = (
        "legal turns include a1-a4 a1-a6, a1-a4 b1-b6, a1-a6 a1-a4, a1-a6 a6-a3, "
        "a1-a6 b1-b4 and 3 more"
    )
    state = rolled(started(), 3, 5)
    refusals = {
        "a1-a4 a4-a9": f"a4-a9: a9 is off the board (files a-b, ranks 1-8) ({hint})",
        "a1-a4": "a turn is two moves, one for each die (3-5); a single move is only "
        f"complete when it wins ({hint})",
    }
    for turn, message in refusals.items():
        assert refusal(state, turn) == message
    assert refusal(rolled(started(), 2, 2), "a1-a3 a3-a1") == (
        "a1-a3 a3-a1 leaves the board as it was; the second move may not undo the first "
        "(legal turns include a1-a3 a3-a5, a1-a3 b1-b3, b1-b3 b3-b5)"
    )


def test_with_the_variant_a_refused_pass_names_a_turn_that_changes_columns():
    # With the variant every turn of South's 3-3 changes columns.
    state = rolled(replace(position(COLUMNS_ONLY), change_columns=True), 3, 3)
    message = refusal(state, "pass")
    prefix = "you cannot pass: you rolled 3-3 and can play "
    assert message.startswith(prefix)
    example = message.removeprefix(prefix)
    assert play(state, example).last == (SOUTH, example)
