"""Landings whose occupant cannot be pushed, and the must-use rule after a chained push.

Written against the mutants of engine/games/mars/perform.py and moves.py left open by
docs/mutants/mars-moves-3.md (see docs/mutants/mars-open.md); rules as summarised in
docs/rulings.md. Positions are built by hand with tests/engine/test_mad_dog.py's helper.
"""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.games.mad_dog import RULES
from engine.games.mars import moves
from engine.games.mars.state import MarsState, to_pos
from tests.engine.test_mad_dog import on, play, position
from tests.engine.test_mars_moves import enables_in_full

RED, BLUE, GREEN = 0, 1, 2


def test_a_mother_may_not_step_onto_the_dog_where_it_could_not_be_pushed_anywhere():
    # Blue has won and runs the Dog on a1. Red's medium walks a3-a2-a1 onto it: the Dog
    # would reduce it to a small, which may not go to a2 (the Well admits only mediums)
    # nor to b1 (Green's two standing smalls block it totally): nowhere to push it.
    state = position(
        {"a3": "rMs", "b1": "gS^ gS^", "h8": "gSn"},
        dog=(BLUE, "a1", "n"),
        finished={BLUE: 4},
        dice=(2, 5),
        to_move=RED,
    )
    before = RULES.dump(state)
    assert not [a for a in RULES.legal(state, RED) if a.startswith("2: a3 F2")]
    with pytest.raises(IllegalAction) as caught:
        play(state, "2: a3 F2")
    assert str(caught.value) == (
        "you may not end on a1: a piece there could not be pushed anywhere"
    )
    assert RULES.dump(state) == before
    assert on(state, "a3") == ["rMs"]
    # The same square is open to the medium where the small has somewhere to go.
    freed = position(
        {"a3": "rMs", "h8": "gSn"},
        dog=(BLUE, "a1", "n"),
        finished={BLUE: 4},
        dice=(2, 5),
        to_move=RED,
    )
    assert [a for a in RULES.legal(freed, RED) if a.startswith("2: a3 F2")]


def test_the_dog_standing_up_as_it_lands_pushes_three_where_lying_it_could_push_nowhere():
    # The Dog on a2 steps onto a1 and stands up: Red's standing medium is reduced to a
    # small and pushed 1 + 1 (the Dog stands) + 1 (the Dog is larger) = 3 squares. The
    # small's ends one and two squares away are all closed (b1, c1: Green's standing and
    # lying small block ending there; b2: Green's two standing ones block it totally; a2:
    # the Well admits only mediums), so only the Dog's standing counts it free: d1 or c2.
    state = position(
        {"a1": "rM^", "b1": "gS^ gSe", "c1": "gS^ gSe", "b2": "gS^ gS^"},
        dog=(BLUE, "a2", "s"),
        finished={BLUE: 4},
        dice=(2, 5),
        to_move=BLUE,
    )
    assert sorted(a for a in RULES.legal(state, BLUE) if a.startswith("2: dog F U")) == [
        "2: dog F U x rS:EEE",
        "2: dog F U x rS:EEN",
    ]
    after = play(state, "2: dog F U x rS:EEE")
    assert on(after, "a1") == []
    assert on(after, "d1") == ["rS^"]
    assert after.dog == (BLUE, 0, 0)  # on a1, standing


def red_plays_3_and_1(spec: dict[str, str], goals: str, **options: object) -> MarsState:
    """Red to play a 3 and a 1, Mad Dog's Home, Market, Well and Kennel on these squares."""
    home, market, well, kennel = goals.split()
    return position(
        spec,
        dice=(3, 1),
        to_move=RED,
        home=home,
        market=market,
        well=well,
        kennel=kennel,
        **options,
    )


def must_use_answers(state: MarsState, text: str) -> tuple[bool, bool]:
    """Whether a listed move keeps the 1 playable: the short cuts' answer, the full search's."""
    (cand,) = [c for c in moves.candidates(state, RED, state.dice) if c.text == text]
    return (
        moves.enables_fast(state, to_pos(state), cand, RED, 1),
        enables_in_full(state, cand, RED, 1),
    )


