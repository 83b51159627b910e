"""Martian Race staged menu: where it switches between listing moves and asking, at SHOWN.

See docs/mutants/mars-menu-2.md ("Second pass"): each test here fails on a mutant of
`choices.menu` that the menu's other tests leave alive. The positions were found by a search
of random boards; each has a piece whose moves for one die are exactly `SHOWN` (twelve), or
more than twelve ending on one or two squares or with two facings.
"""

from __future__ import annotations

from engine.games.mars.choices import SHOWN
from tests.engine.test_martian_race import RED, RULES, position

# Red's small Martian on c2, lying west, has exactly twelve moves with the 2, ending on five
# squares with five facings, none pushing.
TWELVE = {"f5": "bL^", "g1": "bSn rLw", "h2": "rM^ rSw", "g8": "rMe", "c2": "rSw"}
TWELVE_PICKED = (("die", "2", "the 2"), ("piece", "c2", "the small Martian on c2, lying west"))


def test_exactly_twelve_moves_are_listed_without_a_question() -> None:
    state = position(TWELVE, dice=(4, 2))
    menu = RULES.menu(state, RED, {"die": "2", "piece": "c2"})
    assert SHOWN == 12
    assert menu.question is None and menu.picked == TWELVE_PICKED
    assert len(menu.actions) == 12
    # A square typed in the address bar filters nothing where the square was not asked.
    assert RULES.menu(state, RED, {"die": "2", "piece": "c2", "to": "c3"}) == menu


def test_exactly_twelve_moves_that_push_differently_are_listed_without_a_push_question() -> None:
    # Red's small Martian on f8, standing, has twelve moves with the 1, each pushing the
    # Blue small beside it somewhere: twelve is few enough to list.
    state = position({"h3": "bSs", "d8": "rLn", "f8": "rS^ bSe", "g6": "rS^"}, dice=(1, 4))
    menu = RULES.menu(state, RED, {"die": "1", "piece": "f8"})
    assert menu.question is None
    assert len(menu.actions) == 12 and all(" x bS:" in a for a in menu.actions)


# A new small Red Martian entering with the 1 onto a7, where a Blue medium stands: sixteen
# moves, all ending on a7, with five facings.
ENTRY = {"e1": "rMw", "f4": "bMw", "a7": "bMs"}
ENTRY_PICKED = (("die", "1", "the 1"), ("piece", "+", "a new small Martian onto a7"))


def test_moves_all_ending_on_one_square_ask_no_square_even_when_one_is_typed() -> None:
    state = position(ENTRY, seats=3, dice=(1, 3))
    menu = RULES.menu(state, RED, {"die": "1", "piece": "+"})
    assert menu.question is not None and menu.question.key == "facing"
    assert menu.picked == ENTRY_PICKED
    assert RULES.menu(state, RED, {"die": "1", "piece": "+", "to": "a7"}) == menu


# Red's small Martian on f3 (under a Blue medium) has 21 moves with the 1, ending on f2 or f3.
TWO_ENDS = {
    "e4": "rSn",
    "f3": "bMw rSs",
    "h5": "bMe",
    "a4": "bS^",
    "c1": "bMw",
    "d3": "rM^",
    "b8": "bSn",
}


def test_moves_ending_on_two_squares_ask_the_square_and_keep_the_one_typed() -> None:
    state = position(TWO_ENDS, dice=(1, 2))
    first = RULES.menu(state, RED, {"die": "1", "piece": "f3"})
    assert first.question is not None and first.question.key == "to"
    assert [a[0] for a in first.question.answers] == ["f2", "f3"]
    menu = RULES.menu(state, RED, {"die": "1", "piece": "f3", "to": "f2"})
    assert menu.picked[-1] == ("to", "f2", "f2")
    assert menu.question is None and menu.actions == ("1: f3 F",)


def test_moves_onto_one_square_with_two_facings_ask_the_facing() -> None:
    # Red's large Martian on f4 has more than twelve moves with the 4 onto g5 (pushing the
    # pieces there), lying north or east.
    spec = {"e2": "bSe", "a4": "rSs bSe", "f4": "rLs", "a3": "bSe", "g5": "bSe rM^", "c6": "rMs"}
    state = position(spec, dice=(4, 2))
    menu = RULES.menu(state, RED, {"die": "4", "piece": "f4", "to": "g5"})
    assert menu.question is not None and menu.question.key == "facing"
    assert [a[0] for a in menu.question.answers] == ["N", "E"]
    assert menu.actions == ()


def test_a_push_with_two_answers_is_asked() -> None:
    # Red's medium Martian on c3 has sixteen moves with the 5 ending standing on a3, where a
    # Green large and a Yellow small stand: the large goes one square east or north, then
    # the small goes on; the first push, with its two answers, is asked first.
    spec = {
        "h2": "gLe",
        "h5": "rSs",
        "c7": "yS^",
        "a3": "gL^ ySn",
        "b4": "gM^ yS^",
        "c2": "yS^",
        "g2": "rMe",
        "g6": "rMn",
        "c8": "gSs",
        "c3": "rMe",
    }
    state = position(spec, seats=4, dice=(3, 5))
    picked = {"die": "5", "piece": "c3", "to": "a3", "facing": "U"}
    menu = RULES.menu(state, RED, picked)
    assert menu.question is not None and menu.question.key == "push1"
    assert [a[0] for a in menu.question.answers] == ["gL:E", "gL:N"]
    east = RULES.menu(state, RED, picked | {"push1": "gL:E"})
    assert east.question is None and len(east.actions) == 8
    assert all(a.startswith("5: c3 W F2 U x gL:E x yS:") for a in east.actions)


def test_a_push_every_move_shares_is_passed_over_and_the_next_one_asked() -> None:
    # Red's medium Martian on e6 ends standing on e8 with the 4 in fifteen ways: the Blue
    # large there can only go south (d8 and f8 hold Red pairs), so every move pushes it the
    # same; the Green small's push (three answers) is the one asked, then the Yellow small's
    # five ways are listed.
    spec = {"e8": "bL^ gS^ ySn", "e6": "rMn", "d8": "rM^ rM^", "f8": "rS^ rS^"}
    state = position(spec, seats=4, dice=(4, 1))
    picked = {"die": "4", "piece": "e6", "to": "e8", "facing": "U"}
    menu = RULES.menu(state, RED, picked)
    assert menu.question is not None and menu.question.key == "push2"
    assert [a[0] for a in menu.question.answers] == ["gS:SE", "gS:SS", "gS:SW"]
    south = RULES.menu(state, RED, picked | {"push2": "gS:SS"})
    assert south.question is None and len(south.actions) == 5
    assert all(a.startswith("4: e6 F2 U x bL:S x gS:SS x yS:S") for a in south.actions)
