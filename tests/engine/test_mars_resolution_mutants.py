"""Push resolution checked piece by piece: the refusals of a named push, the repetition guard
between look-alike pieces, the Dog's attack, and the ends of a paused resolution.

Written against the surviving mutants of engine/games/mars/resolution.py (docs/mutants/
mars-resolution.md); rules as summarised in docs/rulings.md (Pushes, Not in the rulebooks).
"""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.games.mars import MarsState, moves, parse_square
from engine.games.mars.geometry import BOARD, DESTROYED, DOG
from engine.games.mars.notation import Clause
from engine.games.mars.position import Pos
from engine.games.mars.resolution import Resolution
from engine.games.mars.state import to_pos
from tests.engine.test_mad_dog import position as dog_position
from tests.engine.test_martian_race import on, play, position
from tests.engine.test_movement import pos_of

RED, BLUE, GREEN = 0, 1, 2


def refusal(state: MarsState, text: str) -> str:
    """What IllegalAction says when the awaited seat plays text."""
    with pytest.raises(IllegalAction) as caught:
        play(state, text)
    return str(caught.value)


# --- what a refused push clause says --------------------------------------------------------


def test_a_clause_for_a_piece_not_on_the_square_names_it_and_the_square():
    state = position({"d4": "bSe", "d3": "rSn"}, seats=3, dice=(1, 6))
    assert refusal(state, "1: d3 F x gS:N") == "there is no Green's small to push on d4 (x gS:N)"


def test_a_clause_between_two_facings_shows_the_standing_form_of_itself():
    state = position({"d4": "bSe bSn", "d2": "rMn"}, dice=(2, 6))
    assert refusal(state, "2: d2 F2 x bS:NN x bS:EE") == (
        "Blue's small on d4 is not one piece; add ^ (standing) or the compass letter it "
        "points to, like x bS^:NN"
    )


def test_a_piece_with_no_push_at_all_is_named_with_the_square_it_is_on():
    # The clause covers every occupant, so the move is not refused before the push.
    state = position({"a1": "bSn", "b1": "gS^ gS^", "a2": "rMs"}, seats=3, dice=(1, 6))
    assert refusal(state, "1: a2 F x bS:E") == "Blue's small cannot be pushed anywhere from a1"


def test_a_push_shorter_than_its_distance_is_refused_naming_both_and_six_paths():
    # A lying medium onto a lying small pushes it 2 squares; 12 paths, the first 6 shown.
    state = position({"d4": "bSe", "d2": "rMn"}, dice=(2, 6))
    assert refusal(state, "2: d2 F2 x bS:N") == (
        "Blue's small must be pushed exactly 2 squares, not 1 (legal paths: EE, EN, ES, NE, NN, NW)"
    )
    assert on(play(state, "2: d2 F2 x bS:NN"), "d6") == ["bSe"]


@pytest.mark.parametrize(
    ("spec", "text", "path"),
    [
        # Back to the square pushed from.
        ({"d4": "bSe", "d2": "rMn"}, "2: d2 F2 x bS:NS", "NS"),
        # Through d5 twice: a standing large pushes a lying small 3 squares.
        ({"d4": "bSe", "d3": "rLn"}, "2: d3 F U x bS:NEW", "NEW"),
        # Off the board at once.
        ({"a4": "bSe", "a3": "rLn"}, "2: a3 F U x bS:WNN", "WNN"),
    ],
)
def test_a_full_length_path_that_revisits_a_square_or_leaves_the_board_is_refused(spec, text, path):
    message = refusal(position(spec, dice=(2, 6)), text)
    assert message.startswith(f"Blue's small cannot be pushed along {path} (legal paths: ")


