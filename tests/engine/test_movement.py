"""The shared movement engine on its own: blocking, push paths and reduction, the queue, guards."""

from __future__ import annotations

import pytest

from engine.games.mars import Piece, parse_square, quick
from engine.games.mars.geometry import BOARD, DOG, UP
from engine.games.mars.notation import (
    Clause,
    MoveText,
    PushText,
    designator,
    format_move,
    parse,
)
from engine.games.mars.position import Pos, push_distance
from engine.games.mars.resolution import Resolution
from engine.games.martian_race import RULES

FACINGS = {"^": 0, "n": 1, "e": 2, "s": 3, "w": 4}


def pos_of(
    spec: dict[str, str], seats: int = 3, dog: tuple[int, str, str] | None = None, **options: object
) -> Pos:
    """A working position from {"c4": "rSe bM^"} with nothing in reserve."""
    params = RULES.start(seats, options).params
    pieces = [
        Piece("rbgyp".index(t[0]), " SML".index(t[1]), BOARD, parse_square(sq), FACINGS[t[2]])
        for sq, text in spec.items()
        for t in text.split()
    ]
    dog_state = None if dog is None else (dog[0], parse_square(dog[1]), FACINGS[dog[2]])
    return Pos(params, seats, pieces, dog_state, 0)


def bit(square: str) -> int:
    return 1 << parse_square(square)


@pytest.mark.parametrize(
    ("occupants", "vulnerable", "partial", "total"),
    [
        ("bSe", True, False, False),  # 1
        ("bS^", True, False, False),  # 2
        ("bSe bMe", True, False, False),  # 2
        ("bSe bMe bLe", False, True, False),  # 3: three lying
        ("bS^ bMe", False, True, False),  # 3: one standing, one lying
        ("bS^ bM^", False, True, True),  # 4: two standing
        ("bS^ bM^ bLe", False, True, True),  # 5
    ],
)
def test_blocking_strength_counts_lying_as_1_and_standing_as_2(
    occupants, vulnerable, partial, total
):
    pos = pos_of({"d4": occupants})
    totals, partials = pos.masks()
    red, blue = 0, 1
    assert bool(totals[red] & bit("d4")) is total
    assert bool(partials[red] & bit("d4")) is (partial or total)
    assert not vulnerable or not partials[red] & bit("d4")
    assert not totals[blue] & bit("d4") and not partials[blue] & bit("d4")  # never by one's own


def test_the_block_thresholds_are_parameters():
    pos = pos_of({"d4": "bS^ bMe"}, block_partial_min=4, block_total_min=4)
    totals, partials = pos.masks()
    assert not partials[0] & bit("d4")
    pos = pos_of({"d4": "bS^ bM^"}, block_partial_min=4, block_total_min=4)
    assert pos.masks()[0][0] & bit("d4")


def test_the_dog_is_blocked_by_every_colour():
    pos = pos_of({"d4": "bS^ bMe", "e4": "rS^ rM^"}, dog=(2, "a1", "e"))
    totals, partials = pos.masks()
    dog = pos.seats
    assert partials[dog] & bit("d4") and not totals[dog] & bit("d4")
    assert totals[dog] & bit("e4")


@pytest.mark.parametrize(
    ("formula", "a_size", "a_up", "o_size", "o_up", "distance"),
    [
        ("MR", 1, False, 1, False, 1),
        ("MR", 3, True, 1, False, 3),
        ("MR", 2, True, 2, True, 1),
        ("MD", 1, False, 1, False, 2),
        ("MD", 3, True, 1, False, 4),
        ("MD", 2, True, 2, True, 2),
        ("MD", 1, False, 2, True, 1),
    ],
)
def test_push_distance_formulas(formula, a_size, a_up, o_size, o_up, distance):
    params = RULES.start(2, {"push_formula": formula}).params
    assert push_distance(params, a_size, a_up, o_size, o_up) == distance


def test_push_paths_bend_never_revisit_and_avoid_the_origin():
    pos = pos_of({"d4": "rL^ bSe"})
    blue = 1
    paths = pos.paths(blue, parse_square("d4"), 2, 1)
    assert len(paths) == 12  # 4 first squares x 3 onward squares, none back to d4
    assert all(len(p) == 2 for p, _ in paths)
    assert parse_square("d4") not in {end for _, end in paths}
    assert ("NE", parse_square("e5")) in paths and ("EN", parse_square("e5")) in paths


def test_a_push_is_reduced_to_the_longest_feasible_length_and_never_off_the_board():
    pos = pos_of({"a1": "rL^ bSn", "b1": "gS^ gS^", "a3": "gS^ gS^"})
    length, paths = pos.push_options(1, parse_square("a1"), 3)
    # a2 is the Supply Depot (mediums only) and b1 is blocked: nothing at all.
    assert (length, paths) == (0, [])
    walls = {sq: "gS^ gS^" for sq in ("b1", "b2", "a4", "b3")}
    pos = pos_of({"a1": "rL^ bSn", **walls}, goal_gates=False)
    length, paths = pos.push_options(1, parse_square("a1"), 3)
    assert length == 2 and {p for p, _ in paths} == {"NN"}


def test_a_push_may_not_end_on_a_goal_where_its_colour_already_is():
    pos = pos_of({"g2": "rL^ bSn", "h2": "bSe", "f2": "gS^ gS^", "g1": "gS^ gS^", "g3": "gS^ gS^"})
    assert pos.push_options(1, parse_square("g2"), 1) == (0, [])


