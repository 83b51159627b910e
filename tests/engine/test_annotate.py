"""Point-and-click annotations: every legal action says where it starts and lands."""

from __future__ import annotations

import random

import pytest

import engine
from engine.testing import chance_event

SQUARE_GAMES = ["martian-frisby", "martian-race", "mad-dog"]


def own_or_special_squares(view, seat):
    """Squares a seat may start an action from: its pieces, Home, the Dog, a pushed piece."""
    squares = set()
    board = view["board"]
    if isinstance(board, dict):  # Frisby: square -> stack
        squares |= {sq for sq, stack in board.items() if stack and stack[-1]["seat"] == seat}
    else:  # Mars: a list of pieces
        squares |= {p["square"] for p in board if p["seat"] == seat}
    for special in view.get("specials", []):
        squares.add(special["square"])
    if view.get("dog"):
        squares.add(view["dog"]["square"])
    if view.get("push_square"):
        squares.add(view["push_square"])
    return squares


@pytest.mark.parametrize("kind", SQUARE_GAMES)
def test_every_legal_action_starts_on_a_square_of_the_mover_and_lands_on_the_board(kind):
    rules = engine.rules_for(kind)
    rng = random.Random(11)
    state = rules.start(3 if 3 in rules.seats else 2)
    checked = 0
    for _ in range(400):
        pending = rules.pending(state)
        if isinstance(pending, engine.Finished):
            break
        if not isinstance(pending, engine.Await):
            state = engine.step(rules, state, chance_event(rng, pending))
            continue
        (seat,) = pending.seats
        starts = own_or_special_squares(rules.view(state, seat), seat)
        for action in rules.legal(state, seat):
            where = rules.annotate(state, seat, action)
            assert where["from"] in starts, (action, where)
            assert where["to"] and all(
                len(sq) == 2 and sq[0] in "abcdefgh" and sq[1] in "12345678" for sq in where["to"]
            )
            checked += 1
        state = engine.step(rules, state, engine.Played(seat, rules.bot_action(state, seat)))
    assert checked > 100


def test_a_frisby_turn_lands_where_its_moves_say():
    rules = engine.rules_for("martian-frisby")
    state = engine.step(rules, rules.start(2, {"first_player": 0}), engine.Rolled((3, 5)))
    assert rules.annotate(state, 0, "a1-a4 b1-b6") == {"from": "a1", "to": ["a4", "b6"]}


def test_games_without_a_board_annotate_nothing():
    rules = engine.rules_for("martian-dice")
    state = rules.start(2, {"first_player": 0})
    assert rules.annotate(state, 0, "H roll") == {}
