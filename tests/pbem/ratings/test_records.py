"""The rated-game rows read from game logs: how each game counts, and the rows' upkeep."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import delete, select, update

from pbem import clock
from pbem.log import store
from pbem.models import Event, Game, Player, RatedGameRow
from pbem.play import director as directing_games
from pbem.play.start import start_game
from pbem.ratings import current, records
from pbem.ratings.core.fold import rebuild
from pbem.ratings.core.games import RatedGame, Seat, Status
from pbem.ratings.current import Current
from pbem.tournaments import directing, simulate
from pbem.tournaments.log import load as load_tournament

from ..pipe import svc_of
from ..tournaments.test_service import new_event, started
from .test_server import new_game, rows, simulate_one_move, timed_out_game

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


def entry(seq: int, kind: str, at: str) -> store.LogEntry:
    return store.LogEntry(seq, kind, None, {}, at, "00" * 32)


def test_house_bots_and_unknown_importees_are_not_rated_people_are():
    assert records.is_rated_player("ann@example.org")
    assert not records.is_rated_player("house-1@bot.invalid")
    assert not records.is_rated_player("seat-2@imported.invalid")


def test_a_game_ends_at_its_last_event_before_the_seeds_reveal():
    log = [entry(0, "setup", "2026-03-01T10:00:00+00:00"),
           entry(1, "move", "2026-03-01T11:00:00+02:00"),
           entry(2, "reveal", "2026-03-01T12:00:00+00:00")]
    assert records.finished_at(log) == datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def test_a_row_reads_back_as_the_game_it_stores():
    seats = (Seat("7", 2, True), Seat(None, 1, False), Seat("9", 3, False))
    game = RatedGame("g1", "martian-dice", datetime(2026, 3, 1, 9, 0, tzinfo=UTC), seats,
                     Status.NEVER_MOVED, True)
    row = records.to_row(5, game)
    assert (row.game_id, row.kind, row.status, row.adjudicated) == (
        5, "martian-dice", "NEVER_MOVED", True)
    assert json.loads(row.seats) == [{"player": "7", "rank": 2, "timed_out": True},
                                     {"player": None, "rank": 1, "timed_out": False},
                                     {"player": "9", "rank": 3, "timed_out": False}]
    assert records.from_row("g1", row) == game


def game_id(app, public_id: str) -> int:
    with svc_of(app).db.read() as s:
        return s.scalars(select(Game.id).where(Game.public_id == public_id)).one()


def test_rows_come_in_finish_order_and_only_games_over_are_rebuilt(app):
    svc = svc_of(app)
    first, going, second = new_game(app), new_game(app), new_game(app)
    simulate.play_out(svc, second)
    simulate.play_out(svc, first)
    with svc.db.read() as s:
        assert [g.game for g in records.rated_games(s)] == [second, first]
        assert records.finished_games(s) == sorted(game_id(app, g) for g in (first, second))
        going_row = s.scalars(select(Game).where(Game.public_id == going)).one()
    with svc.db.write() as s:
        records.refresh(s, s.get(Game, going_row.id))  # still playing: no row
    assert going not in rows(app)


def played_games(app, count: int) -> tuple[list[str], list[int]]:
    """Games of Martian Dice played out one after the other: their public ids and ids."""
    played = [new_game(app) for _ in range(count)]
    for public_id in played:
        simulate.play_out(svc_of(app), public_id)
    return played, [game_id(app, g) for g in played]


def test_rows_finished_at_the_same_moment_come_by_game_id(app):
    # Finish order first, whatever the ids and the order the rows were written; the game id
    # orders games that ended at the same moment, whatever order the database keeps them in.
    svc = svc_of(app)
    played, ids = played_games(app, 3)
    moment = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    with svc.db.write() as s:
        for each, renamed, at in zip(ids, ("g-c", "g-b", "g-a"),
                                     (moment, moment, moment + timedelta(hours=1)), strict=True):
            s.execute(update(Game).where(Game.id == each).values(public_id=renamed))
            s.execute(update(RatedGameRow).where(RatedGameRow.game_id == each)
                      .values(finished_at=at))
    with svc.db.read() as s:
        found = records.rated_games(s)
    assert [(g.game, g.finished_at) for g in found] == [
        ("g-b", moment), ("g-c", moment), ("g-a", moment + timedelta(hours=1))]


def test_a_rebuild_takes_its_games_a_batch_at_a_time_and_skips_one_that_is_gone(app):
    svc = svc_of(app)
    played, ids = played_games(app, 3)
    with svc.db.write() as s:
        s.execute(delete(RatedGameRow))
    runs = []

    def run(work):
        runs.append(work)
        svc.write(work)

    assert list(records.rebuild_rows(run, [*ids, 10**6], batch=2)) == [2, 2]
    assert len(runs) == 2 and set(rows(app)) == set(played)
    assert list(records.rebuild_rows(run, ids)) == [3]  # 200 a batch by default


def test_a_log_is_trusted_only_with_its_chain_intact_and_ending_at_the_games_head(app):
    svc = svc_of(app)
    good, moved, cut = new_game(app), new_game(app), new_game(app)
    with svc.db.write() as s:
        ids = {g: s.scalars(select(Game.id).where(Game.public_id == g)).one()
               for g in (good, moved, cut)}
        s.execute(update(Event).where(Event.game_id == ids[moved], Event.seq == 0)
                  .values(at="2001-01-01T00:00:00.000000+00:00"))
        s.execute(update(Game).where(Game.id == ids[cut]).values(head_seq=5))
    with svc.db.read() as s:
        assert records.unverified(s, ids[good]) is None
        assert records.unverified(s, 10**6) is None
        assert records.unverified(s, ids[moved]).startswith(f"game {moved}: seq 0: ")
        assert records.unverified(s, ids[cut]) == (
            f"game {cut}: the log does not end at the game's head")
        assert list(records.check_logs(s, [ids[good], ids[good]])) == [1, 1]
        checked = records.check_logs(s, [ids[good], ids[cut]])
        assert next(checked) == 1
        with pytest.raises(records.RatingsLogError, match=(
                f"^ratings were not rebuilt, nothing changed: game {cut}: the log does not "
                "end at the game's head$")):
            next(checked)
    assert records.RatingsLogError.status == 409
    assert records.RatingsLogError.code == "log-does-not-verify"


def test_ratings_kept_by_a_process_follow_new_rows_and_a_rewritten_one(app):
    svc = svc_of(app)
    live = Current()
    with svc.db.read() as s:
        assert current.rows_key(s) == (0, None)
        assert live.get(s).folded == 0
    first, second, third = new_game(app), new_game(app), new_game(app)
    simulate.play_out(svc, first)
    with svc.db.read() as s:
        assert live.get(s).folded == 1
        count, newest = current.rows_key(s)
        assert count == 1 and newest is not None
    simulate.play_out(svc, second)
    simulate.play_out(svc, third)
    with svc.db.read() as s:
        assert [g.game for _, g in current.rows_since(s, newest)] == [second, third]
        assert [g.game for _, g in current.rows_since(s, None)] == [first, second, third]
        assert live.get(s).folded == 3
        assert live.get(s).standings == rebuild(records.rated_games(s)).standings
    # The first game annulled after the others: its row is rewritten, and all is folded again.
    with svc.db.write() as s:
        s.execute(update(RatedGameRow).where(RatedGameRow.game_id == game_id(app, first))
                  .values(status="ANNULLED", changed_at=clock.utcnow() + timedelta(seconds=1)))
    with svc.db.read() as s:
        again = live.get(s)
        assert again.folded == 3 and again.standings == rebuild(records.rated_games(s)).standings
        assert again.standings != rebuild([]).standings
    live.clear()
    with svc.db.read() as s:
        assert live.get(s).standings == again.standings


def test_a_players_rating_and_games_for_entry_rules(app):
    svc = svc_of(app)
    current.CURRENT.clear()
    with svc.db.read() as s:  # nobody has played yet
        assert current.rating_of(s, 1, "martian-dice") is None
        assert current.entry_record(s, 1, "martian-dice") == (None, 0)
    public_id = new_game(app)
    simulate.play_out(svc, public_id)
    with svc.db.read() as s:
        ann = s.scalars(select(Player.id).where(Player.email == "ann@example.org")).one()
        rating = current.rating_of(s, ann, "martian-dice")
        standing = rebuild(records.rated_games(s)).standings["martian-dice"][str(ann)]
        assert rating == float(standing.display) and isinstance(rating, float)
        assert current.entry_record(s, ann, "martian-dice") == (rating, 1)
        assert current.rating_of(s, ann, "martian-frisby") is None
        assert current.entry_record(s, ann, "martian-frisby") == (None, 0)


def test_a_rated_events_games_have_rows_and_an_unrated_events_have_none(app):
    svc = svc_of(app)
    rated = simulate.run(svc, "round-robin", "martian-frisby", 3, None, 4, {}).public_id
    unrated = simulate.run(svc, "round-robin", "martian-frisby", 3, None, 5, {"rated": False})
    with svc.db.read() as s:
        counted = set(load_tournament(s, rated).state.by_game)
        theirs = set(load_tournament(s, unrated.public_id).state.by_game)
    assert len(counted) == len(theirs) == 3
    assert {rows(app)[g].status for g in counted} == {"RATED"} and not theirs & set(rows(app))


def test_a_game_its_rated_event_annulled_has_an_annulled_row(app):
    svc = svc_of(app)
    public_id, _ = new_event(app, rounds=1)
    annulled, counted = (t.game for t in started(app, public_id).state.tables)
    svc.write(lambda s: directing.annul(s, load_tournament(s, public_id), ANN, annulled,
                                        "played by the wrong players"))
    for game in (annulled, counted):
        simulate.play_out(svc, game)
    assert (rows(app)[annulled].status, rows(app)[counted].status) == ("ANNULLED", "RATED")


def test_only_the_seat_that_timed_out_is_flagged_in_its_games_row(app):
    public_id, seat = timed_out_game(app)
    seats = json.loads(rows(app)[public_id].seats)
    assert [s["timed_out"] for s in seats] == [n == seat for n in range(3)]


def test_a_seat_of_an_unknown_importee_is_in_the_row_as_nobody_rated(app):
    svc = svc_of(app)
    public_id = svc.write(lambda s: start_game(
        s, svc.ctx, "martian-dice", [("ann@example.org", "Ann"), ("g-seat1@imported.invalid", None)]
    ).game.public_id)
    simulate.play_out(svc, public_id)
    with svc.db.read() as s:
        ann = s.scalars(select(Player.id).where(Player.email == "ann@example.org")).one()
    row = rows(app)[public_id]
    assert [seat["player"] for seat in json.loads(row.seats)] == [str(ann), None]


def test_an_adjudicated_game_counts_with_the_directors_places_and_says_so(app):
    svc = svc_of(app)
    public_id = new_game(app)
    while len(moved(app, public_id)) < 2:
        simulate_one_move(app, public_id)
    svc.write(lambda s: directing_games.adjudicate(s, svc.ctx, public_id, ANN, "agreed", [2, 1]))
    row = rows(app)[public_id]
    assert (row.status, bool(row.adjudicated)) == ("RATED", True)
    assert [seat["rank"] for seat in json.loads(row.seats)] == [2, 1]


def test_the_last_game_on_a_shared_dice_stream_to_end_brings_in_the_rows_of_the_others(app):
    svc = svc_of(app)
    first, last = new_game(app, stream="s-shared"), new_game(app, stream="s-shared")
    alone = new_game(app)
    simulate.play_out(svc, first)
    assert first not in rows(app)  # its dice are still the other table's to come
    simulate.play_out(svc, last)
    simulate.play_out(svc, alone)
    assert {public_id: row.status for public_id, row in rows(app).items()} == {
        first: "RATED", last: "RATED", alone: "RATED"}
