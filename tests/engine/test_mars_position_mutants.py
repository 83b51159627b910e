"""A working position of Martian Race and Mad Dog on hand-built boards: blocking, push paths,
the look-ahead that decides whether a piece may come to rest on occupied squares, the Dog's
attacks and the step search. Each test pins a behaviour a mutation of `position.py` changed
(docs/mutants/mars-position.md).

Walls are two standing red pieces (strength 4): no other colour may pass or end there.
"""

from __future__ import annotations

import pytest

from engine.games.mars import Piece, parse_square
from engine.games.mars.geometry import BOARD, DOG, EAST, FINISHED, NORTH, RESERVE, UP
from engine.games.mars.position import Pos, block_masks
from engine.games.martian_race import RULES
from tests.engine.test_movement import bit, pos_of

WALL = "rL^ rM^"
RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def sq(name: str) -> int:
    return parse_square(name)


def piece_on(pos: Pos, name: str, colour: int, size: int | None = None) -> int:
    """The index of the one piece of a colour (and size) on a square."""
    (found,) = (
        i
        for i in pos.at(sq(name))
        if pos.owner[i] == colour and (size is None or pos.size[i] == size)
    )
    return found


def boxed_green(ahead: str) -> Pos:
    """Blue's small on d4 (among red walls) may be pushed only north, onto d5; what holds d5 is
    walled in on every side, d4 included. Red's small on h8 is free to move."""
    return pos_of(
        {
            "h8": "rSe",
            "d4": f"{WALL} bSe",
            "c4": WALL,
            "e4": WALL,
            "d3": WALL,
            "d5": ahead,
            "c5": WALL,
            "e5": WALL,
            "d6": WALL,
        }
    )


def corridor(**dog: object) -> Pos:
    """Along rank 1: blue's small on d1 may go only to c1 (green), green only to b1 (yellow),
    and yellow nowhere: c1 holds two standing blue pieces, so yellow may not go back there."""
    return pos_of(
        {
            "d1": f"{WALL} bSe",
            "e1": WALL,
            "d2": WALL,
            "c1": "gSe bL^ bM^",
            "c2": WALL,
            "b1": "ySe",
            "a1": WALL,
            "b2": WALL,
            "h8": "rSe",
        },
        seats=4,
        **dog,
    )


# --- blocking -----------------------------------------------------------------------------


def test_block_masks_are_one_entry_per_colour_and_the_dog():
    params = RULES.start(2).params
    apart = [(sq("d4"), RED, UP), (sq("e4"), BLUE, UP)]
    assert block_masks(params, 2, apart) == ([0, 0, 0], [0, 0, 0])
    two_standing = [(sq("d4"), RED, UP), (sq("d4"), RED, UP)]
    d4 = bit("d4")
    assert block_masks(params, 2, two_standing) == ([0, d4, d4], [0, d4, d4])


def test_a_colour_alone_is_never_blocked_by_itself_only_the_dog_is():
    params = RULES.start(2, {"block_partial_min": 1, "block_total_min": 2}).params
    d4 = bit("d4")
    assert block_masks(params, 1, [(sq("d4"), RED, EAST)]) == ([0, 0], [0, d4])
    assert block_masks(params, 1, [(sq("d4"), RED, UP)]) == ([0, d4], [0, d4])


def test_a_piece_off_the_board_is_a_value_without_square_or_facing():
    pos = pos_of({"d4": "bSe", "e5": "rM^"})
    pos.status[0] = FINISHED
    assert pos.pieces() == (Piece(1, 1, FINISHED), Piece(0, 2, BOARD, sq("e5"), UP))


def test_the_first_reserve_piece_or_minus_one():
    pos = pos_of({"d4": "bSe bMe", "e5": "rM^"})
    assert pos.reserve_piece(BLUE) == -1 and pos.reserve_piece(RED) == -1
    pos.status[1] = RESERVE
    pos.status[0] = RESERVE
    assert pos.reserve_piece(BLUE) == 0 and pos.reserve_piece(RED) == -1


