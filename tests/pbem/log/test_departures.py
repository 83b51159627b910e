"""Rare events asked often (which seats left a game, at every load; what its directors did,
on its page) are read through indexes of their own, not by reading the whole log."""

from __future__ import annotations

import pytest
from sqlalchemy import event, text

from pbem.log import games
from pbem.play.act import resign
from pbem.play.start import start_game

from ..pipe import THREE as PLAYERS
from ..pipe import forfeit_one, game_row, grant, loaded, move, svc_of


def test_a_seat_that_timed_out_and_forfeited_is_a_departure_and_a_resignation_is_not(app):
    svc = svc_of(app)
    public_id, seat = forfeit_one(app)

    after = loaded(app, public_id)
    assert after.gone == {seat: "timed out"}
    assert after.game.status == "active"  # two seats play on

    (resigning,) = after.awaited()
    svc.write(lambda s: resign(s, svc.ctx, grant(app, public_id, resigning)))

    ended = loaded(app, public_id)
    assert ended.game.status == "finished"
    assert ended.gone == {seat: "timed out"}  # a resignation is no departure


@pytest.mark.parametrize(("ask", "kinds", "index"), [
    (games.departures, "IN ('timeout', 'resign')", "ix_events_departures"),
    (games.directed, "IN ('extend', 'replace', 'adjudicate', 'abort', 'resign')",
     "ix_events_directed"),
], ids=["departures", "directed"])
def test_rare_events_are_read_through_their_own_index(app, ask, kinds, index):
    """The kinds are written into the SQL, so both databases can use the partial index
    (a bound list would leave them reading every event of the game): the departures asked
    at every load, the director's actions listed on the game's page."""
    svc = svc_of(app)
    public_id = svc.write(lambda s: start_game(s, svc.ctx, "martian-frisby",
                                               PLAYERS[:2]).game.public_id)
    for _ in range(4):
        move(app, public_id)
    sent: list[tuple[str, object]] = []

    with svc.db.read() as session:
        connection = session.connection()

        def seen(conn, cursor, statement, parameters, context, executemany):
            sent.append((statement, parameters))

        event.listen(connection, "before_cursor_execute", seen)
        try:
            assert not ask(session, game_row(app, public_id))
        finally:
            event.remove(connection, "before_cursor_execute", seen)
        ((statement, parameters),) = [s for s in sent if "events.kind IN" in s[0]]
        assert kinds in statement
        if connection.dialect.name == "sqlite":
            plan = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}",
                                              parameters).fetchall()
            assert index in " ".join(str(step[-1]) for step in plan), plan
        else:
            # A tiny table would be read whole whatever the index: forbid that to see
            # whether the index can answer the query at all.
            connection.execute(text("SET LOCAL enable_seqscan = off"))
            plan = connection.exec_driver_sql(f"EXPLAIN {statement}", parameters).fetchall()
            assert index in " ".join(row[0] for row in plan), plan
