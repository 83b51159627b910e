"""A seat that times out and forfeits is told at that moment, and never reads "resigned"."""

from __future__ import annotations

from ..pipe import THREE as PLAYERS
from ..pipe import forfeit_one, game_row, outbox


def test_a_forfeit_in_a_game_that_goes_on_is_mailed_to_the_player_at_once(app, client):
    public_id, seat = forfeit_one(app)

    assert game_row(app, public_id).status == "active"
    (notice,) = outbox(app, purpose="notice", to_addr=PLAYERS[seat][0])
    assert "you timed out and forfeit this game, which goes on without you" in notice.body_text
    assert not [m for m in outbox(app, purpose="notice") if m.to_addr != PLAYERS[seat][0]]
    history = client.get(f"/games/{public_id}/history").get_data(as_text=True)
    assert "Time ran out (forfeit)" in history and "resign" not in history
    page = client.get(f"/games/{public_id}").get_data(as_text=True)
    assert "timed out" in page and "resigned" not in page
