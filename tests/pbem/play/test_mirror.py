"""A two-game mirror match: the seats swapped, the same dice for the same seat and turn."""

from __future__ import annotations

import pytest

from pbem.errors import Rejected
from pbem.log import store
from pbem.log.games import load
from pbem.play.start import start_mirror
from pbem.tournaments import duplicate, simulate

from ..pipe import PLAYERS, log, mirror, svc_of


def test_a_mirror_match_swaps_the_seats_and_deals_the_same_dice(app):
    svc = svc_of(app)
    first, second = mirror(app)
    for game in (first, second):
        simulate.play_out(svc, game)
    with svc.db.read() as s:
        one, two = load(s, first), load(s, second)
        assert [p.name for p in (one.player(0), one.player(1))] == ["Ann", "Bob"]
        assert [p.name for p in (two.player(0), two.player(1))] == ["Bob", "Ann"]
        assert one.game.stream == two.game.stream
        tables = [
            duplicate.Table(g.game.public_id, tuple(g.player(i).name for i in range(2)),
                            g.setup, store.entries(s, g.game))
            for g in (one, two)
        ]
    rolls = [
        {e.payload["address"]: e.payload["values"] for e in log(app, g) if e.kind == "roll"}
        for g in (first, second)
    ]
    shared = set(rolls[0]) & set(rolls[1])
    assert "first" in shared and len(shared) >= 4
    assert all(rolls[0][a] == rolls[1][a] for a in shared)
    board = duplicate.board(tables)
    # seat by seat: Ann as South against Bob as South, and the other way round
    assert sum(points for _, points in board.totals) == 2


def test_a_mirror_match_is_for_two_players(app):
    svc = svc_of(app)
    three = [*PLAYERS, ("cy@example.org", "Cy")]
    with pytest.raises(Rejected, match="two players"):
        svc.write(lambda s: start_mirror(s, svc.ctx, "martian-dice", three))
