"""The luck report, duplicate boards and the dice audit as JSON, and when each is refused."""

from __future__ import annotations

import pytest

from pbem.play.start import start_game
from pbem.tournaments import simulate

from ..pipe import log, play_until_over, svc_of
from ..tournaments.test_duplicate import bank_early_then_bot
from ..tournaments.test_service import new_event, started
from .test_luck_pages import finished_dice_game

PLAYERS = [("ann@example.org", "Ann"), ("bob@example.org", "Bob")]


def test_a_finished_games_luck_is_given_per_seat(app, client):
    public_id = finished_dice_game(app)
    rolls = [e for e in log(app, public_id) if e.kind == "roll"]

    reply = client.get(f"/api/games/{public_id}/luck")

    assert reply.status_code == 200
    data = reply.get_json()
    assert data["game"] == public_id and data["kind"] == "martian-dice"
    assert [s["player"] for s in data["seats"]] == ["Ann", "Bob"]
    assert sum(s["rolls"] for s in data["seats"]) == len(rolls)
    for seat in data["seats"]:
        assert seat["luck"] == pytest.approx(seat["received"] - seat["expected"])


def test_a_games_luck_is_refused_while_it_is_played(app, client):
    svc = svc_of(app)
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martian-dice", PLAYERS).game.public_id
    )

    reply = client.get(f"/api/games/{public_id}/luck")

    assert reply.status_code == 409
    assert reply.get_json()["error"] == "not-yet"
    assert "still being played" in reply.get_json()["message"]


def test_luck_is_not_found_for_a_game_without_dice_or_no_game_at_all(app, client):
    svc = svc_of(app)
    players = [*PLAYERS, ("cy@example.org", "Cy")]
    cards = svc.write(
        lambda s: start_game(s, svc.ctx, "martianopolis-500", players).game.public_id
    )

    assert client.get(f"/api/games/{cards}/luck").status_code == 404
    assert client.get("/api/games/nosuchgame/luck").status_code == 404


def test_the_dice_audit_counts_every_revealed_die_as_json(app, client):
    public_id = finished_dice_game(app)
    values = [v for e in log(app, public_id) if e.kind == "roll" for v in e.payload["values"]]

    (test,) = client.get("/api/audit/dice").get_json()["tests"]

    assert test["what"] == "die" and test["sides"] == 6 and test["total"] == len(values)
    assert test["counts"] == [values.count(face) for face in range(1, 7)]
    assert test["degrees_of_freedom"] == 5 and 0 <= test["p_value"] <= 1


def test_the_dice_audit_is_empty_before_any_seed_is_revealed(client):
    assert client.get("/api/audit/dice").get_json() == {"tests": []}


def test_a_duplicate_board_is_given_as_json_once_its_round_is_over(app, client):
    public_id, _ = new_event(app, kind="martian-dice", rounds=1, duplicate=True)
    early, bot = (t.game for t in started(app, public_id).state.tables)
    play_until_over(app, early, bank_early_then_bot)

    waiting = client.get(f"/api/tournaments/{public_id}/boards/1")
    assert waiting.status_code == 409
    assert waiting.get_json()["error"] == "not-yet"
    assert "its 2 tables are not all finished" in waiting.get_json()["message"]
    assert early not in waiting.get_data(as_text=True)

    simulate.play_out(svc_of(app), bot)
    reply = client.get(f"/api/tournaments/{public_id}/boards/1")

    assert reply.status_code == 200
    data = reply.get_json()
    assert data["round"] == 1 and data["kind"] == "martian-dice"
    assert [t["game"] for t in data["tables"]] == [early, bot]
    both = [row for row in data["rows"] if all(row["cells"])]
    # one matchpoint per turn both tables played: a win, or two halves
    assert sum(m["matchpoints"] for m in data["matchpoints"]) == len(both)
    assert set(data["luck"]) == {m["player"] for m in data["matchpoints"]}
    assert both and both[0]["cells"][0]["rolls"][0] == both[0]["cells"][1]["rolls"][0]


def test_a_board_is_not_found_for_a_round_not_paired_or_an_event_not_duplicate(app, client):
    dup, _ = new_event(app, kind="martian-dice", rounds=1, duplicate=True)
    started(app, dup)
    plain, _ = new_event(app, kind="martian-dice", rounds=1)
    started(app, plain)

    assert client.get(f"/api/tournaments/{dup}/boards/2").status_code == 404
    reply = client.get(f"/api/tournaments/{plain}/boards/1")
    assert reply.status_code == 404 and "not a duplicate event" in reply.get_json()["message"]
