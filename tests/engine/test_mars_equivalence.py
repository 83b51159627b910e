"""Martian Race and Mad Dog answer every question exactly as the recorded digests say."""

from __future__ import annotations

import json

import pytest

from tests.engine import mars_equivalence

GAMES = list(mars_equivalence.games())
STORED = json.loads(mars_equivalence.DIGESTS.read_text())


def test_every_recorded_game_is_still_played():
    assert sorted(STORED) == sorted(g.name for g in GAMES)


# The default run compares a short game whole and the opening of a few others: a picture
# costs a tenth of a second or more, and the slow set compares every game to its end.
WHOLE = "mad-dog-resign-2"
OPENINGS = ["martian-race-default-3", "martian-race-resign-2", "mad-dog-tournament-3"]
OPENING_STEPS = 20


def test_a_short_recorded_game_gives_the_same_answers_to_its_end():
    (game,) = [g for g in GAMES if g.name == WHOLE]
    assert len(STORED[WHOLE].split()) < 40, "a short game: the default run must stay quick"
    assert mars_equivalence.check(game, STORED[WHOLE].split()) is None


@pytest.mark.parametrize("name", OPENINGS)
def test_the_opening_of_a_recorded_game_gives_the_same_answers(name):
    (game,) = [g for g in GAMES if g.name == name]
    assert mars_equivalence.check(game, STORED[name].split(), OPENING_STEPS) is None


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_random_game_gives_the_same_states_answers_and_refusals_as_recorded(game):
    assert mars_equivalence.check(game, STORED[game.name].split()) is None
