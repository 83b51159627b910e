"""Tournaments on the real server: every format end to end, results, people and bad input."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from pbem import clock
from pbem.errors import Forbidden, Rejected
from pbem.log.games import load
from pbem.models import Game, Tournament, TournamentEvent
from pbem.play import deadlines
from pbem.play.act import submit
from pbem.play.start import player_for
from pbem.tournaments import directing, exports, service, simulate
from pbem.tournaments.core.export import results, standings_from_results
from pbem.tournaments.core.standings import standings
from pbem.tournaments.log import entries
from pbem.tournaments.log import load as load_tournament

from ..pipe import svc_of

FORMATS = [
    ("swiss", "martian-frisby", 5, None, {"rounds": 3}),
    ("round-robin", "martian-frisby", 4, None, {"rounds": 2}),
    ("round-robin", "martian-dice", 9, [3], {}),
    ("rolling-swiss", "martian-dice", 6, [3], {"games_per_player": 2, "max_concurrent": 1}),
    ("knockout", "martian-frisby", 5, None, {}),
    ("knockout", "martian-dice", 8, [4], {"advance": 2}),
]


@pytest.mark.parametrize(("system", "kind", "players", "sizes", "extra"), FORMATS,
                         ids=[f"{f[0]}-{f[1]}-{f[2]}" for f in FORMATS])
def test_each_format_runs_to_its_end_with_every_result_logged_once(
    app, system, kind, players, sizes, extra
):
    svc = svc_of(app)
    report = simulate.run(svc, system, kind, players, sizes, 1, extra)

    with svc.db.read() as s:
        held = load_tournament(s, report.public_id)
        games = list(s.scalars(select(Game).where(Game.tournament_id == held.row.id)))
        verified = exports.verify_held(s, held)
        kinds = [e.kind for e in entries(s, held.row)]
    assert held.state.closed and held.row.status == "closed"
    assert games and all(g.status == "finished" for g in games)
    assert sorted(t.game for t in held.state.tables) == sorted(g.public_id for g in games)
    assert kinds.count("result") == len(games)
    assert verified.problem is None, verified
    assert len(standings(held.state)) == players
    assert report.games == len(games)


def new_event(app, system="swiss", kind="martian-frisby", players=4, **fields):
    """An event with players entered but not started: its id and the players' ids."""
    svc = svc_of(app)

    def work(s):
        director = player_for(s, "director@example.org", "Dee")
        held = service.create(s, director, {"name": "Test cup", "system": system,
                                            "kind": kind, **fields})
        ids = []
        for n in range(players):
            player = player_for(s, f"p{n}@example.org", f"P{n}")
            held = service.register(s, held, player)
            ids.append(str(player.id))
        return held.public_id, ids

    return svc.write(work)


def started(app, public_id):
    svc = svc_of(app)
    return svc.write(lambda s: service.start(s, svc.ctx, load_tournament(s, public_id),
                                             clock.utcnow()))


def held_now(app, public_id):
    with svc_of(app).db.read() as s:
        return load_tournament(s, public_id)


def kinds_now(app, public_id):
    """The kinds of the tournament's logged events, in order."""
    with svc_of(app).db.read() as s:
        return [e.kind for e in entries(s, load_tournament(s, public_id).row)]


def finish_by_bots(app, public_id):
    svc = svc_of(app)
    for game in [t.game for t in held_now(app, public_id).state.tables]:
        simulate.play_out(svc, game)


def test_a_result_is_logged_in_the_transaction_of_the_games_last_move(app):
    public_id, _ = new_event(app, rounds=1)
    held = started(app, public_id)
    game = held.state.tables[0].game
    svc = svc_of(app)
    before = len(kinds_now(app, public_id))
    simulate.play_out(svc, game)

    after = held_now(app, public_id)
    assert after.state.by_game[game].result is not None
    with svc.db.read() as s:
        ended = load(s, game)
    assert after.state.by_game[game].result.head == ended.game.head_hash
    assert len(kinds_now(app, public_id)) == before + 1


def test_a_game_that_ended_without_hooks_is_caught_up_by_tick_once(app):
    public_id, _ = new_event(app, rounds=1)
    held = started(app, public_id)
    game = held.state.tables[0].game
    svc = svc_of(app)
    bare = svc.ctx.__class__(svc.ctx.base_url, svc.ctx.mail_from, svc.ctx.signer)
    for _ in range(5000):
        with svc.db.read() as s:
            loaded = load(s, game)
            if loaded.game.status != "active":
                break
            seat = loaded.awaited()[0]
            grant, action = loaded.grant(seat), loaded.rules.bot_action(loaded.state, seat)
        svc.write(lambda s, g=grant, a=action: submit(s, bare, g, a))
    assert held_now(app, public_id).state.by_game[game].result is None

    for _ in range(2):
        svc.write(lambda s: service.tick(s, svc.ctx, load_tournament(s, public_id),
                                         clock.utcnow()))

    kinds = kinds_now(app, public_id)
    assert kinds.count("result") == 1


