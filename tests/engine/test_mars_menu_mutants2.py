"""Martian Race staged menu: what each stage keeps and shows, for the mutants of choices.py.

See docs/mutants/mars-menu-2.md: each test here fails on a mutant that the menu's other tests
leave alive.
"""

from __future__ import annotations

from collections import Counter

from tests.engine.test_mars_menu import CROWDED, walk
from tests.engine.test_martian_race import RED, RULES, position

DIE = (("die", "6", "the 6"),)
PIECE = (("piece", "d4S", "the small Martian on d4, lying east"),)


def test_a_question_keeps_the_answers_so_far_and_lists_no_moves_yet() -> None:
    state = position(CROWDED, seats=4, dice=(6, 5))
    picked = {"die": "6", "piece": "d4S", "to": "e4"}
    facing = RULES.menu(state, RED, picked)
    assert facing.question is not None and facing.question.key == "facing"
    assert facing.picked == DIE + PIECE + (("to", "e4", "e4"),)
    assert facing.actions == ()
    push = RULES.menu(state, RED, picked | {"facing": "U"})
    assert push.question is not None and push.question.key == "push1"
    assert push.actions == ()


def test_a_square_from_the_address_bar_is_ignored_where_the_square_is_not_asked() -> None:
    # MR-T11 (see test_mars_menu): the large Martian on a2 has two moves, both with the 3, so
    # no square is asked; a square typed in the address bar does not filter them.
    spec = {"a2": "rL^", "a3": "bS^ bSe", "b2": "gS^ gSe", "a1": "yS^ ySe"}
    state = position(spec, seats=4, finished={RED: 2}, dice=(2, 3))
    plain = RULES.menu(state, RED, {})
    assert plain.question is None and plain.actions == ("3: a2 N F2", "3: a2 E F2")
    assert RULES.menu(state, RED, {"to": "h8"}) == plain
    assert RULES.menu(state, RED, {"die": "3", "piece": "a2", "to": "a1"}) == plain


def test_the_stages_offer_only_the_moves_that_keep_the_other_die() -> None:
    # Red's last Martian, a small on h2 lying east, with a 2 and a 1: of its twelve moves
    # one loses the other die (test_mars_moves has the rule); the stages must leave it out.
    state = position({"h2": "rSe"}, dice=(2, 1), finished={RED: 4})
    legal = RULES.legal(state, RED)
    assert len(legal) == 11
    assert Counter(walk(RULES, state, RED, {})) == Counter(legal)
    for die in ("2", "1"):
        menu = RULES.menu(state, RED, {"die": die})
        assert menu.actions == tuple(a for a in legal if a.startswith(f"{die}: "))
