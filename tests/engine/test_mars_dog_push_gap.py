"""A Mother pushed onto the Mad Dog's square where the Dog could then push her nowhere.

The rule (pbem/games/mars/dog-phase.md, End of Move Timing, copied into docs/rulings.md):
a piece that ends a move or a push on the Dog's square is attacked, pushes enemies there,
is pushed by the Dog and then grows; "It may end there only if it would be destroyed, or
the Dog could then push it." The Dog's push obeys the Pushing rules (pbem/games/mars/
movement.md): its last square must be one where the pushed piece may end, so one holding
an enemy the pushed piece could not push anywhere is no end (Mad Dog v3.1, Pushing, in
pbem/games/mars/mad-dog.txt: "it is illegal for Grey to move his piece into the corner in
the first place").

The check for a push onto the Dog's square (`Pos.arrival_ok` in
engine/games/mars/position.py) used to ask only whether the Dog's push had any path at all,
while the Dog's push itself (`Resolution.allowed` in resolution.py) also refuses ends whose
enemies cannot be pushed. Between the two a Mother could be pushed onto the Dog, survive
its attack and stay on its square: the position below was listed by `legal()`, chosen by
the house bot and accepted by `play`. Positions are built by hand with
tests/engine/test_mad_dog.py's helper, as in tests/engine/test_mars_open_mutants.py.
"""

from __future__ import annotations

import pytest

import engine
from engine import IllegalAction
from engine.games.mad_dog import RULES
from engine.games.mars.choices import bot_action
from engine.games.mars.rules import MarsRules
from engine.games.mars.state import MarsState
from tests.engine.test_mad_dog import on, play, position

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def red_enters(
    c1: str = "gS^ gS^", dice: tuple[int, int] = (1, 3), rules: MarsRules = RULES
) -> MarsState:
    """Four players, Yellow has won and runs the Dog, lying on a1; Red to play.

    Mad Dog's squares are moved into the corner (all allowed options): Home b1, Well a1
    (mediums only), Kennel b2 (larges only), Market h1. Blue's medium stands on Home; Red's
    two standing smalls on a2 and, by default, Green's two on c1 block those squares
    totally for every other colour. Red has one small in reserve.
    """
    return position(
        {"b1": "bM^", "a2": "rS^ rS^", "c1": c1},
        seats=4,
        dog=(YELLOW, "a1", "n"),
        finished={YELLOW: 3},
        dice=dice,
        to_move=RED,
        home="b1",
        market="h1",
        well="a1",
        kennel="b2",
        rules=rules,
    )


def test_a_mother_is_not_pushed_onto_the_dog_where_the_dog_could_push_her_nowhere():
    # Red's small enters on Home lying and pushes Blue's standing medium 1 square (1, no
    # bonus): c1 is blocked and the Kennel b2 admits only larges, so only onto the Dog on
    # a1 (the Well admits the medium). There the Dog would reduce it to a small and push it
    # 2 (1 + the Dog is larger): a2 and c1 are blocked, b2 and the Well are closed to a
    # small, and b1 holds Red's small, which the small would push 3 (1 + standing + lying)
    # but which can go nowhere (the Well and the Kennel are closed to it, c1 is blocked).
    # The Dog could push it nowhere, so the push, and with it Red's entry, is illegal.
    state = red_enters()
    before = RULES.dump(state)
    assert not [a for a in RULES.legal(state, RED) if " +" in a]
    assert " +" not in bot_action(state, RED)
    for text in ("1: +W", "3: +U N E"):
        with pytest.raises(IllegalAction) as caught:
            play(state, text)
        assert str(caught.value) == (
            "you may not end on b1: a piece there could not be pushed anywhere"
        )
    with pytest.raises(IllegalAction) as caught:
        play(state, "1: +W x bM:W")
    assert str(caught.value) == "Blue's medium cannot be pushed anywhere from b1"
    assert RULES.dump(state) == before


def test_where_the_mother_pushed_back_could_push_on_the_dog_sends_her_back():
    # The same entry with Green's second small on c1 lying: c1 is only partially blocked,
    # so Red's small could be pushed through it, and the Dog's push of Blue's small back
    # onto b1 is an end. The entry is legal, Blue's medium goes onto the Dog, is reduced
    # and sent back to Home, and there pushes Red's small (Blue chooses where).
    state = red_enters(c1="gS^ gSe")
    assert "1: +W x bM:W" in RULES.legal(state, RED)
    after = play(state, "1: +W")
    assert on(after, "a1") == []
    assert on(after, "b1") == ["bS^", "rSw"]
    assert after.chooser == BLUE
    assert RULES.legal(after, BLUE)


def test_a_game_begun_under_rules_version_3_replays_as_it_was_played():
    # Version 3 allowed that push (the Mother stayed on the Dog's square); a game begun under
    # it keeps its rules, so a log that recorded the entry still replays (docs/architecture.md,
    # "Rules versions and the golden corpus"). New games start at version 4.
    old = engine.rules_for("mad-dog", 3)
    state = red_enters(rules=old)
    assert "1: +W x bM:W" in old.legal(state, RED)
    after = play(state, "1: +W x bM:W", rules=old)
    assert on(after, "a1") == ["bS^"] and after.dog is not None
    assert "dog_push_ends" not in old.dump(state)["params"]  # its snapshots are as they were
    assert RULES.version == 4 and RULES.dump(red_enters())["params"]["dog_push_ends"] is True
    assert engine.rules_for("martian-race").version == 4