def test_a_swiss_with_an_odd_field_gives_the_bye_to_a_different_player_each_round(app):
    public_id, ids = new_event(app, players=5, rounds=3)
    started(app, public_id)
    for _ in range(3):
        finish_by_bots(app, public_id)
    state = held_now(app, public_id).state

    assert state.closed
    assert len(state.byes) == 3 and len({b.player for b in state.byes}) == 3
    assert all(b.points == 1 for b in state.byes)


def test_a_player_who_times_out_loses_by_forfeit_and_the_event_goes_on(app):
    public_id, ids = new_event(app, rounds=1, deadline_hours=10, timeout_policy="forfeit")
    held = started(app, public_id)
    svc = svc_of(app)
    game = held.state.tables[0].game
    with svc.db.read() as s:
        since = clock.as_utc(load(s, game).game.await_since)
        games = deadlines.due_games(s)
    deadlines.tick(svc.write, svc.ctx, games, since + timedelta(hours=11))

    result = held_now(app, public_id).state.by_game[game].result
    assert result is not None
    assert "timeout" in result.flags and "forfeit" in result.flags
    assert len(result.timed_out) == 1


def test_a_withdrawal_after_the_start_resigns_the_players_games(app):
    public_id, ids = new_event(app, players=4, rounds=2)
    started(app, public_id)
    leaver = ids[0]
    svc = svc_of(app)
    svc.write(lambda s: directing.withdraw(s, svc.ctx, load_tournament(s, public_id), leaver,
                                           "moving house"))

    state = held_now(app, public_id).state
    assert state.entrant(leaver).status == "withdrawn"
    (table,) = state.games_of[leaver]
    assert table.result is not None
    assert table.result.ranks[table.seats.index(leaver)] == 2


def test_a_replacement_before_the_first_move_takes_the_place_and_the_seat(app, client):
    public_id, ids = new_event(app, players=4, rounds=1)
    held = started(app, public_id)
    svc = svc_of(app)
    table = held.state.tables[0]
    old = table.seats[1]

    def work(s):
        return directing.replace(s, svc.ctx, load_tournament(s, public_id), directing.games
                                 .OPERATOR, old, "sub@example.org", "Sub", "ill")

    svc.write(work)
    state = held_now(app, public_id).state
    with svc.db.read() as s:
        game = load(s, table.game)
        newcomer = game.player(1)
    assert newcomer.email == "sub@example.org"
    assert state.by_game[table.game].seats[1] == str(newcomer.id)


def test_a_replacement_after_the_player_moved_is_refused(app):
    public_id, ids = new_event(app, players=2, rounds=1)
    held = started(app, public_id)
    svc = svc_of(app)
    game = held.state.tables[0].game
    with svc.db.read() as s:
        loaded = load(s, game)
        seat = loaded.awaited()[0]
        grant, action = loaded.grant(seat), loaded.rules.bot_action(loaded.state, seat)
    svc.write(lambda s: submit(s, svc.ctx, grant, action))
    mover = held.state.tables[0].seats[seat]

    with pytest.raises(Rejected, match="before its first move"):
        svc.write(lambda s: directing.replace(s, svc.ctx, load_tournament(s, public_id),
                                              directing.games.OPERATOR, mover,
                                              "late@example.org", None, "x"))


def test_bad_entries_are_refused_with_a_reason_and_nothing_written(app):
    public_id, ids = new_event(app, players=2, rounds=1)
    svc = svc_of(app)

    def again(s):
        return service.register(s, load_tournament(s, public_id), player_for(s, "p0@example.org"))

    with pytest.raises(Rejected, match="already registered"):
        svc.write(again)
    started(app, public_id)
    with pytest.raises(Rejected, match="cannot enter .*: entries closed when the event started"):
        svc.write(lambda s: service.register(s, load_tournament(s, public_id),
                                             player_for(s, "late@example.org")))
    assert kinds_now(app, public_id).count("register") == 2


@pytest.mark.parametrize(("fields", "named"), [
    ({"system": "swiss", "kind": "martian-frisby", "table_sizes": [4], "rounds": 2},
     "do not fit"),
    ({"system": "swiss", "kind": "chess", "rounds": 3}, "unknown game"),
    ({"system": "swiss", "kind": "martian-frisby"}, "needs 'rounds'"),
    ({"system": "ladder", "kind": "martian-frisby"}, "system"),
])
def test_an_event_whose_format_does_not_fit_is_refused(app, fields, named):
    svc = svc_of(app)
    with pytest.raises(Rejected, match=named):
        svc.write(lambda s: service.create(s, player_for(s, "d@example.org"),
                                           {"name": "Bad", **fields}))
    with svc.db.read() as s:
        assert s.scalar(select(func.count()).select_from(Tournament)) == 0


def test_a_pairing_asked_for_while_a_round_is_open_names_the_open_games(app):
    public_id, _ = new_event(app, players=4, rounds=2)
    held = started(app, public_id)
    svc = svc_of(app)
    with pytest.raises(Rejected, match="round 1 is still open: 2 games are unfinished"):
        svc.write(lambda s: directing.pair_now(s, svc.ctx, load_tournament(s, public_id),
                                               clock.utcnow()))
    assert len(held_now(app, public_id).state.pairings) == len(held.state.pairings)


