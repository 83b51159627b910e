"""The luck report on game and player pages, and the published test of fair dice."""

from __future__ import annotations

from pbem.log.games import load
from pbem.luck.core import luck
from pbem.play.start import start_game
from pbem.tournaments import simulate
from pbem.web.luck import game_luck

from ..pipe import log, resign_until_over, svc_of


def finished_dice_game(app) -> str:
    svc = svc_of(app)
    players = [("ann@example.org", "Ann"), ("bob@example.org", "Bob")]
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martian-dice", players, options={"first_player": 0})
        .game.public_id
    )
    simulate.play_out(svc, public_id)
    return public_id


def test_a_finished_game_shows_each_seats_luck(app, client):
    public_id = finished_dice_game(app)
    with svc_of(app).db.read() as s:
        loaded = load(s, public_id)
        player = loaded.player(0)
    rolls = [e for e in log(app, public_id) if e.kind == "roll"]

    page = client.get(f"/games/{public_id}").get_data(as_text=True)
    card = client.get(f"/players/{player.id}").get_data(as_text=True)

    assert "<h2>Luck</h2>" in page and "Expected" in page
    assert "Running total" in card and public_id in card
    # Each page says how the game measures a roll, in the words of the game's luck model.
    assert "what it could expect: the points a turn could still expect after each roll" in page
    assert "(Martian Dice: the points a turn could still expect after each roll" in card
    with svc_of(app).db.read() as s:
        figures = game_luck(s, load(s, public_id))
    assert figures is not None and sum(figures.rolls) == len(rolls)  # no duel, no first roll


def test_a_game_in_play_shows_no_luck_yet(app, client):
    svc = svc_of(app)
    players = [("ann@example.org", "Ann"), ("bob@example.org", "Bob")]
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martian-dice", players).game.public_id
    )
    assert "<h2>Luck</h2>" not in client.get(f"/games/{public_id}").get_data(as_text=True)


def test_the_dice_audit_counts_every_revealed_die(app, client):
    public_id = finished_dice_game(app)
    values = [v for e in log(app, public_id) if e.kind == "roll" for v in e.payload["values"]]
    expected = luck.Fairness(6, tuple(values.count(face) for face in range(1, 7)))

    page = client.get("/audit/dice").get_data(as_text=True)

    assert f"6-sided dice: {len(values)} rolled" in page
    assert f"Chi-square {expected.chi_square:.3f} with 5 degrees of freedom" in page
    assert f"p = {expected.p_value:.4f}" in page
    assert "/audit/dice" in client.get(f"/games/{public_id}/audit").get_data(as_text=True)


def test_the_dice_audit_counts_revealed_shuffles_by_their_first_item(app, client):
    svc = svc_of(app)
    players = [("r@example.org", "Rae"), ("y@example.org", "Yul"), ("b@example.org", "Bo")]
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martianopolis-500", players).game.public_id
    )
    resign_until_over(app, public_id)
    shuffles = [e.payload["order"] for e in log(app, public_id) if e.kind == "shuffle"]

    page = client.get("/audit/dice").get_data(as_text=True)

    assert shuffles
    for n in {len(order) for order in shuffles}:
        count = sum(len(order) == n for order in shuffles)
        assert f"Shuffles of {n} items: {count} shuffled" in page


def test_the_dice_audit_adds_the_games_revealed_since_it_was_last_read(app, client):
    first = finished_dice_game(app)
    client.get("/audit/dice")
    second = finished_dice_game(app)
    values = [
        v for game in (first, second)
        for e in log(app, game) if e.kind == "roll" for v in e.payload["values"]
    ]

    page = client.get("/audit/dice").get_data(as_text=True)

    assert f"6-sided dice: {len(values)} rolled" in page