def test_a_push_may_pass_but_not_end_on_a_partially_blocked_square():
    # Green's standing and lying smalls on d5 (strength 3) block it partially for Blue.
    state = position({"d4": "bSe", "d3": "rSn", "d5": "gS^ gSe"}, seats=3, dice=(1, 6))
    assert refusal(state, "1: d3 F x bS:N") == (
        "Blue's small cannot be pushed along N (legal paths: E, S, W)"
    )
    # A standing large pushes it 3: through d5 is allowed.
    state = position({"d4": "bSe", "d3": "rLn", "d5": "gS^ gSe"}, seats=3, dice=(2, 6))
    assert on(play(state, "2: d3 F U x bS:NNE"), "e6") == ["bSe"]


def test_a_push_may_not_end_where_it_could_not_push_the_occupant_on():
    # Green's small on a5 could go nowhere: a6 and b5 are Yellow's, a4 is partially Red's.
    state = position(
        {"a4": "bSe rS^", "a3": "rSn", "a5": "gSe", "a6": "yS^ yS^", "b5": "yS^ yS^"},
        seats=4,
        dice=(1, 6),
    )
    assert refusal(state, "1: a3 F x bS:N") == (
        "Blue's small cannot be pushed along N (legal paths: E, S)"
    )


# --- the repetition guard ----------------------------------------------------------------------


def paused_on_d4(spec: dict[str, str], seen_with: dict[int, str]) -> Resolution:
    """Red's piece 0 has arrived on d4 and pushes next; the chain has already seen the position
    with the given pieces moved (and two other positions, so the guard is on)."""
    pos = pos_of(spec)
    d4 = parse_square("d4")
    for piece, square in seen_with.items():
        pos.square[piece] = parse_square(square)
    seen = pos.key()
    for piece in seen_with:
        pos.square[piece] = d4
    return Resolution(pos, [(0, d4)], 1, [(), (), seen], None)


def test_a_named_push_back_into_a_seen_position_is_refused():
    res = paused_on_d4({"d4": "rSe bSe"}, {1: "d5"})
    with pytest.raises(IllegalAction, match=r"cannot be pushed along N \(legal paths: E, S, W\)"):
        res.run((Clause(BLUE, 1, None, "N"),))
    res = paused_on_d4({"d4": "rSe bSe"}, {1: "d5"})
    assert res.run((Clause(BLUE, 1, None, "E"),))
    assert res.pos.square[1] == parse_square("e4")


def test_of_two_look_alike_pieces_the_one_the_guard_lets_go_is_pushed():
    res = paused_on_d4({"d4": "rSe bSe bSe"}, {1: "d5"})
    assert res.run((Clause(BLUE, 1, None, "N"), Clause(BLUE, 1, None, "E")))
    assert res.pos.square[2] == parse_square("d5")
    assert res.pos.square[1] == parse_square("e4")


def test_a_bad_path_for_two_look_alike_pieces_is_refused_as_a_bad_path():
    res = paused_on_d4({"d4": "rSe bSe bSe"}, {1: "d5"})
    with pytest.raises(IllegalAction, match="must be pushed exactly 1 square, not 2"):
        res.run((Clause(BLUE, 1, None, "NN"), Clause(BLUE, 1, None, "E")))


# --- the Dog's attack ---------------------------------------------------------------------------


def test_the_dog_destroys_and_reduces_counting_victims_and_progress():
    state = dog_position({"d4": "gSe rSe gMe"}, dog=(BLUE, "d3", "n"), victims=2)
    pos = to_pos(state)
    d4 = parse_square("d4")
    pos.dog_square = d4
    res = Resolution(pos, [(DOG, d4)], 0, [], BLUE)
    res.run()
    assert res.notes[:3] == [
        "the Dog destroys Red's small",
        "the Dog destroys Green's small",
        "the Dog reduces Green's medium to a small",
    ]
    assert pos.victims == 4
    assert res.progress == 2


# --- the ends of a paused resolution -------------------------------------------------------


def board_piece(pos: Pos, owner: int) -> int:
    """The first piece of a seat on the board."""
    return next(
        i
        for i, (o, s) in enumerate(zip(pos.owner, pos.status, strict=True))
        if o == owner and s == BOARD
    )


