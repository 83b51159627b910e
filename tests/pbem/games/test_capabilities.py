"""A game's optional capabilities reach the server: game-points scoring, mirror matches."""

from __future__ import annotations

import pytest

import engine
from pbem.errors import Rejected
from pbem.play.start import player_for
from pbem.tournaments import service
from pbem.web.games import create_from_form

from ..pipe import svc_of


@pytest.mark.parametrize(("kind", "preset", "scoring"), [
    ("martian-race", "mad-dog-phase", "game-points"),
    ("martian-race", None, "places"),
    ("mad-dog", None, "game-points"),
    ("martian-dice", None, "places"),
])
def test_an_event_scores_by_game_points_where_the_rulebook_does(app, kind, preset, scoring):
    svc = svc_of(app)
    fields = {"name": "Cup", "system": "swiss", "kind": kind, "rounds": 2, "preset": preset}

    held = svc.write(lambda s: service.create(s, player_for(s, "d@example.org"), fields))

    assert held.state.config.scoring == scoring


def test_only_games_whose_rules_offer_a_mirror_match_get_one(app):
    mirrored = [k for k in engine.GAMES if engine.rules_for(k).mirror]
    form = {"email0": "a@example.org", "email1": "b@example.org", "mirror_martian-dice": "on"}

    with pytest.raises(Rejected, match="offered for Martian Frisby, not Martian Dice"):
        with app.test_request_context():
            svc_of(app).write(lambda s: create_from_form(s, "martian-dice", form))
    assert mirrored == ["martian-frisby"]
