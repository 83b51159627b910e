"""A seat that times out and forfeits is told at that moment, and never reads "resigned"."""

from __future__ import annotations

from datetime import timedelta

from pbem import clock
from pbem.play import deadlines
from pbem.play.start import start_game

from ..pipe import game_row, loaded, outbox, svc_of

PLAYERS = [("ann@example.org", "Ann"), ("bob@example.org", "Bob"), ("cy@example.org", "Cy")]


def test_a_forfeit_in_a_game_that_goes_on_is_mailed_to_the_player_at_once(app, client):
    svc = svc_of(app)
    public_id = svc.write(lambda s: start_game(
        s, svc.ctx, "martian-dice", PLAYERS, deadline_hours=10, timeout_policy="forfeit",
    ).game.public_id)
    (seat,) = loaded(app, public_id).awaited()
    since = clock.as_utc(game_row(app, public_id).await_since)

    deadlines.tick(svc.write, svc.ctx, [public_id], since + timedelta(hours=11))

    assert game_row(app, public_id).status == "active"
    (notice,) = outbox(app, purpose="notice", to_addr=PLAYERS[seat][0])
    assert "you timed out and forfeit this game, which goes on without you" in notice.body_text
    assert not [m for m in outbox(app, purpose="notice") if m.to_addr != PLAYERS[seat][0]]
    history = client.get(f"/games/{public_id}/history").get_data(as_text=True)
    assert "Time ran out (forfeit)" in history and "resign" not in history
    page = client.get(f"/games/{public_id}").get_data(as_text=True)
    assert "timed out" in page and "resigned" not in page