def test_a_mother_arriving_on_the_dog_is_bitten_once_pushes_then_is_pushed_by_the_dog():
    # Red's lying medium comes to d4, where the Dog stands over Green's lying small: the Dog
    # bites it to a small, it pushes Green's small 2 squares (Red chooses), then the Dog
    # pushes it 4 squares (Blue chooses). Every end has both off d4, Red's still a small.
    state = dog_position({"d4": "gSe", "d3": "rMn"}, dog=(BLUE, "d4", "^"))
    pos = to_pos(state)
    d4 = parse_square("d4")
    red, green = board_piece(pos, RED), board_piece(pos, GREEN)
    before = pos.key()
    pos.square[red] = d4
    res = Resolution(pos, [(red, d4)], 0, [before, pos.key()], BLUE)
    res.moving = True
    assert not res.run()
    assert res.decision() == (red, d4, [green]) and res.chooser() == RED
    ends = list(moves.finals(res, False))
    assert len(ends) > 1
    for final in ends:
        assert final.pos.status[red] == BOARD and final.pos.size[red] == 1
        assert final.pos.square[red] != d4 and final.pos.square[green] != d4


def test_the_dogs_own_move_pushes_every_occupant_off_in_every_end():
    state = dog_position({"d4": "gMe"}, dog=(BLUE, "d3", "n"))
    pos = to_pos(state)
    d4 = parse_square("d4")
    green = board_piece(pos, GREEN)
    pos.dog_square = d4
    res = Resolution(pos, [(DOG, d4)], 0, [], BLUE)
    assert not res.run()
    assert res.decision() == (DOG, d4, [green]) and res.chooser() == BLUE
    ends = list(moves.finals(res, False))
    assert len({final.pos.square[green] for final in ends}) == 16  # every path of 3 squares
    assert all(final.pos.size[green] == 1 for final in ends)


@pytest.mark.parametrize(
    "spec",
    [
        # Blue's large on a1 can go nowhere (a2 is the mediums' goal, b1 is Green's); its
        # medium can: the first choice still pushes the medium.
        {"a1": "rSe bLe bMe", "b1": "gS^ gS^"},
        {"d4": "rMe bSe bSn gS^"},
    ],
)
def test_the_first_choice_is_the_first_of_the_options(spec):
    pos = pos_of(spec)
    square = pos.square[0]
    res = Resolution(pos, [(0, square)], 1, [], None)
    decision = res.decision()
    assert res.first_choice(*decision) == res.options(*decision)[0]
    assert res.first_choice(*decision).clauses


def test_each_push_and_growth_is_noted_in_order():
    # Red's small comes to g2, pushes Blue's standing small onto h2, where it grows.
    pos = pos_of({"g2": "rSe bS^"})
    g2 = parse_square("g2")
    res = Resolution(pos, [(0, g2)], 0, [(), ()], None)
    assert res.run((Clause(BLUE, 1, None, "E"),))
    assert res.notes == ["Blue's small is pushed to h2", "Blue's small grows"]
    assert res.progress == 1


@pytest.mark.parametrize("answer", [(Clause(BLUE, 1, None, "E"),), None])
def test_a_reduced_push_is_noted_whether_named_or_made_for_the_player(answer):
    # A standing large pushes a lying small 3 squares, reduced to 1: only b1 is open.
    pos = pos_of({"a1": "rL^ bSn", "c1": "gS^ gS^", "b2": "gS^ gS^"})
    res = Resolution(pos, [(0, parse_square("a1"))], 0, [(), ()], None)
    assert res.run(answer)
    assert res.notes == ["Blue's small is pushed to b1"]


# --- occupants left out of the clauses, and the pauses ---------------------------------------


def test_an_unnamed_occupant_with_two_ends_must_be_named_like_its_first_path():
    # Green blocks d5 and c4 for Blue: each Blue piece may go east or back south.
    state = position(
        {"d4": "bSe bMe", "d3": "rSn", "d5": "gS^ gS^", "c4": "gS^ gS^"}, seats=3, dice=(1, 6)
    )
    assert refusal(state, "1: d3 F x bS:E") == (
        "say where Blue's medium on d4 is pushed, like x bM:E"
    )


