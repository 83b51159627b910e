"""The rated-game rows read from game logs: how each game counts, and the rows' upkeep."""

from __future__ import annotations

import json

from sqlalchemy import select, update

from pbem.log import store
from pbem.models import Game
from pbem.play import director as directing_games
from pbem.ratings import records

from ..pipe import svc_of
from .test_server import new_game, rows, simulate_one_move

ANN = directing_games.Director("Ann")


def moved(app, public_id: str) -> set[int]:
    with svc_of(app).db.read() as s:
        game = s.scalars(select(Game).where(Game.public_id == public_id)).one()
        return {e.seat for e in store.entries(s, game) if e.kind == "move"}


def test_a_game_ended_without_an_outcome_counts_as_aborted_whatever_its_status_says(app):
    # A game imported before imports kept the director's ruling has its abort in its log but
    # the status "finished": the log has no outcome, so ratings read it as aborted, as they
    # read a game aborted here.
    svc = svc_of(app)
    public_id = new_game(app)
    while len(moved(app, public_id)) < 2:  # both seats move: only the ruling leaves it unrated
        simulate_one_move(app, public_id)
    svc.write(lambda s: directing_games.abort(s, svc.ctx, public_id, ANN, "set up by mistake"))
    assert rows(app)[public_id].status == "ABORTED"
    with svc.db.write() as s:
        s.execute(update(Game).where(Game.public_id == public_id).values(status="finished"))
        game = s.scalars(select(Game).where(Game.public_id == public_id)).one()
        records.refresh(s, game)

    row = rows(app)[public_id]
    assert row.status == "ABORTED" and not row.adjudicated
    assert [seat["rank"] for seat in json.loads(row.seats)] == [None, None]