# --- push distances and paths -------------------------------------------------------------


def test_the_dog_pushes_as_a_large_even_a_large():
    pos = pos_of({"d4": "rLe", "e4": "bMe"}, dog=(1, "a1", "e"))
    assert pos.distance(DOG, 0) == 1  # large on large, neither standing
    assert pos.distance(DOG, 1) == 2  # larger than a medium
    pos.dog_facing = UP
    assert pos.distance(DOG, 0) == 2


def test_push_paths_of_three_steps_go_every_way():
    pos = pos_of({"d4": "rL^ bSe"})
    paths = pos.paths(1, sq("d4"), 3, 1)
    assert len(paths) == 4 * 3 * 3
    assert {p[0] for p, _ in paths} == set("NESW")


def test_a_push_of_one_has_its_four_paths():
    pos = pos_of({"d4": "rL^ bSe"})
    length, paths = pos.push_options(1, sq("d4"), 1)
    assert length == 1
    assert sorted(paths) == sorted(
        [("N", sq("d5")), ("E", sq("e4")), ("S", sq("d3")), ("W", sq("c4"))]
    )


def test_a_push_may_pass_partial_blocks_it_may_not_end_on():
    partial = "rS^ rMe"  # strength 3
    pos = pos_of({"d4": "rL^ bSe", "c4": partial, "e4": partial, "d5": partial, "d3": partial})
    blue = piece_on(pos, "d4", BLUE)
    assert not pos.can_push(blue, sq("d4"), 1, 1)
    assert pos.can_push(blue, sq("d4"), 2, 1)
    length, paths = pos.push_options(blue, sq("d4"), 2)
    assert length == 2 and len(paths) == 12


def test_a_push_onto_a_walled_in_enemy_is_refused_but_not_at_depth_0():
    pos = boxed_green("gSe")
    blue = piece_on(pos, "d4", BLUE)
    assert pos.paths(blue, sq("d4"), 1, 0) == [("N", sq("d5"))]
    assert pos.paths(blue, sq("d4"), 1, 1) == []
    assert pos.can_push(blue, sq("d4"), 1, 0)
    assert not pos.can_push(blue, sq("d4"), 1, 1)
    assert pos.push_options(blue, sq("d4"), 1) == (0, [])
    green = piece_on(pos, "d5", GREEN)
    assert pos.arrival_ok(blue, sq("d5"), 0) and not pos.arrival_ok(blue, sq("d5"), 1)
    assert pos.arrival_ok(green, sq("d5"), 1)  # its own square: nobody to push


def test_a_push_onto_a_walled_in_piece_of_ones_own_colour_is_allowed():
    pos = boxed_green("bMe")
    blue = piece_on(pos, "d4", BLUE)
    assert pos.paths(blue, sq("d4"), 1, 1) == [("N", sq("d5"))]
    assert pos.push_options(blue, sq("d4"), 1) == (1, [("N", sq("d5"))])


def test_a_push_looks_one_push_ahead_a_landing_two():
    pos = corridor()
    blue = piece_on(pos, "d1", BLUE)
    mover = piece_on(pos, "h8", RED)
    # Green can be pushed on to b1: whether yellow could then move is not asked.
    assert pos.push_options(blue, sq("d1"), 1) == (1, [("W", sq("c1"))])
    assert pos.landing_ok(mover, sq("d1"), EAST)
    # A landing on c1 would need green pushed onto yellow, which cannot move.
    walled = boxed_green("gSe")
    assert not walled.landing_ok(piece_on(walled, "h8", RED), sq("d4"), EAST)
    walled = boxed_green("bMe")
    assert walled.landing_ok(piece_on(walled, "h8", RED), sq("d4"), EAST)


