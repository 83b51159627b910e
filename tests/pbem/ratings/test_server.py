"""Ratings on the real server: rows from game logs, incremental equals rebuild, pages, CLI."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from datetime import timedelta

from sqlalchemy import delete, select, update

from pbem import clock
from pbem.log.games import load
from pbem.models import Event, Game, RatedGameRow
from pbem.play import deadlines
from pbem.play import director as directing_games
from pbem.play.start import start_game
from pbem.ratings import records
from pbem.ratings.core.fold import rebuild
from pbem.ratings.current import Current
from pbem.tournaments import simulate

from ..pipe import svc_of

PLAYERS = [("ann@example.org", "Ann"), ("bob@example.org", "Bob"), ("cy@example.org", "Cy")]


def new_game(app, kind="martian-dice", seats=2, **kw):
    svc = svc_of(app)
    return svc.write(lambda s: start_game(s, svc.ctx, kind, PLAYERS[:seats], **kw)
                     .game.public_id)


def rows(app):
    with svc_of(app).db.read() as s:
        found = s.execute(select(Game.public_id, RatedGameRow)
                          .join(RatedGameRow, RatedGameRow.game_id == Game.id))
        return {public_id: row for public_id, row in found}


def test_every_game_that_ends_gets_its_row_and_incremental_equals_rebuild(app):
    svc = svc_of(app)
    live = Current()
    report = simulate.run(svc, "swiss", "martian-dice", 6, [3], 3, {"rounds": 2})
    with svc.db.read() as s:
        first = live.get(s)
    for _ in range(3):  # more games after the first fold: applied one by one
        simulate.play_out(svc, new_game(app, seats=3))
        with svc.db.read() as s:
            live.get(s)

    with svc.db.read() as s:
        incremental = live.get(s)
        rebuilt = rebuild(records.rated_games(s))
    assert first.folded == report.games and incremental.folded == report.games + 3
    assert incremental.standings == rebuilt.standings
    assert incremental.histories == rebuilt.histories


def timed_out_game(app, policy="forfeit"):
    """A game of three whose first seat to move times out, played out: its id and that seat."""
    public_id = new_game(app, seats=3, deadline_hours=5, timeout_policy=policy)
    svc = svc_of(app)
    with svc.db.read() as s:
        game = load(s, public_id)
        seat = game.awaited()[0]
        since = clock.as_utc(game.game.await_since)
    deadlines.tick(svc.write, svc.ctx, [public_id], since + timedelta(hours=6))
    simulate.play_out(svc, public_id)
    return public_id, seat


def test_a_timed_out_seat_is_marked_and_ranks_last(app):
    public_id, seat = timed_out_game(app)

    seats = json.loads(rows(app)[public_id].seats)
    assert seats[seat]["timed_out"] is True
    assert seats[seat]["rank"] == max(s["rank"] for s in seats)


def test_aborted_adjudicated_and_unplayed_games_are_marked_as_such(app):
    svc = svc_of(app)
    aborted, judged, unplayed = new_game(app), new_game(app), new_game(app)
    simulate_one_move(app, judged)
    simulate_one_move(app, aborted)
    ann = directing_games.Director("Ann")
    svc.write(lambda s: directing_games.abort(s, svc.ctx, aborted, ann, "mistake"))
    svc.write(lambda s: directing_games.adjudicate(s, svc.ctx, judged, ann, "agreed", [2, 1]))
    svc.write(lambda s: directing_games.adjudicate(s, svc.ctx, unplayed, ann, "no show", [1, 2]))

    found = rows(app)
    assert found[aborted].status == "ABORTED"
    assert found[judged].status in ("RATED", "NEVER_MOVED") and found[judged].adjudicated
    assert [s["rank"] for s in json.loads(found[judged].seats)] == [2, 1]
    assert found[unplayed].status == "NEVER_MOVED"


def simulate_one_move(app, public_id):
    svc = svc_of(app)
    with svc.db.read() as s:
        loaded = load(s, public_id)
        seat = loaded.awaited()[0]
        grant, action = loaded.grant(seat), loaded.rules.bot_action(loaded.state, seat)
    from pbem.play.act import submit

    svc.write(lambda s: submit(s, svc.ctx, grant, action))


def test_the_rebuild_command_writes_the_same_rows_the_games_wrote(app, runner):
    simulate.run(svc_of(app), "round-robin", "martian-frisby", 3, None, 4, {})
    before = {k: (v.kind, v.finished_at, v.seats, v.status) for k, v in rows(app).items()}
    with svc_of(app).db.write() as s:
        s.execute(delete(RatedGameRow))

    result = runner.invoke(args=["ratings", "rebuild"])

    assert result.exit_code == 0, result.output
    after = {k: (v.kind, v.finished_at, v.seats, v.status) for k, v in rows(app).items()}
    assert after == before and len(after) == 3


def test_a_rebuild_over_a_log_that_fails_verification_stops_names_it_and_changes_nothing(
    app, runner
):
    simulate.run(svc_of(app), "round-robin", "martian-frisby", 3, None, 5, {})
    victim = sorted(rows(app))[1]
    with svc_of(app).db.write() as s:
        game_id = s.scalar(select(Game.id).where(Game.public_id == victim))
        s.execute(update(RatedGameRow).values(status="ANNULLED"))
        s.execute(update(Event).where(Event.game_id == game_id, Event.seq == 3)
                  .values(at="2001-01-01T00:00:00.000000+00:00"))

    result = runner.invoke(args=["ratings", "rebuild"])

    assert result.exit_code != 0
    assert f"game {victim}: seq 3" in result.output and "nothing changed" in result.output
    assert {r.status for r in rows(app).values()} == {"ANNULLED"}


def test_the_leaderboard_and_the_player_page_show_ratings_and_charts(app, client):
    report = simulate.run(svc_of(app), "swiss", "martian-frisby", 4, None, 6, {"rounds": 2})
    board = client.get("/ratings?kind=martian-frisby").get_data(as_text=True)
    data = client.get("/api/ratings?kind=martian-frisby").get_json()
    leader = data["players"][0]

    assert "Sim 00" in board and "(provisional)" in board
    assert len(data["players"]) == 4 and leader["place"] == 1
    page = client.get(f"/players/{leader['player']}").get_data(as_text=True)
    svg = page[page.index("<svg"):page.index("</svg>") + 6]
    tree = ET.fromstring(svg)
    links = tree.findall(".//{http://www.w3.org/2000/svg}a")
    assert len(links) == 2  # one point per rated game in the kind
    assert "Head to head" in page
    assert client.get(f"/api/players/{leader['player']}/ratings").get_json()["pools"]
    assert report.games == 4


def test_only_active_players_are_listed_when_asked(app, client):
    simulate.run(svc_of(app), "round-robin", "martian-frisby", 3, None, 7, {})
    with svc_of(app).db.write() as s:
        s.execute(update(RatedGameRow).values(finished_at=clock.utcnow() - timedelta(days=400)))

    everyone = client.get("/api/ratings").get_json()["players"]
    active = client.get("/api/ratings?active_days=90").get_json()["players"]

    assert len(everyone) == 3 and active == []