def test_an_unnamed_occupant_with_one_end_is_pushed_there_and_noted():
    pos = pos_of({"d4": "rSe bSe bMe", "d5": "gS^ gS^", "c4": "gS^ gS^", "d3": "gS^ gS^"})
    res = Resolution(pos, [(0, parse_square("d4"))], 0, [(), ()], None)
    assert res.run((Clause(BLUE, 1, None, "E"),))
    assert res.notes == ["Blue's small is pushed to e4", "Blue's medium is pushed to e4"]
    assert res.progress == 0


def test_a_chained_push_with_one_end_is_made_without_asking():
    # Blue's small, pushed onto d5, must push Green's small on: only e5 is open to it (d6
    # and c5 are Yellow's, d4 is partially Red's). Nobody is asked; Red plays on.
    state = position(
        {"d4": "bSe rS^", "d3": "rSn", "d5": "gSe", "d6": "yS^ yS^", "c5": "yS^ yS^"},
        seats=4,
        dice=(1, 6),
    )
    after = play(state, "1: d3 F x bS:N")
    assert on(after, "e5") == ["gSe"] and on(after, "d5") == ["bSe"]
    assert after.chooser is None and after.dice == (6,)


def test_two_look_alike_pieces_and_a_third_racing_for_one_home_square_make_two_choices():
    # Home (a7) holds one piece per colour and b8 is Green's: whichever Blue piece is pushed
    # first takes a7 and the others stay on a8. Two outcomes, so Red is asked.
    pos = pos_of({"a8": "rSe bSe bSe bMe", "b8": "gS^ gS^"})
    a8, a7 = parse_square("a8"), parse_square("a7")
    res = Resolution(pos, [(0, a8)], 0, [(), ()], None)
    assert not res.run()
    options = res.options(*res.decision())
    assert [[(pos.size[p], end) for p, end in c.pushed] for c in options] == [
        [(1, a7)],
        [(2, a7)],
    ]
    assert res.first_choice(*res.decision()) == options[0]


def test_a_push_is_reduced_to_the_longest_path_left_one_square_at_a_time():
    # A lying medium pushes a lying small 2 squares from a1: c1 and b2 are Green's and a2 is
    # the mediums' goal, so only b1, one square, is left.
    pos = pos_of({"a1": "rMe bSe", "c1": "gS^ gS^", "b2": "gS^ gS^"})
    res = Resolution(pos, [(0, parse_square("a1"))], 0, [(), ()], None)
    assert res.allowed(pos, 0, 1, parse_square("a1"), frozenset()) == (
        1,
        [("E", parse_square("b1"))],
    )
    assert res.run((Clause(BLUE, 1, None, "E"),))
    assert pos.square[1] == parse_square("b1")


def test_a_push_looks_one_arrival_ahead_not_two():
    # Blue's small can go only to d5, where Green's small must go on to d6, where Yellow's
    # small could go nowhere. The push is allowed: Yellow's small will just stay (a stale
    # push, docs/rulings.md), and only Green's next push must exist.
    pos = pos_of(
        {
            "d4": "rSe bSe rS^",
            "d5": "gSe bS^ bS^",
            "d6": "ySe",
            **{sq: "yS^ yS^" for sq in ("c4", "e4", "d3")},
            **{sq: "rS^ rS^" for sq in ("c5", "e5", "d7", "c6", "e6")},
        },
        seats=4,
    )
    d4 = parse_square("d4")
    res = Resolution(pos, [(0, d4)], 1, [(), ()], None)
    assert res.allowed(pos, 0, 1, d4, frozenset()) == (1, [("N", parse_square("d5"))])


# --- the Mad Dog phase ------------------------------------------------------------------------


