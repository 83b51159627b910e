"""Mad Dog v3.1: the push distances of the rulebook's examples, the presets, the Dog phase."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine import Await, Finished, IllegalAction, Played, Roll, Rolled, SetupError, step
from engine.games.mad_dog import RULES
from engine.games.mars import MarsState, Piece, parse_square
from engine.games.mars.geometry import BOARD, DESTROYED, FINISHED, RESERVE, UP
from engine.games.martian_race import RULES as RACE
from engine.testing import chance_event

GREY, BLACK, WHITE = 0, 1, 2  # the rulebook's colours, played by seats Red, Blue, Green
FACINGS = {"^": 0, "n": 1, "e": 2, "s": 3, "w": 4}


def position(
    spec: dict[str, str],
    *,
    seats: int = 3,
    dice: tuple[int, ...] | None = None,
    to_move: int = GREY,
    finished: dict[int, int] | None = None,
    destroyed: dict[int, int] | None = None,
    dog: tuple[int, str, str] | None = None,
    victims: int = 0,
    rules=RULES,
    preset: str | None = None,
    **options: object,
) -> MarsState:
    """A state from {"c4": "rSe"} (colour r/b/g/y, size S/M/L, ^ or compass); dog=(seat, sq, f)."""
    state = rules.start(seats, rules.resolve_options(options, preset))
    board: dict[int, list[Piece]] = {s: [] for s in range(seats)}
    for square, text in spec.items():
        for token in text.split():
            seat = "rbgyp".index(token[0])
            board[seat].append(
                Piece(seat, " SML".index(token[1]), BOARD, parse_square(square), FACINGS[token[2]])
            )
    done, lost = finished or {}, destroyed or {}
    martians = max(
        [state.params.martians]
        + [len(board[s]) + done.get(s, 0) + lost.get(s, 0) for s in range(seats)]
    )
    pieces: list[Piece] = []
    for seat in range(seats):
        mine = board[seat] + [Piece(seat, 3, FINISHED)] * done.get(seat, 0)
        mine += [Piece(seat, 1, DESTROYED)] * lost.get(seat, 0)
        mine += [Piece(seat, 1, RESERVE)] * (martians - len(mine))
        pieces.extend(mine)
    dog_state = None
    winner = None
    if dog is not None:
        dog_state = (dog[0], parse_square(dog[1]), FACINGS[dog[2]])
        winner = dog[0]
    return replace(
        state,
        params=replace(state.params, martians=martians),
        pieces=tuple(pieces),
        dog=dog_state,
        winner=winner,
        victims=victims,
        to_move=to_move,
        roll=dice,
        dice=dice or (),
    )


def play(state: MarsState, text: str, seat: int | None = None, rules=RULES) -> MarsState:
    pending = rules.pending(state)
    assert isinstance(pending, Await), pending
    seat = pending.seats[0] if seat is None else seat
    return step(rules, state, Played(seat, rules.parse_action(state, seat, text)))


def on(state: MarsState, square: str) -> list[str]:
    q = parse_square(square)
    return sorted(
        "rbgyp"[p.owner] + " SML"[p.size] + "^nesw"[p.facing]
        for p in state.pieces
        if p.status == BOARD and p.square == q
    )


def dog_square(state: MarsState) -> str | None:
    return None if state.dog is None else "abcdefgh"[state.dog[1] % 8] + str(state.dog[1] // 8 + 1)


# --- the rulebook's worked examples ----------------------------------------------------------


def test_md_t1_a_lying_arrival_pushes_each_lying_occupant_two():
    state = position({"b4": "rSe", "d4": "bSn bSn", "d6": "gS^"}, dice=(2, 5))
    # Canonical paths take the first route to each end; the rulebook's W-then-N is as good.
    assert "2: b4 F2 x bS:NN x bS:NW" in RULES.legal(state, GREY)
    state = play(state, "2: b4 F2 x bS:NN x bS:WN")
    assert on(state, "d4") == ["rSe"]
    assert on(state, "c5") == ["bSn"]
    assert on(state, "d6") == ["bSn", "gS^"]
    assert RULES.pending(state) == Await((BLACK,), "push")


def test_md_t2_a_lying_arrival_pushes_a_standing_piece_of_its_size_one():
    state = play(
        position({"b4": "rSe", "d4": "bSn bSn", "d6": "gS^"}, dice=(2, 5)),
        "2: b4 F2 x bS:NN x bS:WN",
    )
    options = RULES.legal(state, BLACK)
    assert options and all(len(o.split(":")[1]) == 1 for o in options)
    state = play(state, "x gS:N", seat=BLACK)
    assert on(state, "d7") == ["gS^"]
    assert RULES.pending(state) == Await((GREY,), "move")


def test_md_t3_a_corner_occupant_with_nowhere_to_go_makes_the_arrival_illegal():
    state = position(
        {"h1": "bM^", "g1": "rS^ rSe", "h2": "gS^ gS^", "f1": "rSe"},
        dice=(2, 5),
        preset="tournament",
    )
    assert state.params.goal1 == parse_square("h1")
    with pytest.raises(IllegalAction, match="may not end on h1"):
        play(state, "2: f1 F2")


def test_md_t4_the_dog_reduces_a_large_to_a_medium_and_pushes_it_three():
    state = position(
        {"d4": "rLn"}, dice=(2, 5), to_move=BLACK, dog=(BLACK, "b4", "e"), finished={BLACK: 4}
    )
    actions = [a for a in RULES.legal(state, BLACK) if a.startswith("2: dog F2")]
    assert actions and all(len(a.split(":")[-1]) == 3 for a in actions)
    state = play(state, "2: dog F2 x rM:NNN")
    assert dog_square(state) == "d4"
    assert on(state, "d7") == ["rMn"]


def md_t5_start() -> MarsState:
    return position(
        {"d4": "rLn", "d7": "gSe gMe", "e6": "rSw"},
        dice=(2, 5),
        to_move=BLACK,
        dog=(BLACK, "b4", "e"),
        finished={BLACK: 4},
    )


def test_md_t5_a_pushed_mother_pushes_in_turn_and_may_send_an_enemy_onto_the_dog():
    state = play(md_t5_start(), "2: dog F2 x rM:NNN")
    assert RULES.pending(state) == Await((GREY,), "push")
    options = RULES.legal(state, GREY)
    assert all(len(c.split(":")[1]) in (2, 3) for o in options for c in o.split(" x ")[1:])
    # Grey pushes White's small 3 (1 + lying + bigger) and the medium 2 (1 + lying).
    state = play(state, "x gM:ES x gS:SSS", seat=GREY)
    assert on(state, "e6") == ["gMe", "rSw"]
    assert RULES.pending(state) == Await((WHITE,), "push")
    state = play(state, RULES.legal(state, WHITE)[0], seat=WHITE)
    assert on(state, "d4") == []
    assert state.victims == 1
    assert sum(p.owner == WHITE and p.status == DESTROYED for p in state.pieces) == 1


def test_describe_names_the_seat_that_runs_the_dog():
    move = Played(BLACK, "2: dog F2 x rM:NNN")
    for viewer in (None, GREY, BLACK, WHITE):
        assert RULES.describe(md_t5_start(), move, viewer) == (
            "Blue moves the Mad Dog from b4 to d4, lying east (2 steps of a 2), pushing Red's "
            "medium 3 squares (NNN)"
        )


def test_the_last_line_tells_the_dog_move_and_every_push_answer_in_order():
    state = play(md_t5_start(), "2: dog F2 x rM:NNN")
    state = play(state, "x gM:ES x gS:SSS", seat=GREY)
    state = play(state, "x rS:NNE", seat=WHITE)
    last = RULES.view(state, None)["last"]
    assert last["text"].split("; ") == [
        "Blue moves the Mad Dog from b4 to d4, lying east (2 steps of a 2), pushing Red's "
        "medium 3 squares (NNN)",
        "Red pushes Green's medium 2 squares (ES), Green's small 3 squares (SSS)",
        "Green pushes Red's small 3 squares (NNE)",
    ]
    assert (last["seat"], last["action"]) == (WHITE, "x rS:NNE")


def test_md_t10_the_queue_processes_arrivals_in_order_not_recursively():
    state = play(md_t5_start(), "2: dog F2 x rM:NNN")
    grey = next(i for i, p in enumerate(state.pieces) if p.owner == GREY and p.size == 2)
    assert state.queue == ((grey, parse_square("d7")),)
    state = play(state, "x gM:ES x gS:SSS", seat=GREY)
    white_m = next(i for i, p in enumerate(state.pieces) if p.owner == WHITE and p.size == 2)
    white_s = next(i for i, p in enumerate(state.pieces) if p.owner == WHITE and p.size == 1)
    # White's medium arrives on Grey's small and White must choose; the small still waits on
    # the Dog's square, not yet attacked.
    assert state.queue == ((white_m, parse_square("e6")), (white_s, parse_square("d4")))
    assert state.pieces[white_s].status == BOARD and on(state, "d4") == ["gSe"]
    assert state.victims == 0
    state = play(state, RULES.legal(state, WHITE)[0], seat=WHITE)
    assert state.pieces[white_s].status == DESTROYED and state.victims == 1


def md_t6_start() -> MarsState:
    return position(
        {"d4": "rL^", "d6": "gM^"},
        dice=(2, 5),
        to_move=BLACK,
        dog=(BLACK, "b4", "e"),
        finished={BLACK: 4},
    )


def test_md_t6_the_dog_reduces_a_standing_large_and_pushes_it_two():
    state = md_t6_start()
    # Grey becomes a standing medium and is pushed 2 (1 + Dog bigger) onto White's medium.
    actions = [a for a in RULES.legal(state, BLACK) if a.startswith("2: dog F2")]
    assert actions and all(a.split(" x ")[1].startswith("rM:") for a in actions)
    assert all(len(a.split(":")[-1]) == 2 for a in actions)
    state = play(state, "2: dog F2 x rM:NN")
    assert on(state, "d6") == ["gM^", "rM^"]
    assert RULES.pending(state) == Await((GREY,), "push")


def test_md_t7_a_mother_pushed_onto_the_dog_is_reduced_and_pushed_by_the_dog():
    state = play(md_t6_start(), "2: dog F2 x rM:NN")
    # Grey (standing medium) pushes White (standing medium) 2 (1 + A standing), onto the Dog.
    options = RULES.legal(state, GREY)
    assert "x gM:SS" in options and all(len(o.split(":")[1]) == 2 for o in options)
    state = play(state, "x gM:SS", seat=GREY)
    # White is reduced to a small; the Dog (Black) pushes it 2 (1 + Dog bigger).
    assert RULES.pending(state) == Await((BLACK,), "push")
    assert on(state, "d4") == ["gS^"]
    options = RULES.legal(state, BLACK)
    assert "x gS:NN" in options and all(len(o.split(":")[1]) == 2 for o in options)
    # Black sends it back to Grey's square, where White now pushes Grey.
    state = play(state, "x gS:NN", seat=BLACK)
    assert on(state, "d6") == ["gS^", "rM^"]
    assert RULES.pending(state) == Await((WHITE,), "push")


def test_md_t8_the_pushed_owner_may_push_onto_the_dog_or_elsewhere():
    state = play(md_t6_start(), "2: dog F2 x rM:NN")
    state = play(state, "x gM:SS", seat=GREY)
    state = play(state, "x gS:NN", seat=BLACK)
    options = RULES.legal(state, WHITE)
    # White (standing small) arrives on Grey (standing medium): push 2 (1 + A standing).
    assert "x rM:NE" in options and "x rM:SS" in options
    onto_dog = play(state, "x rM:SS", seat=WHITE)
    assert on(onto_dog, "d4") in ([], ["rS^"])  # Grey reduced, then pushed on by the Dog
    elsewhere = play(state, "x rM:EN", seat=WHITE)
    assert on(elsewhere, "e7") == ["rM^"]
    assert on(elsewhere, "d6") == ["gS^"]


def test_md_t9_tournament_scoring_grey_4_white_3_black_10():
    state = position(
        {"g7": "rLe"},
        dice=(2, 5),
        finished={GREY: 3, BLACK: 4, WHITE: 3},
        destroyed={WHITE: 1},
        dog=(BLACK, "c3", "^"),
        victims=1,
    )
    state = play(state, "2: g7 F U")
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.scores == (4.0, 10.0, 3.0)
    assert outcome.ranks == (2, 1, 3)
    assert "Red 4, Blue 10, Green 3" in outcome.reason


def test_md_t11_my_faves_one_standing_and_one_lying_are_vulnerable_two_standing_block():
    state = position(
        {"d4": "rM^ rMe", "b5": "gS^ gS^"},
        dice=(2, 3),
        to_move=BLACK,
        dog=(BLACK, "b4", "e"),
        finished={BLACK: 5},
        preset="my_faves",
    )
    assert (state.params.block_partial_min, state.params.block_total_min) == (4, 4)
    actions = RULES.legal(state, BLACK)
    assert any(a.startswith("2: dog F2 x") for a in actions)  # strength 3: the Dog may land
    with pytest.raises(IllegalAction, match="b5 is totally blocked"):
        play(state, "2: dog N F")
    standard = replace(state, params=replace(state.params, block_partial_min=3))
    with pytest.raises(IllegalAction, match="d4 is partially blocked"):
        play(standard, "2: dog F2")


def test_md_t12_with_the_beginning_preset_the_dog_destroys_any_mother():
    state = position(
        {"d4": "rLn"},
        dice=(2, 5),
        to_move=BLACK,
        dog=(BLACK, "b4", "e"),
        finished={BLACK: 3},
        preset="beginning",
    )
    assert state.params.dog_reduce_by == 3
    assert "2: dog F2" in RULES.legal(state, BLACK)
    state = play(state, "2: dog F2")
    assert on(state, "d4") == [] and state.victims == 1


# --- the Mad Dog phase -----------------------------------------------------------------------


def test_the_first_to_finish_releases_the_dog_on_the_kennel_and_the_turn_ends():
    state = position({"g7": "rLe", "c3": "bSn"}, seats=2, dice=(2, 5), finished={GREY: 4})
    state = play(state, "2: g7 F U")
    assert RULES.pending(state) == Roll(2)
    assert state.winner == GREY and state.to_move == BLACK
    assert state.dog == (GREY, parse_square("h7"), UP)
    assert sum(p.status == FINISHED for p in state.pieces if p.owner == GREY) == 5
    state = step(RULES, state, Rolled((1, 1)))
    state = play(state, "1: c3 F")
    state = play(state, "1: c4 F")
    assert state.to_move == GREY
    state = step(RULES, state, Rolled((3, 4)))
    assert all(a.startswith(("3: dog", "4: dog")) for a in RULES.legal(state, GREY))


def test_the_dog_ignores_gates_and_one_per_colour_but_never_ends_on_a_partial_block():
    state = position(
        {"a3": "bS^ bSe"}, seats=2, dice=(2, 5), dog=(GREY, "c2", "w"), finished={GREY: 5}
    )
    assert "2: dog F2" in RULES.legal(state, GREY)  # onto the Well, a gate for smalls
    with pytest.raises(IllegalAction, match="a3 is partially blocked"):
        play(state, "5: dog F2 N F U")


def test_the_phase_ends_when_every_mother_is_finished_or_destroyed():
    state = position(
        {"e4": "gSn"},
        dice=(1, 5),
        to_move=BLACK,
        dog=(BLACK, "d4", "e"),
        finished={GREY: 4, BLACK: 4, WHITE: 3},
    )
    state = play(state, "1: dog F")
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores == (4.0, 10.0, 3.0)


def test_the_optional_round_limit_ends_the_phase():
    state = position(
        {"e6": "gSn"},
        seats=3,
        dice=(1, 1),
        to_move=BLACK,
        dog=(BLACK, "a1", "e"),
        finished={GREY: 4, BLACK: 4, WHITE: 3},
        dog_phase_round_limit=1,
    )
    state = play(state, "1: dog N")
    state = play(state, "1: dog E")
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.reason.startswith("ended by the 1-round Mad Dog phase limit: ")


def test_random_play_in_the_dog_phase_keeps_every_mother_and_ends():
    for seed in range(3):
        rng = random.Random(seed)
        state = position(
            {"d4": "rSn", "e5": "gMe", "c6": "rL^", "f3": "gS^", "b2": "rMs"},
            dice=None,
            to_move=BLACK,
            dog=(BLACK, "h7", "^"),
            finished={BLACK: 4},
            stall_rounds=6,
        )
        total = len(state.pieces)
        while not isinstance(pending := RULES.pending(state), Finished):
            if isinstance(pending, Await):
                seat = pending.seats[0]
                actions = RULES.legal(state, seat)
                assert actions
                state = step(RULES, state, Played(seat, actions[rng.randrange(len(actions))]))
            else:
                state = step(RULES, state, chance_event(rng, pending))
            assert len(state.pieces) == total
            assert state.dog is not None
            assert json.loads(json.dumps(RULES.dump(state))) == RULES.dump(state)
        assert RULES.outcome(state) is not None


def test_the_view_shows_the_dog_its_victims_and_the_mothers():
    state = position(
        {"d4": "rLn"},
        dice=(2, 5),
        to_move=BLACK,
        dog=(BLACK, "b4", "e"),
        finished={BLACK: 4},
        victims=2,
    )
    view = RULES.view(state, None)
    assert json.loads(json.dumps(view)) == view
    assert view["dog"] == {
        "square": "b4",
        "seat": BLACK,
        "colour": "Blue",
        "facing": "E",
        "standing": False,
    }
    assert view["victims"] == 2 and view["winner"] == BLACK
    assert [s["name"] for s in view["specials"]] == ["Home", "Market", "Well", "Kennel"]
    assert view["piece_word"] == "Mother"


# --- presets and options -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "seats", "mothers", "squares", "reduce", "blocks"),
    [
        ("standard", 2, 5, ("a7", "h2", "a2", "h7"), 1, (3, 4)),
        ("standard", 4, 3, ("a7", "h2", "a2", "h7"), 1, (3, 4)),
        ("beginning", 2, 4, ("b7", "g2", "b2", "g7"), 3, (3, 4)),
        ("beginning", 3, 3, ("b7", "g2", "b2", "g7"), 3, (3, 4)),
        ("tournament", 4, 5, ("a8", "h1", "a1", "h8"), 1, (3, 4)),
        ("my_faves", 4, 4, ("a7", "h1", "a1", "h7"), 1, (4, 4)),
        ("my_faves", 3, 5, ("a7", "h1", "a1", "h7"), 1, (4, 4)),
    ],
)
def test_the_presets_are_the_settable_parameters_table(
    preset, seats, mothers, squares, reduce, blocks
):
    params = RULES.start(seats, RULES.resolve_options(None, preset)).params
    assert params.martians == mothers
    assert params.specials == tuple(parse_square(s) for s in squares)
    assert params.dog_reduce_by == reduce
    assert (params.block_partial_min, params.block_total_min) == blocks
    assert params.push_formula == "MD" and params.exact_steps and params.dog_phase


def test_each_parameter_is_settable_on_its_own():
    params = RULES.start(2, {"dog_reduce_by": 2, "kennel": "G7", "mothers": "3/3/3"}).params
    assert params.dog_reduce_by == 2 and params.goal3 == parse_square("g7")
    assert params.martians == 3 and params.home == parse_square("a7")
    faves = RULES.start(2, RULES.resolve_options({"dog_reduce_by": 2}, "my_faves")).params
    assert faves.dog_reduce_by == 2 and faves.block_partial_min == 4


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mothers": "5/4"}, "option 'mothers'"),
        ({"mothers": "9/4/3"}, "option 'mothers'"),
        ({"home": "z9"}, "option 'home': 'z9' is not a square"),
        ({"market": "a7"}, "the four squares must differ"),
        ({"dog_reduce_by": 4}, "option 'dog_reduce_by': 4 is above 3"),
    ],
)
def test_bad_mad_dog_options_name_the_option(options, message):
    with pytest.raises(SetupError, match=message):
        RULES.start(2, options)


def test_mad_dog_is_played_by_two_to_four():
    with pytest.raises(SetupError, match="played by 2, 3, 4 players"):
        RULES.start(5)


def test_exact_steps_are_the_mad_dog_default():
    state = step(RULES, RULES.start(2), Rolled((5, 2)))
    with pytest.raises(IllegalAction, match="exactly the die"):
        play(state, "5: +E F2")
    assert all(len(a.split()) >= 2 for a in RULES.legal(state, GREY))


# --- the phase as a Martian Race option ------------------------------------------------------


def test_martian_race_with_the_mad_dog_phase_releases_the_dog_and_keeps_the_mr_formula():
    state = position(
        {"g7": "rLe", "c3": "bSn"},
        seats=2,
        dice=(2, 5),
        finished={GREY: 4},
        rules=RACE,
        mad_dog_phase=True,
    )
    assert state.params.push_formula == "MR" and state.params.dog_phase
    state = play(state, "2: g7 F U", rules=RACE)
    assert RACE.outcome(state) is None
    assert state.dog == (GREY, parse_square("h7"), UP)
    plain = position(
        {"g7": "rLe", "c3": "bSn"}, seats=2, dice=(2, 5), finished={GREY: 4}, rules=RACE
    )
    assert RACE.outcome(play(plain, "2: g7 F U", rules=RACE)) is not None


def test_martian_race_dog_attack_uses_the_mr_formula():
    state = position(
        {"d4": "bLn"},
        seats=2,
        dice=(2, 5),
        dog=(GREY, "b4", "e"),
        finished={GREY: 5},
        rules=RACE,
        mad_dog_phase=True,
    )
    actions = [a for a in RACE.legal(state, GREY) if a.startswith("2: dog F2")]
    # MR: 1 + [Dog bigger than the reduced medium] + [Dog standing and O lying: no] = 2.
    assert actions and all(len(a.split(":")[-1]) == 2 for a in actions)


def test_house_bots_play_a_beginning_game_through_the_mad_dog_phase():
    rng = random.Random(1)
    state = RULES.start(2, RULES.resolve_options(None, "beginning"))
    while not isinstance(pending := RULES.pending(state), Finished):
        if isinstance(pending, Await):
            seat = pending.seats[0]
            state = step(RULES, state, Played(seat, RULES.bot_action(state, seat)))
        else:
            state = step(RULES, state, chance_event(rng, pending))
    outcome = RULES.outcome(state)
    assert outcome is not None and "every Mother has finished or been destroyed" in outcome.reason
    assert state.winner is not None and state.dog is not None
    winner = state.winner
    finished = sum(p.owner == winner and p.status == FINISHED for p in state.pieces)
    assert outcome.scores[winner] == finished + 5 + state.victims
