"""Martian Race and Mad Dog answer every question exactly as the recorded digests say."""

from __future__ import annotations

import json

import pytest

from tests.engine import mars_equivalence

GAMES = list(mars_equivalence.games())
STORED = json.loads(mars_equivalence.DIGESTS.read_text())


def test_every_recorded_game_is_still_played():
    assert sorted(STORED) == sorted(g.name for g in GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_random_game_gives_the_same_states_answers_and_refusals_as_recorded(game):
    assert mars_equivalence.check(game, STORED[game.name].split()) is None