def test_a_move_onto_the_dog_waits_for_the_dogs_controller_and_names_no_push():
    state = dog_position({"d3": "rMn"}, dog=(BLUE, "d4", "^"), dice=(1, 6))
    assert refusal(state, "1: d3 F x gS:N") == (
        "there is nobody for you to push where that move ends"
    )
    after = play(state, "1: d3 F")
    assert after.chooser == BLUE
    assert on(after, "d4") == ["rSn"]  # bitten to a small, pushed once Blue says where


def test_a_move_that_names_a_push_onto_an_empty_square_says_there_is_nothing():
    state = position({"d3": "rSn"}, dice=(1, 6))
    assert refusal(state, "1: d3 F x bS:N") == "there is nothing to push where that move ends"


def test_a_piece_bitten_to_its_goals_size_and_pushed_off_by_the_dog_does_not_grow():
    # Without gates a standing medium may come to h2, the smalls' goal; the Dog there bites
    # it to a small, then pushes it 3 squares away: it is no longer on its goal.
    pos = pos_of({"h2": "rM^"}, dog=(BLUE, "h2", "^"), push_formula="MD", goal_gates=False)
    h2 = parse_square("h2")
    res = Resolution(pos, [(0, h2)], 0, [(), ()], BLUE)
    res.moving = True
    assert res.run((Clause(RED, 1, None, "NNW"),))
    assert pos.square[0] == parse_square("g4") and pos.size[0] == 1


def test_a_finishing_last_martian_releases_the_dog_and_notes_it():
    state = dog_position({"h7": "rL^"}, finished={RED: 3})
    pos = to_pos(state)
    red, h7 = board_piece(pos, RED), parse_square("h7")
    res = Resolution(pos, [(red, h7)], 0, [], None)
    res.moving = True
    assert res.run()
    assert res.notes == ["Red's large finishes", "Red releases the Mad Dog"]
    assert res.winner == RED and not res.over
    assert (pos.dog_owner, pos.dog_square) == (RED, h7)
    assert res.progress == 1


# --- the queue: stale entries and what follows them ---------------------------------------------


def test_a_stale_entry_is_skipped_and_the_queue_goes_on():
    # Blue's small was queued on d4 but has since been pushed to d5: it pushes nobody on d4.
    # Red's standing small queued behind it on h2 still grows.
    pos = pos_of({"d5": "bSe", "d4": "gSe", "h2": "rS^"})
    res = Resolution(pos, [(0, parse_square("d4")), (2, parse_square("h2"))], 0, [], None)
    assert res.run()
    assert pos.square[1] == parse_square("d4") and pos.size[2] == 2


def test_a_piece_the_dog_destroys_on_arrival_leaves_the_rest_of_the_queue_to_run():
    pos = pos_of({"d4": "gSe", "h2": "rS^"}, dog=(BLUE, "d4", "^"), push_formula="MD")
    res = Resolution(pos, [(0, parse_square("d4")), (1, parse_square("h2"))], 0, [], BLUE)
    assert res.run()
    assert pos.status[0] == DESTROYED and pos.size[1] == 2
    assert res.progress == 2  # a destruction and a growth


def test_a_resumed_push_arrival_on_its_goal_grows_only_if_pushed_pieces_grow():
    # Blue's standing small was pushed onto h2 over Green's small; Blue now pushes it on.
    for grows, size in [(True, 2), (False, 1)]:
        pos = pos_of({"h2": "bS^ gSe"}, growth_on_push_arrival=grows)
        res = Resolution(pos, [(0, parse_square("h2"))], 1, [(), (), ()], None)
        assert res.run((Clause(GREEN, 1, None, "NN"),))
        assert pos.square[1] == parse_square("h4") and pos.size[0] == size


def test_a_lying_piece_pushed_onto_its_goal_does_not_grow():
    pos = pos_of({"g2": "rSe bSe"})
    res = Resolution(pos, [(0, parse_square("g2"))], 0, [(), ()], None)
    assert res.run((Clause(BLUE, 1, None, "E"),))
    assert pos.square[1] == parse_square("h2") and pos.size[1] == 1
    assert res.notes == ["Blue's small is pushed to h2"] and res.progress == 0