# --- the Mad Dog --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "reduce_by", "arrives"),
    [
        # A large becomes a medium on h1: h2 is a goal it may not enter, g1 is walled.
        ({"g1": f"{WALL} bLe"}, 1, False),
        # A medium becomes a small that could flee to h2, its goal ...
        ({"g1": f"{WALL} bMe"}, 1, True),
        # ... unless h2 is walled too.
        ({"g1": f"{WALL} bMe", "h2": WALL}, 1, False),
        # Reduced to nothing it is destroyed: nothing left to push.
        ({"g1": f"{WALL} bLe", "h2": WALL}, 3, True),
        ({"g1": f"{WALL} bMe", "h2": WALL}, 2, True),
    ],
)
def test_a_piece_pushed_onto_the_dog_is_reduced_and_then_must_be_pushable(spec, reduce_by, arrives):
    pos = pos_of(spec, dog=(2, "h1", "e"), dog_reduce_by=reduce_by)
    blue = piece_on(pos, "g1", BLUE)
    assert (("E", sq("h1")) in pos.paths(blue, sq("g1"), 1, 1)) is arrives
    assert pos.arrival_ok(blue, sq("h1"), 1) is arrives
    assert pos.size[blue] == pos.copy().size[blue]  # the look-ahead changed nothing


def test_a_piece_pushed_by_the_dog_onto_an_enemy_looks_no_further_at_depth_0():
    # Blue's large is pushed onto the Dog on d5; the medium left of it must be pushed on by
    # the Dog, and every way out holds a green piece.
    pos = pos_of({"d4": f"{WALL} bLe", "c5": "gSe", "e5": "gSe", "d6": "gSe"}, dog=(2, "d5", "e"))
    blue = piece_on(pos, "d4", BLUE)
    assert ("N", sq("d5")) in pos.paths(blue, sq("d4"), 1, 1)


def dog_on_d1(c1: str, b1: str) -> Pos:
    """The Dog on d1 with two standing blue pieces; blue's large landing there, reduced to a
    medium, is pushed on by the Dog (two squares) through c1 only, towards b1."""
    return pos_of(
        {
            "d1": "bL^ bM^",
            "e1": WALL,
            "d2": WALL,
            "c1": c1,
            "c2": WALL,
            "b1": b1,
            "a1": WALL,
            "b2": WALL,
            "h8": "bLe",
        },
        seats=4,
        dog=(RED, "d1", "e"),
    )


def test_a_mother_landing_on_the_dog_needs_a_way_on_one_push_ahead():
    # c1 holds yellow, walled in (the blue pair on d1 keeps it from d1), b1 is walled.
    pos = dog_on_d1("ySe", WALL)
    assert not pos.landing_ok(piece_on(pos, "h8", BLUE), sq("d1"), EAST)
    # c1 holds green, which could go on to b1, and b1 yellow, which could not go on (a blue
    # pair holds c1 too): a landing looks only one push ahead of the Dog's.
    pos = dog_on_d1("gSe bL^ bM^", "ySe")
    assert pos.landing_ok(piece_on(pos, "h8", BLUE, 3), sq("d1"), EAST)
    # A c1 with blue's own piece lets the reduced Mother go.
    pos = dog_on_d1("bSe", WALL)
    assert pos.landing_ok(piece_on(pos, "h8", BLUE), sq("d1"), EAST)


@pytest.mark.parametrize(
    ("spec", "reduce_by", "lands"),
    [
        ({"g1": WALL, "h1": "bLe"}, 1, False),  # a medium boxed in by h2 (a goal) and g1
        ({"g1": WALL, "h1": "bMe"}, 1, True),  # a small may go to h2, its goal
        ({"g1": WALL, "h1": "bMe", "h2": WALL}, 1, False),
        ({"g1": WALL, "h1": "bMe", "h2": WALL}, 2, True),  # destroyed
        ({"g1": "gSe", "h1": "bLe"}, 1, True),  # green on g1 can be pushed on
    ],
)
def test_the_dog_lands_only_where_each_mother_left_can_be_pushed(spec, reduce_by, lands):
    pos = pos_of(spec, dog=(2, "a8", "e"), dog_reduce_by=reduce_by)
    assert pos.landing_ok(DOG, sq("h1"), EAST) is lands
    assert pos.dog_square == sq("a8")