def test_the_queue_is_first_in_first_out():
    pos = pos_of({"d4": "rSn", "d5": "bSe", "d6": "gSe", "c5": "gSe"})
    res = Resolution(pos, [(0, parse_square("d5"))], 0, [], None)
    pos.square[0] = parse_square("d5")
    done = res.run((Clause(1, 1, None, "N"),), expect=0)
    # Blue went to d6 (Green there): Blue must choose; Red's own entry is finished.
    assert not done and res.queue == [(1, parse_square("d6"))] and res.chooser() == 1


def test_the_repetition_guard_refuses_a_push_back_into_a_seen_position():
    pos = pos_of({"d4": "rSe bSe"})
    blue = 1
    pos.square[blue] = parse_square("d5")
    seen_key = pos.key()
    pos.square[blue] = parse_square("d4")
    res = Resolution(pos, [(0, parse_square("d4"))], 1, [(), (), seen_key], None)
    _, paths = res.allowed(pos, 0, blue, parse_square("d4"), frozenset())
    ends = {end for _, end in paths}
    assert parse_square("d5") not in ends and parse_square("c4") in ends


def test_the_dog_attacks_then_pushes_at_the_reduced_size():
    pos = pos_of({"d4": "rLn"}, dog=(1, "b4", "e"), push_formula="MD", dog_reduce_by=1)
    pos.dog_square = parse_square("d4")
    res = Resolution(pos, [(DOG, parse_square("d4"))], 0, [], 1)
    res.probe = DOG
    res.run()
    assert pos.size[0] == 2
    assert res.probed and all(len(c.clauses[0].path) == 3 for c in res.probed)


def test_the_step_search_finds_each_end_once_with_a_shortest_route():
    pos = pos_of({"d4": "rSn"})
    ends = pos.endpoints(0, 2, pos.masks())
    assert len({(sq, f) for sq, f, _ in ends}) == len(ends)
    route = {(sq, f): steps for sq, f, steps in ends}
    assert route[(parse_square("d6"), 1)] == ("F", "F")
    assert route[(parse_square("d5"), UP)] == ("F", "U")
    assert route[(parse_square("d4"), 1)] == ("E", "N")  # the two-step round trip


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("5: +E F3 U", "5: +E F3 U"),
        ("3:c1 f2 u x bs:enn", "3: c1 F2 U x bS:ENN"),
        ("2: d4M^ W F", "2: d4M^ W F"),
        ("4: dog n f3", "4: dog N F3"),
    ],
)
def test_notation_round_trips(text, canonical):
    parsed = parse(text, 3)
    assert isinstance(parsed, MoveText)
    name = parsed.piece or designator(parsed.square, parsed.size, parsed.facing)
    assert format_move(parsed.die or 0, name, parsed.steps, parsed.pushes) == canonical


def test_a_push_answer_is_its_clauses():
    parsed = parse(" X gS : N x bMe:EN", 3)
    assert parsed == PushText((Clause(2, 1, None, "N"), Clause(1, 2, 2, "EN")))


def test_a_piece_off_the_board_is_not_on_the_square_it_last_stood_on():
    pos = pos_of({"d4": "bSe rS^", "e5": "rMe"})
    blue, red = 0, 1
    pos.status[blue] = 3  # destroyed: its square is stale, as in a resolution under way
    assert pos.at(parse_square("d4")) == [red]
    assert pos.enemies_at(parse_square("d4"), 2) == [red]
    assert pos.at(parse_square("a1")) == []


def test_a_position_key_leaves_out_the_square_and_facing_of_pieces_off_the_board():
    pos = pos_of({"d4": "bSe", "e5": "rM^"}, dog=(0, "h8", "^"))
    pos.status[0] = 2  # finished
    assert pos.key() == (2, -1, 1, -1, BOARD, parse_square("e5"), 2, UP, parse_square("h8"), UP)
    assert tuple(pos.key_list()) == pos.key()


def test_pieces_made_again_are_equal_values_shared_not_built_twice():
    pos = pos_of({"d4": "bSe"})
    first, second = pos.pieces(), pos.copy().pieces()
    assert first == second == (Piece(1, 1, BOARD, parse_square("d4"), 2),)
    assert first[0] is second[0]


@pytest.mark.parametrize(("low", "high"), [(1, 2), (2, 2), (3, 4), (4, 4)])
def test_blocking_masks_match_the_strongest_other_colour_square_by_square(low, high):
    pos = pos_of(
        {"d4": "bS^ bMe rSe", "e5": "gSe gMe", "f6": "rL^", "c3": "bSe gS^ gMe"},
        block_partial_min=low,
        block_total_min=high,
    )
    totals, partials = pos.masks()
    for colour in range(4):  # three seats and the Dog
        for square in ("d4", "e5", "f6", "c3", "a1"):
            strengths = [0, 0, 0]
            for i in pos.at(parse_square(square)):
                strengths[pos.owner[i]] += 2 if pos.facing[i] == UP else 1
            other = max(s for c, s in enumerate(strengths) if c != colour)
            assert bool(totals[colour] & bit(square)) is (other >= high)
            assert bool(partials[colour] & bit(square)) is (other >= low)


@pytest.mark.parametrize(("low", "high"), [(1, 2), (3, 4), (4, 4)])
def test_a_quick_move_forbids_the_squares_a_checked_move_forbids(low, high):
    pos = pos_of(
        {"d4": "bS^ bMe rSe", "e5": "gSe gMe", "h2": "rSe", "c3": "bSe gS^ gMe"},
        block_partial_min=low,
        block_total_min=high,
    )
    for piece in range(len(pos.owner)):
        passing, ending, _ = quick._forbidden(pos, piece, quick.stacked(pos))
        assert (passing, ending) == pos.forbidden(piece, pos.masks())
