"""Games sharing one stream of dice stay with their players until every table has ended."""

from __future__ import annotations

import json

from sqlalchemy import select

from pbem.links import MoveGrant
from pbem.log import store
from pbem.log.games import load
from pbem.models import DiceStream
from pbem.play.start import start_game
from pbem.tournaments import simulate

from ..pipe import PLAYERS, mirror, play_until_over, sign_in, svc_of
from ..tournaments.test_duplicate import bank_early_then_bot
from ..tournaments.test_service import new_event, started

HELD = "shares its dice with other tables"


def secrets_of(app, public_id):
    """What must not leak from a game: its rolls (payloads and event hashes) and the seed."""
    svc = svc_of(app)
    with svc.db.read() as s:
        game = load(s, public_id).game
        entries = store.entries(s, game)
        seed = s.scalars(select(DiceStream.seed).where(DiceStream.name == game.stream)).one()
    rolls = [e for e in entries if e.kind == "roll"]
    assert rolls, "the game rolled dice"
    found = {seed}
    for entry in rolls:
        found.add(entry.hash)
        found.add(json.dumps(entry.payload, sort_keys=True, separators=(",", ":")))
        found.add(json.dumps(entry.payload["values"]))
        found.add(json.dumps(entry.payload["values"], separators=(",", ":")))
    return found


def player_pages(app, public_id):
    """The public pages of a game's players (their luck would tell of its dice)."""
    with svc_of(app).db.read() as s:
        return tuple(f"/players/{seat.player_id}" for seat in load(s, public_id).game.seats)


def game_surfaces(client, public_id, head):
    """Every public address that shows something of one game."""
    paths = [
        f"/games/{public_id}",
        f"/games/{public_id}/history",
        *(f"/games/{public_id}/history/{seq}" for seq in range(head + 1)),
        f"/games/{public_id}/audit",
        f"/games/{public_id}/log.jsonl",
        f"/api/games/{public_id}",
        f"/api/games/{public_id}/log",
        f"/api/games/{public_id}/luck",
    ]
    return {path: client.get(path) for path in paths}


def assert_held(client, games, leaks, also=()):
    """Nobody but a player sees the games, and no answer names a roll or the seed."""
    for public_id in games:
        head = load_head(client, public_id)
        for path, response in game_surfaces(client, public_id, head).items():
            text = response.get_data(as_text=True)
            assert response.status_code == 403, path
            if path.startswith("/api/"):
                assert response.get_json()["error"] == "shared-dice", path
            assert HELD in text and "open when every table has finished" in text, path
            assert not [leak for leak in leaks if leak in text], path
    for path in also:
        text = client.get(path).get_data(as_text=True)
        assert not [leak for leak in leaks if leak in text], path


def load_head(client, public_id):
    svc = client.application.extensions["pbem"]
    with svc.db.read() as s:
        return load(s, public_id).game.head_seq


def assert_open_and_verified(app, client, runner, games):
    for public_id in games:
        head = load_head(client, public_id)
        for path, response in game_surfaces(client, public_id, head).items():
            assert response.status_code == 200, path
        audit = client.get(f"/games/{public_id}/audit").get_data(as_text=True)
        assert "every roll and shuffle matches the revealed seed" in audit
        result = runner.invoke(args=["verify", public_id])
        assert result.exit_code == 0, result.output
        assert "every chance event matches the revealed seed" in result.output
        exported = runner.invoke(args=["export", public_id])
        assert exported.exit_code == 0 and '"reveal"' in exported.output


def test_a_mirror_match_keeps_the_ended_game_with_its_players_until_the_other_ends(
    app, client, runner
):
    svc = svc_of(app)
    first, second = mirror(app)
    simulate.play_out(svc, first)
    leaks = secrets_of(app, first)
    with svc.db.read() as s:
        assert load(s, first).game.status == "finished"
        assert load(s, second).game.status == "active"
        assert not [e for e in store.entries(s, load(s, first).game) if e.kind == "reveal"]
        head = load(s, first).game.head_seq

    assert_held(client, (first, second), leaks, also=("/", *player_pages(app, first)))
    exported = runner.invoke(args=["export", first])
    assert exported.exit_code != 0 and HELD in exported.output
    assert not [leak for leak in leaks if leak in exported.output]
    checked = runner.invoke(args=["verify", first])  # the operator's check, on the server
    assert checked.exit_code == 0 and "the stream's last game ends" in checked.output

    # Its player, by a move link of the game, still sees it all.
    token = svc.signer.move_token(MoveGrant(first, 0, head))
    for path in (f"/games/{first}/log.jsonl", f"/api/games/{first}/log",
                 f"/games/{first}/history", f"/games/{first}/audit"):
        assert client.get(f"{path}?token={token}").status_code == 200, path
    audit = client.get(f"/games/{first}/audit?token={token}").get_data(as_text=True)
    assert "the dice are checked when the stream's last game ends" in audit
    assert f"/games/{first}/log.jsonl?token={token}" in audit  # its links keep the way in
    seat_page = client.get(f"/play/{token}").get_data(as_text=True)
    assert f"/games/{first}/history?token=" in seat_page
    # A link of the other game opens only that one.
    other = svc.signer.move_token(MoveGrant(second, 0, 0))
    assert client.get(f"/games/{first}/log.jsonl?token={other}").status_code == 403
    # And signed in, as on any day.
    sign_in(app, client, PLAYERS[0][0])
    assert client.get(f"/games/{first}").status_code == 200
    assert client.get(f"/api/games/{first}/log").status_code == 200
    assert app.test_client().get(f"/games/{first}").status_code == 403

    simulate.play_out(svc, second)
    assert_open_and_verified(app, client, runner, (first, second))


def test_a_duplicate_round_keeps_its_tables_with_their_players_until_the_last_ends(
    app, client, runner
):
    public_id, _ = new_event(app, kind="martian-dice", rounds=1, duplicate=True)
    held = started(app, public_id)
    early, late = (t.game for t in held.state.tables)
    svc = svc_of(app)
    play_until_over(app, early, bank_early_then_bot)
    leaks = secrets_of(app, early)
    board_pages = (f"/tournaments/{public_id}/boards/1", f"/api/tournaments/{public_id}/boards/1",
                   f"/tournaments/{public_id}", f"/api/tournaments/{public_id}/games")
    assert_held(client, (early, late), leaks, also=(*board_pages, *player_pages(app, early)))
    page = client.get(player_pages(app, early)[0]).get_data(as_text=True)
    assert "<h2>Luck</h2>" not in page  # the held game's luck would tell of its dice

    simulate.play_out(svc, late)
    assert_open_and_verified(app, client, runner, (early, late))
    page = client.get(player_pages(app, early)[0]).get_data(as_text=True)
    assert "<h2>Luck</h2>" in page and f"mono muted\">{early}</span>" in page
    assert client.get(f"/tournaments/{public_id}/boards/1").status_code == 200


def test_a_game_on_its_own_stream_is_public_as_it_is_played(app, client):
    svc = svc_of(app)
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martian-frisby", PLAYERS).game.public_id
    )
    head = load_head(client, public_id)
    for path, response in game_surfaces(client, public_id, head).items():
        if path.endswith("/luck"):
            assert response.status_code == 409  # luck is shown once the game ends
        else:
            assert response.status_code == 200, path