def test_the_dog_ends_only_where_it_may_land_whoever_owns_the_last_piece():
    pos = pos_of({"g1": WALL, "h1": "bLe"}, dog=(2, "h3", "s"))
    assert pos.owner[-1] == BLUE
    ends = {(square, facing) for square, facing, _ in pos.endpoints(DOG, 2, pos.masks())}
    assert (sq("h2"), 3) in ends and (sq("h1"), 3) not in ends


# --- entering and the step search ---------------------------------------------------------


def entering(spec: dict[str, str], **options: object) -> tuple[Pos, int]:
    """A position with blue's small in reserve as its last piece."""
    pos = pos_of({**spec, "h8": "bSe"}, **options)
    piece = len(pos.owner) - 1
    pos.status[piece], pos.square[piece], pos.facing[piece] = RESERVE, -1, -1
    return pos, piece


@pytest.mark.parametrize("one_per_colour", ["always", "resting"])
def test_no_piece_enters_while_home_is_walled_or_holds_its_colour(one_per_colour):
    home = RULES.start(3).params.home
    name = "a7"
    assert sq(name) == home
    pos, piece = entering({}, one_per_colour=one_per_colour)
    assert pos.endpoints(piece, 3, pos.masks(), True)
    pos, piece = entering({name: WALL}, one_per_colour=one_per_colour)
    assert pos.endpoints(piece, 3, pos.masks(), True) == []
    pos, piece = entering({name: "bMe"}, one_per_colour=one_per_colour)
    assert pos.endpoints(piece, 3, pos.masks(), True) == []


def routes(spec: dict[str, str], die: int) -> dict[tuple[int, int], tuple[str, ...]]:
    pos = pos_of(spec)
    return {(s, f): steps for s, f, steps in pos.endpoints(0, die, pos.masks())}


def test_a_standing_piece_lies_down_each_way_in_one_step():
    route = routes({"d4": "rS^"}, 1)
    assert route == {(sq("d4"), f): ("UNESW"[f],) for f in (1, 2, 3, 4)}


def test_a_standing_piece_ends_standing_where_it_started_by_lying_down_and_up():
    assert routes({"d4": "rS^"}, 2)[(sq("d4"), UP)] == ("N", "U")


def test_a_lying_piece_turns_each_other_way_in_one_step():
    route = routes({"d4": "rSe"}, 1)
    assert route[(sq("d4"), NORTH)] == ("N",)
    assert set(route) == {(sq("e4"), EAST), (sq("d4"), UP)} | {(sq("d4"), f) for f in (1, 3, 4)}


def test_a_mother_may_not_end_on_the_dog_where_what_is_left_of_it_cannot_move():
    # Blue's medium walks a3, a2 (its goal, open to it), a1 onto the Dog: the small left of
    # it may not enter a2 and b1 is walled.
    spec = {"a3": "bMs", "b1": WALL}
    for dog, ends_on_a1 in (("a1", False), ("h8", True)):
        pos = pos_of(spec, dog=(2, dog, "e"))
        ends = {(square, facing) for square, facing, _ in pos.endpoints(0, 2, pos.masks())}
        assert ((sq("a1"), 3) in ends) is ends_on_a1
        assert (sq("a2"), 3) in ends


def test_a_move_may_end_standing_on_a_piece_it_could_not_end_lying_on():
    # Blue's small on d4 can leave only by two squares (partial blocks all round): red's small
    # pushes it so far only when it arrives standing.
    partial = "rS^ rMe"
    pos = pos_of(
        {"d6": "rSs", "d5": partial, "c4": partial, "e4": partial, "d3": partial, "d4": "bSe"}
    )
    red = piece_on(pos, "d6", RED)
    ends = {(square, facing) for square, facing, _ in pos.endpoints(red, 3, pos.masks())}
    assert (sq("d4"), UP) in ends
    assert not {(sq("d4"), f) for f in (1, 2, 3, 4)} & ends
    assert (sq("d5"), 3) in ends and (sq("d6"), UP) in ends


