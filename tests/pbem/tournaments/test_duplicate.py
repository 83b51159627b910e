"""Duplicate events: one deal of dice per round, matchpointed turn by turn or seat by seat."""

from __future__ import annotations

import pytest

from pbem.errors import Rejected
from pbem.log import store
from pbem.log.games import load
from pbem.play.start import start_game
from pbem.tournaments import duplicate, simulate

from ..pipe import play_until_over, svc_of
from .test_service import held_now, new_event, started


def bank_early_then_bot(loaded, seat):
    """Stop at the first chance in round 1, then play as the house bot."""
    if loaded.state.round > 1:
        return loaded.rules.bot_action(loaded.state, seat)
    legal = loaded.rules.legal(loaded.state, seat)
    return next((a for a in legal if a.endswith("stop")), legal[0])


def test_matchpoints_give_one_per_table_beaten_and_a_half_per_tie():
    assert duplicate.matchpoints({"a": 3, "b": 5, "c": 3}) == {"a": 0.5, "b": 2.0, "c": 0.5}


@pytest.mark.parametrize(("fields", "named"), [
    ({"system": "swiss", "rounds": 1, "kind": "martianopolis-500", "table_sizes": [3]},
     "need a dice game"),
    ({"system": "rolling-swiss", "kind": "martian-dice", "games_per_player": 2,
      "max_concurrent": 1}, "need rounds"),
    ({"system": "swiss", "rounds": 1, "kind": "martian-dice", "table_sizes": [2, 3]},
     "same number of players"),
])
def test_a_duplicate_event_that_cannot_share_its_dice_is_refused(app, fields, named):
    with pytest.raises(Rejected, match=named):
        new_event(app, duplicate=True, **fields)


def test_games_of_another_kind_or_options_cannot_join_a_dice_stream(app):
    svc = svc_of(app)
    players = [("ann@example.org", "Ann"), ("bob@example.org", "Bob")]

    def game(s, **kw):
        return start_game(s, svc.ctx, "martian-dice", players, stream="deal-1", dice_scheme=2,
                          **kw)

    svc.write(game)
    with pytest.raises(Rejected, match="same game with the same options.*duel_retie"):
        svc.write(lambda s: game(s, options={"duel_retie": "shared"}))
    with pytest.raises(Rejected, match="dice_scheme 1, not 2"):
        svc.write(lambda s: start_game(s, svc.ctx, "martian-dice", players, stream="deal-1"))


def test_a_duplicate_martian_dice_round_shares_its_dice_and_shows_its_board(app, client):
    public_id, _ = new_event(app, kind="martian-dice", rounds=1, duplicate=True)
    held = started(app, public_id)
    early, bot = (t.game for t in held.state.tables)
    svc = svc_of(app)
    with svc.db.read() as s:
        loaded = [load(s, g) for g in (early, bot)]
        assert {g.game.stream for g in loaded} == {f"{public_id}-r1"}
        assert {g.setup.dice_scheme for g in loaded} == {2}

    play_until_over(app, early, bank_early_then_bot)
    waiting = client.get(f"/tournaments/{public_id}/boards/1").get_data(as_text=True)
    assert "The 2 tables of this round are not all finished" in waiting and early not in waiting
    simulate.play_out(svc, bot)

    page = client.get(f"/tournaments/{public_id}/boards/1")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert early in text and bot in text and "Matchpoints" in text
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    assert f"/tournaments/{public_id}/boards/1" in home
    with svc.db.read() as s:
        tables = [
            duplicate.Table(g, ("A", "B"), load(s, g).setup, store.entries(s, load(s, g).game))
            for g in (early, bot)
        ]
    board = duplicate.board(tables)
    both = [row for row in board.rows if all(row.cells)]
    assert both, "the tables share at least their first round"
    for row in both:
        first, second = row.cells
        # the first roll of a turn is all 13 dice: the same faces at both tables
        assert first["rolls"][0] == second["rolls"][0]
        assert first["matchpoints"] + second["matchpoints"] == 1
    assert any(row.cells[0]["picks"] != row.cells[1]["picks"] for row in both)
    assert set(board.luck) == {"A", "B"} and "Luck" in text


def test_a_duplicate_race_round_is_matchpointed_seat_by_seat(app, client):
    public_id, _ = new_event(app, kind="martian-race", rounds=1, duplicate=True,
                             options={"max_turns": 6})
    held = started(app, public_id)
    for table in held.state.tables:
        simulate.play_out(svc_of(app), table.game)

    page = client.get(f"/tournaments/{public_id}/boards/1").get_data(as_text=True)

    assert "Seat 1" in page and "Seat 2" in page and "MP" in page
    assert len(held_now(app, public_id).state.tables) == 2


def test_a_board_of_games_that_differ_is_refused(app):
    svc = svc_of(app)
    players = [("ann@example.org", "Ann"), ("bob@example.org", "Bob")]
    ids = [
        svc.write(lambda s, k=kind: start_game(s, svc.ctx, k, players).game.public_id)
        for kind in ("martian-dice", "martian-race")
    ]
    with svc.db.read() as s:
        tables = [duplicate.Table(g, ("A", "B"), load(s, g).setup,
                                  store.entries(s, load(s, g).game)) for g in ids]
    with pytest.raises(Rejected, match="game 'martian-race' instead of 'martian-dice'"):
        duplicate.board(tables)
