"""A process's ratings follow new games by applying them one by one, and fold every game again
only when a row changed under what was folded: what keeps the ratings pages cheap as the
games grow (and the figures the same as a rebuild's)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from pbem import clock
from pbem.models import Game, RatedGameRow
from pbem.ratings import current, records
from pbem.ratings.core.fold import rebuild
from pbem.ratings.current import Current
from pbem.tournaments import simulate

from ..pipe import svc_of
from .test_server import new_game


class Counted:
    """What `Current` asked of the rows: each read's starting moment and each full fold."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads: list[datetime | None] = []
        self.rebuilds = 0
        real_rebuild, real_since = current.rebuild, current.rows_since

        def counted_rebuild(games):
            self.rebuilds += 1
            return real_rebuild(games)

        def counted_since(session, changed):
            self.reads.append(changed)
            return real_since(session, changed)

        monkeypatch.setattr(current, "rebuild", counted_rebuild)
        monkeypatch.setattr(current, "rows_since", counted_since)


def played(app) -> str:
    public_id = new_game(app)
    simulate.play_out(svc_of(app), public_id)
    return public_id


def row_of(session, public_id: str) -> RatedGameRow:
    return session.scalars(
        select(RatedGameRow)
        .join(Game, RatedGameRow.game_id == Game.id)
        .where(Game.public_id == public_id)
    ).one()


def test_new_games_are_applied_to_what_was_folded_without_folding_it_again(app, monkeypatch):
    svc, live = svc_of(app), Current()
    counted = Counted(monkeypatch)
    with svc.db.read() as s:
        assert live.get(s).folded == 0
    assert counted.reads == [] and counted.rebuilds == 0  # no rows: nothing read or folded

    played(app)
    with svc.db.read() as s:
        assert live.get(s).folded == 1
        newest = current.rows_key(s)[1]
    assert counted.rebuilds == 1 and counted.reads == [None]  # the first use folds all

    for more in (2, 3):
        played(app)
        with svc.db.read() as s:
            assert live.get(s).folded == more
            key = current.rows_key(s)
        # Only the rows written since the last look are read, and applied on top.
        assert counted.reads[-1] == newest and counted.rebuilds == 1
        newest = key[1]
    reads = len(counted.reads)
    with svc.db.read() as s:
        again = live.get(s)
        assert again.standings == rebuild(records.rated_games(s)).standings
        assert again.histories == rebuild(records.rated_games(s)).histories
    assert len(counted.reads) == reads  # nothing new: the rows are not read at all


def test_a_row_rewritten_under_what_was_folded_folds_everything_again(app, monkeypatch):
    svc, live = svc_of(app), Current()
    first, _ = played(app), played(app)
    with svc.db.read() as s:
        live.get(s)
    counted = Counted(monkeypatch)
    with svc.db.write() as s:  # the first game annulled after the second was folded
        row_of(s, first).status = "ANNULLED"
        row_of(s, first).changed_at = clock.utcnow() + timedelta(seconds=1)
    with svc.db.read() as s:
        again = live.get(s)
        assert again.standings == rebuild(records.rated_games(s)).standings
    assert counted.rebuilds == 1 and counted.reads[-1] is None


def test_a_row_that_comes_in_late_for_a_game_that_finished_earlier_folds_everything_again(
    app, monkeypatch
):
    # A game on a shared dice stream gets its row only when the stream's last game ends
    # (test_records.py), so a new row can belong before games already folded: applying it on
    # top would put it in the wrong order, so everything is folded again in finish order.
    svc, live = svc_of(app), Current()
    early, _ = played(app), played(app)
    with svc.db.read() as s:
        finished = row_of(s, early).finished_at
        live.get(s)
    late = played(app)
    with svc.db.write() as s:
        row_of(s, late).finished_at = finished - timedelta(minutes=1)
    counted = Counted(monkeypatch)
    with svc.db.read() as s:
        ratings = live.get(s)
        rebuilt = rebuild(records.rated_games(s))
    assert counted.rebuilds == 1
    assert ratings.folded == 3 and ratings.histories == rebuilt.histories


def test_rows_finished_at_the_same_moment_are_read_in_public_id_order(app):
    svc = svc_of(app)
    ids = []
    for renamed in ("g-c", "g-b", "g-a"):
        public_id = played(app)
        with svc.db.read() as s:
            ids.append(s.scalars(select(Game.id).where(Game.public_id == public_id)).one())
        with svc.db.write() as s:
            s.execute(update(Game).where(Game.public_id == public_id).values(public_id=renamed))
    moment = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    with svc.db.write() as s:
        for each, at in zip(ids, (moment, moment, moment - timedelta(hours=1)), strict=True):
            s.execute(
                update(RatedGameRow).where(RatedGameRow.game_id == each).values(finished_at=at)
            )
    with svc.db.read() as s:
        read = current.rows_since(s, None)
    assert [game.game for _, game in read] == ["g-a", "g-b", "g-c"]
    assert [game_id for game_id, _ in read] == [ids[2], ids[1], ids[0]]
