"""A mirror match from the new-game form: two Martian Frisby games, one deal, seats swapped."""

from __future__ import annotations

from sqlalchemy import select

from pbem.log.games import load
from pbem.models import Game

from ..pipe import csrf_in, sign_in, svc_of


def post_new_game(client, **fields):
    form_page = client.get("/games/new").get_data(as_text=True)
    data = {"csrf": csrf_in(form_page), "kind": "martian-frisby",
            "email0": "ann@example.org", "name0": "Ann", **fields}
    return client.post("/games/new", data=data, follow_redirects=True)


def test_the_form_offers_a_mirror_match_for_martian_frisby_only(app, client):
    sign_in(app, client, "ann@example.org")

    page = client.get("/games/new").get_data(as_text=True)

    assert 'name="mirror_martian-frisby"' in page
    assert 'name="mirror_martian-dice"' not in page


def test_a_ticked_mirror_match_starts_two_games_on_one_deal_with_the_seats_swapped(app, client):
    sign_in(app, client, "ann@example.org")

    created = post_new_game(client, email1="bob@example.org", name1="Bob",
                            **{"mirror_martian-frisby": "on"})

    assert created.status_code == 200
    with svc_of(app).db.read() as s:
        first, second = (load(s, g) for g in s.scalars(select(Game.public_id).order_by(Game.id)))
        ann_bob = ["ann@example.org", "bob@example.org"]
        assert [first.player(i).email for i in range(2)] == ann_bob
        assert [second.player(i).email for i in range(2)] == ann_bob[::-1]
        assert first.game.stream == second.game.stream != first.game.public_id
        assert first.setup.dice_scheme == second.setup.dice_scheme == 2
    text = created.get_data(as_text=True)
    assert f"/games/{first.game.public_id}" in created.request.path
    assert f"game {second.game.public_id}, the seats swapped" in text


def test_a_mirror_match_for_one_player_is_refused_and_the_form_kept(app, client):
    sign_in(app, client, "ann@example.org")

    refused = post_new_game(client, **{"mirror_martian-frisby": "on"})

    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert "two players swapping seats" in text
    assert 'name="mirror_martian-frisby" checked' in text
    with svc_of(app).db.read() as s:
        assert s.scalars(select(Game.id)).first() is None


def test_an_unticked_box_starts_one_game(app, client):
    sign_in(app, client, "ann@example.org")

    post_new_game(client, email1="bob@example.org", name1="Bob")

    with svc_of(app).db.read() as s:
        assert len(s.scalars(select(Game.id)).all()) == 1