def test_a_landing_counts_the_movers_own_strength_on_the_square_it_lands_on():
    # Blue's small lands on d1 among blue's large and green's small: green can be pushed
    # only to c1, whose yellow small could leave only to d1, blocked (strength 3) once the
    # mover is there.
    spec = {"e1": WALL, "d2": WALL, "c1": "ySe", "c2": WALL, "b1": WALL, "h8": "bSe"}
    for d1, lands in (("bL^ gSe", False), ("gSe", True)):
        pos = pos_of({**spec, "d1": d1}, seats=4)
        assert pos.landing_ok(piece_on(pos, "h8", BLUE), sq("d1"), EAST) is lands


def test_a_position_key_has_the_dog_last_and_minus_ones_without_it():
    pos = pos_of({"d4": "bSn"}, dog=(0, "h8", "e"))
    assert pos.key() == (BOARD, sq("d4"), 1, NORTH, sq("h8"), EAST)
    pos = pos_of({"d4": "bSn"})
    assert pos.key() == (BOARD, sq("d4"), 1, NORTH, -1, -1)
    assert pos.dog() is None


def test_masks_without_blocks_are_one_entry_per_colour_and_the_dog():
    assert pos_of({"d4": "bSe rS^", "e4": "bS^"}).masks() == ([0, 0, 0, 0], [0, 0, 0, 0])


def test_own_specials_finds_a_colour_behind_another_and_on_every_special_square():
    pos = pos_of({"a7": "gSe bSe", "h2": "bSe", "d4": "bMe"})
    mover = piece_on(pos, "d4", BLUE)
    assert pos.own_specials(BLUE, mover) == bit("a7") | bit("h2")
    assert pos.own_specials(BLUE, piece_on(pos, "h2", BLUE)) == bit("a7")
    assert pos.own_specials(GREEN, mover) == bit("a7")


def test_one_piece_per_colour_only_where_moves_end_lets_pieces_pass():
    spec = {"a7": "bSe", "d4": "bMe"}
    pos = pos_of(spec, one_per_colour="resting")
    passing, ending = pos.forbidden(piece_on(pos, "d4", BLUE), pos.masks())
    assert ending & bit("a7") and not passing & bit("a7")
    assert passing == pos.params.gate_mask(2)
    pos = pos_of(spec)
    passing, ending = pos.forbidden(piece_on(pos, "d4", BLUE), pos.masks())
    assert passing == pos.params.gate_mask(2) | bit("a7") == ending


def test_the_dog_lands_looking_one_push_past_its_own():
    # The Dog lands on d1 and pushes blue's large (a medium now) to c1 only (two steps would
    # end on b1, whose yellow cannot leave). Green's large on c1 could then go to b1 or d1:
    # that yellow could not leave b1, and that green would be attacked on d1 and find no way
    # out, is further than a landing looks.
    pos = pos_of(
        {
            "d1": "bLe",
            "e1": WALL,
            "d2": WALL,
            "c1": "gLe bL^ bM^",
            "c2": WALL,
            "b1": "ySe",
            "a1": WALL,
            "b2": WALL,
        },
        seats=4,
        dog=(RED, "h8", "e"),
    )
    assert pos.landing_ok(DOG, sq("d1"), EAST)


def test_each_occupied_end_is_judged_on_its_own_square_and_standing():
    # As above on d4 and on f4, two squares apart: a move of 5 ends standing on d4 (three
    # steps) but reaches f4 only lying (five steps), where it may not end.
    partial = "rS^ rMe"
    walls = {name: partial for name in ("d5", "c4", "e4", "d3", "g4", "f3", "f5")}
    pos = pos_of({"d6": "rSs", **walls, "d4": "bSe", "f4": "gSe"})
    red = piece_on(pos, "d6", RED)
    ends = {(square, facing) for square, facing, _ in pos.endpoints(red, 5, pos.masks())}
    assert (sq("d4"), UP) in ends
    assert not {(sq(name), f) for name in ("d4", "f4") for f in (1, 2, 3, 4)} & ends
    assert (sq("e4"), EAST) in ends