def chained_goal_position() -> MarsState:
    """Red to play 3 and 1 before anyone has won: its small on f1 walks to the Market h1.

    Custom goals put the Market (smalls grow there) on h1, the Kennel (larges finish
    there) on h2 and the Well on g3. Blue's small lies on h1; Green's standing and lying
    smalls block ending on g1, e1 and f2. Red's other Mothers have finished but for its
    standing large on g2.
    """
    return red_plays_3_and_1(
        {
            "f1": "rSe",
            "g2": "rL^",
            "h1": "bSw",
            "g1": "gS^ gSe",
            "e1": "gS^ gSe",
            "f2": "gS^ gSe",
        },
        "a8 h1 g3 h2",
        finished={RED: 4},
    )


def test_a_push_that_makes_the_last_piece_finish_loses_the_other_die():
    # Red's small walks f1-g1-h1 and stands up: it pushes Blue's small 1 + 1 + 1 = 3, but
    # no end three squares away is open (e1, f2: blocked; g3: the Well; h2: the Kennel),
    # so two: back to f1 or onto g2, Red's choice. On f1, Red's large on g2 can spend the 1
    # turning. On g2, Blue's small pushes the large one square, and only h2 is open: it
    # finishes there. Red's small has grown into a medium on the Market, which it may not
    # end on, and with a 1 it can only turn: the 1 is lost that way, so that choice is not
    # a legal first move while the other keeps the 1 playable.
    state = chained_goal_position()
    assert must_use_answers(state, "3: f1 F2 U x bS:WW") == (True, True)
    assert must_use_answers(state, "3: f1 F2 U x bS:WN") == (False, False)
    listed = [a for a in RULES.legal(state, RED) if a.startswith("3: f1 F2 U")]
    assert listed == ["3: f1 F2 U x bS:WW"]
    with pytest.raises(IllegalAction, match="you must use both dice"):
        play(state, "3: f1 F2 U x bS:WN")
    after = play(state, "3: f1 F2 U x bS:WW")
    assert on(after, "h1") == ["rM^"]
    assert on(after, "f1") == ["bSw"]


def corridor_position() -> MarsState:
    """Red to play 3 and 1 in the Dog phase, goals moved and goal gates off.

    Without gates any size may stand on any goal. The Market (smalls grow there) is a1,
    where Red's small lies; the Kennel (larges finish there) is a4, where Green's small
    stands; Red's large lies on a2 pointing north; Blue's Dog is on a5. Yellow's pairs
    block b1, b2, b4, a6 and b5 totally (two standing) and c3 partially (one standing, one
    lying). Red's other Mothers have finished.
    """
    return red_plays_3_and_1(
        {
            "a1": "rSn",
            "a2": "rLn",
            "a4": "gS^",
            "b1": "yS^ yS^",
            "b2": "yS^ yS^",
            "b4": "yS^ yS^",
            "a6": "yS^ yS^",
            "b5": "yS^ yS^",
            "c3": "yS^ ySe",
        },
        "h8 a1 h1 a4",
        seats=4,
        dog=(BLUE, "a5", "n"),
        finished={BLUE: 12, RED: 10},
        goal_gates=False,
    )


def test_a_pushed_small_pushes_before_it_grows_when_its_owner_chooses_where():
    # Red's large walks a2-a4, stands up on the Kennel and pushes Green's standing small
    # three squares: only a1 is open (a5 is the Dog's, its ends beyond are blocked), so the
    # push has one outcome. There Green's small pushes Red's lying small 1 + 1 (it stands)
    # + 1 (Red's lies) = 3 squares, to a4 or b3, Green's choice; only then does it grow on
    # the Market. Had it grown first, as a medium it would push four, and the only end
    # four squares away is a5, where the Dog would destroy Red's last Mother. Red's large
    # finishes; either way Red's small can play the 1, so the move is a legal first move.
    state = corridor_position()
    assert must_use_answers(state, "3: a2 F2 U x gS:SSS") == (True, True)
    assert "3: a2 F2 U x gS:SSS" in RULES.legal(state, RED)
    after = play(state, "3: a2 F2 U x gS:SSS")
    assert RULES.legal(after, GREEN) == ("x rS:NNN", "x rS:NNE")
    after = play(after, "x rS:NNN", seat=GREEN)
    assert on(after, "a1") == ["gM^"]
    assert on(after, "a4") == ["rSn"]
    assert after.to_move == RED
    assert after.dice == (1,)