def test_only_the_director_may_direct(app):
    public_id, _ = new_event(app, rounds=1)
    svc = svc_of(app)
    with svc.db.read() as s:
        held = load_tournament(s, public_id)
        with pytest.raises(Forbidden, match="only the director"):
            directing.check_director(held, player_for(s, "p1@example.org"))


def test_verify_names_an_altered_pair_event(app):
    public_id, ids = new_event(app, players=4, rounds=2)
    started(app, public_id)
    svc = svc_of(app)
    with svc.db.write() as s:
        row = s.scalars(select(TournamentEvent).where(TournamentEvent.kind == "pair")).first()
        payload = json.loads(row.payload)
        first = payload["tables"][0]["seats"]
        payload["tables"][0]["seats"] = [first[1], first[0]]
        s.execute(update(TournamentEvent).where(TournamentEvent.seq == row.seq,
                                                TournamentEvent.tournament_id == row.tournament_id)
                  .values(payload=json.dumps(payload, sort_keys=True, separators=(",", ":"))))
        seq = row.seq

    with svc.db.read() as s:
        report = exports.verify_held(s, load_tournament(s, public_id))
    assert report.seq == seq
    assert "hash" in report.problem


def test_the_results_export_is_enough_to_recompute_the_standings(app):
    report = simulate.run(svc_of(app), "swiss", "martian-frisby", 6, None, 2, {"rounds": 2})
    state = held_now(app, report.public_id).state
    exported = json.loads(json.dumps(results(state, report.public_id)))

    again = standings_from_results(exported)
    assert [(r.player, r.place, r.points) for r in again] == [
        (r.player, r.place, r.points) for r in standings(state)]


def test_two_racing_ticks_pair_the_next_round_exactly_once(app):
    public_id, _ = new_event(app, players=4, rounds=2)
    started(app, public_id)
    finish_by_bots(app, public_id)  # round 1 ends; the last result paired round 2 already
    svc = svc_of(app)
    pairs_before = len(held_now(app, public_id).state.pairings)
    errors = []

    def racer():
        try:
            svc.write(lambda s: service.tick(s, svc.ctx, load_tournament(s, public_id,
                                                                          for_update=True),
                                             clock.utcnow()))
        except Exception as e:  # a lost race is reported, not raised in a thread
            errors.append(e)

    threads = [threading.Thread(target=racer) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert not errors
    assert len(held_now(app, public_id).state.pairings) == pairs_before == 2


def test_a_rolling_swiss_pairs_free_players_when_enough_are_free_or_one_waited_w_hours(app):
    public_id, ids = new_event(app, system="rolling-swiss", players=5, games_per_player=2,
                               max_concurrent=1, pair_min_free=4, pair_max_wait_hours=12)
    held = started(app, public_id)
    assert len(held.state.tables) == 2  # four of five are paired, one waits
    svc = svc_of(app)
    simulate.play_out(svc, held.state.tables[0].game)
    assert len(held_now(app, public_id).state.tables) == 2  # three free: fewer than four

    later = clock.utcnow() + timedelta(hours=13)
    errors = service.tick_all(svc.write, svc.ctx, later)

    assert errors == []
    assert len(held_now(app, public_id).state.tables) == 3


def test_an_event_without_rounds_mails_a_weekly_summary_once_a_week(app):
    public_id, ids = new_event(app, system="round-robin", players=3)
    started(app, public_id)
    svc = svc_of(app)
    svc.write(lambda s: s.execute(update(Tournament).values(status="running")))
    # A Wednesday noon over a week after the start: an hour later is the same ISO week
    # (eight days on, a run on a Saturday night, plus an hour, was a new week).
    later = clock.utcnow() + timedelta(days=14)
    week_later = (later - timedelta(days=later.weekday() - 2)).replace(hour=12, minute=0)

    service.tick_all(svc.write, svc.ctx, clock.utcnow())
    service.tick_all(svc.write, svc.ctx, week_later)
    service.tick_all(svc.write, svc.ctx, week_later + timedelta(hours=1))

    from ..pipe import outbox

    summaries = outbox(app, purpose="summary")
    assert len(summaries) == 4  # the three players and the director
    assert all("the week's standings" in m.subject for m in summaries)


def test_the_director_reads_each_round_summary_with_a_link_to_the_directors_page(app):
    public_id, ids = new_event(app, players=4, rounds=2)
    started(app, public_id)
    finish_by_bots(app, public_id)  # round 1 ends and round 2 is paired: a summary goes out

    from ..pipe import outbox

    mails = [m for m in outbox(app, purpose="summary") if "round 2 is paired" in m.subject]
    to_director = [m for m in mails if m.to_addr == "director@example.org"]
    assert len(mails) == 5 and len(to_director) == 1
    assert f"/tournaments/{public_id}/director" in to_director[0].body_text
    assert "round 2 is paired" in to_director[0].subject
