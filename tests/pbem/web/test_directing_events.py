"""An event's director directs its games on the web, and everyone touched is told by mail."""

from __future__ import annotations

from datetime import timedelta

from pbem import clock
from pbem.log.games import load
from pbem.play import deadlines
from pbem.play.start import player_for
from pbem.tournaments import exports, service, simulate
from pbem.tournaments.log import load as load_tournament

from ..pipe import csrf_in, log, outbox, sign_in, svc_of

DIRECTOR = "director@example.org"


def new_event(app, system="swiss", kind="martian-frisby", players=4, **fields):
    """A started event, directed by Dee: its id and the players' ids in entry order."""
    svc = svc_of(app)

    def work(s):
        director = player_for(s, DIRECTOR, "Dee")
        held = service.create(s, director, {"name": "Test cup", "system": system,
                                            "kind": kind, **fields})
        ids = []
        for n in range(players):
            held = service.register(s, held, player_for(s, f"p{n}@example.org", f"P{n}"))
            ids.append(str(held.state.entrants[-1].player))
        held = service.start(s, svc.ctx, held, clock.utcnow())
        return held.public_id, ids

    return svc.write(work)


def held_now(app, public_id):
    with svc_of(app).db.read() as s:
        return load_tournament(s, public_id)


def verified(app, public_id):
    with svc_of(app).db.read() as s:
        return exports.verify_held(s, load_tournament(s, public_id)).problem


def email_of(n: int) -> str:
    return f"p{n}@example.org"


def post(client, path, **data):
    page = client.get(path)
    assert page.status_code == 200, page.get_data(as_text=True)
    return client.post(path, data={"csrf": csrf_in(page.get_data(as_text=True)), **data})


def mails_to(app, address, purpose=None):
    where = {"to_addr": address, **({"purpose": purpose} if purpose else {})}
    return [m.body_text for m in outbox(app, **where)]


def test_the_events_director_adjudicates_its_game_on_the_web_and_the_mail_names_them(
    app, client
):
    public_id, ids = new_event(app, rounds=1)
    table = held_now(app, public_id).state.tables[0]
    sign_in(app, client, DIRECTOR)

    game_page = client.get(f"/games/{table.game}").get_data(as_text=True)
    done = post(client, f"/games/{table.game}/director", action="adjudicate", ranks="1,2",
                reason="agreed by both")

    assert f'href="/games/{table.game}/director"' in game_page
    assert done.status_code == 303
    result = held_now(app, public_id).state.by_game[table.game].result
    assert result is not None and "adjudicated" in result.flags
    for player in table.seats:
        (mail,) = mails_to(app, email_of(ids.index(player)), "result")
        assert "adjudicated by Dee: agreed by both" in mail and "operator" not in mail
    assert "adjudicated by Dee: agreed by both" in client.get(f"/games/{table.game}").get_data(
        as_text=True)
    assert verified(app, public_id) is None


def test_a_player_of_the_event_may_not_direct_its_games(app, client):
    public_id, _ = new_event(app, rounds=1)
    game = held_now(app, public_id).state.tables[0].game
    sign_in(app, client, email_of(0))

    page = client.get(f"/games/{game}").get_data(as_text=True)
    refused = client.get(f"/games/{game}/director")

    assert f"/games/{game}/director" not in page
    assert refused.status_code == 403
    assert "only the director of the event Test cup" in refused.get_data(as_text=True)


def test_the_events_director_aborts_a_game_and_the_event_annuls_it(app, client):
    public_id, ids = new_event(app, rounds=1)
    game = held_now(app, public_id).state.tables[0].game
    sign_in(app, client, DIRECTOR)

    done = post(client, f"/games/{game}/director", action="abort", reason="server trouble")

    assert done.status_code == 303
    table = held_now(app, public_id).state.by_game[game]
    assert table.annulled is not None and "Dee: server trouble" in table.annulled
    mail = mails_to(app, email_of(ids.index(table.seats[0])), "result")[0]
    assert "aborted by Dee: server trouble" in mail
    assert verified(app, public_id) is None


def test_replacing_a_seat_on_the_game_page_replaces_the_entrant_and_tells_everyone(
    app, client
):
    public_id, ids = new_event(app, rounds=1)
    table = held_now(app, public_id).state.tables[0]
    old, other = table.seats[1], table.seats[0]
    sign_in(app, client, DIRECTOR)

    done = post(client, f"/games/{table.game}/director", action="replace", seat="1",
                email="sub@example.org", name="Sub", reason="fell ill")

    assert done.status_code == 303
    held = held_now(app, public_id)
    newcomer = held.state.by_game[table.game].seats[1]
    assert held.state.entrant(newcomer).name == "Sub"
    logged = [e.payload for e in held.events if e.kind == "replace"]
    assert logged[0]["reason"] == "fell ill" and logged[0]["director"] == "Dee"
    (told_old,) = mails_to(app, email_of(ids.index(old)), "notice")
    assert "Dee replaced you by Sub in Test cup (fell ill)" in told_old
    (told_other,) = mails_to(app, email_of(ids.index(other)), "notice")
    assert f"Dee replaced P{ids.index(old)} by Sub as North in this game (fell ill)" in told_other
    assert mails_to(app, "sub@example.org", "invite")
    page = client.get(f"/games/{table.game}").get_data(as_text=True)
    assert "North is now played by Sub (Dee: fell ill)" in page
    assert verified(app, public_id) is None


def test_an_extension_on_the_game_page_is_mailed_to_the_players_and_shown(app, client):
    public_id, ids = new_event(app, rounds=1)
    table = held_now(app, public_id).state.tables[0]
    sign_in(app, client, DIRECTOR)

    done = post(client, f"/games/{table.game}/director", action="extend", hours="24",
                reason="a long weekend")

    assert done.status_code == 303
    state = held_now(app, public_id).state
    assert state.by_game[table.game].extra_hours == 24
    for player in table.seats:
        (mail,) = mails_to(app, email_of(ids.index(player)), "notice")
        assert "Dee extended the deadline of this game by 24 hours (a long weekend)" in mail
        assert "may be taken until" in mail
    page = client.get(f"/games/{table.game}").get_data(as_text=True)
    assert "Deadline extended by 24 hours (Dee: a long weekend)" in page


def test_a_withdrawal_is_mailed_as_a_withdrawal_never_as_a_resignation(app, client):
    public_id, ids = new_event(app, rounds=2)
    leaver = ids[0]
    table = held_now(app, public_id).state.games_of[leaver][0]
    opponent = next(p for p in table.seats if p != leaver)
    sign_in(app, client, DIRECTOR)

    done = post(client, f"/tournaments/{public_id}/director", action="withdraw",
                player=leaver, reason="moving house")

    assert done.status_code == 303
    seat = table.seats.index(leaver)
    name = ("South", "North")[seat]
    (result,) = mails_to(app, email_of(ids.index(opponent)), "result")
    assert f"{name} left the event (Dee: moving house)" in result
    assert "resign" not in result
    (told,) = mails_to(app, email_of(0), "notice")
    assert "Dee withdrew you from Test cup (moving house)" in told
    logged = next(e.payload for e in held_now(app, public_id).events if e.kind == "withdraw")
    assert logged["by"] == "Dee" and logged["reason"] == "moving house"
    card = client.get(f"/tournaments/{public_id}/players/{leaver}").get_data(as_text=True)
    assert "Withdrawn by Dee on" in card and "moving house" in card
    page = client.get(f"/games/{table.game}").get_data(as_text=True)
    assert f"{name} left the event (Dee: moving house)" in page and "resigned" not in page
    assert verified(app, public_id) is None


def time_out(app, game):
    svc = svc_of(app)
    with svc.db.read() as s:
        since = clock.as_utc(load(s, game).game.await_since)
    deadlines.tick(svc.write, svc.ctx, [game], since + timedelta(hours=11))


def test_a_timeout_says_timed_out_and_the_next_round_is_mailed_after_the_result(app, client):
    public_id, ids = new_event(app, players=2, rounds=2, deadline_hours=10,
                               timeout_policy="forfeit")
    game = held_now(app, public_id).state.tables[0].game

    time_out(app, game)

    held = held_now(app, public_id)
    assert held.state.by_game[game].result is not None and len(held.state.pairings) == 2
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert "timed out and forfeits" in page and "resigned" not in page
    mails = outbox(app)
    results = [i for i, m in enumerate(mails) if m.purpose == "result"]
    assert len(results) == 2
    for i in results:
        assert "timed out and forfeits" in mails[i].body_text
        assert "resigned" not in mails[i].body_text
    second = next(t.game for t in held.state.tables if t.round == 2)
    invites = [i for i, m in enumerate(mails) if m.purpose == "invite" and second in m.subject]
    summary = [i for i, m in enumerate(mails) if m.purpose == "summary"]
    assert invites and max(results) < min(invites + summary)
    assert any(e.kind == "timeout" for e in log(app, game))


def test_an_undone_pairing_stays_on_record_with_its_extension_and_is_not_paired_again(
    app, client
):
    public_id, ids = new_event(app, system="rolling-swiss", games_per_player=2,
                               max_concurrent=1)
    first, other = held_now(app, public_id).state.tables[:2]
    sign_in(app, client, DIRECTOR)
    director = f"/tournaments/{public_id}/director"

    post(client, director, action="extend", game=first.game, hours="24", reason="a holiday")
    done = post(client, director, action="undo", game=first.game, reason="paired by mistake")

    assert done.status_code == 303
    state = held_now(app, public_id).state
    (undone,) = state.undone
    assert undone.table.game == first.game and undone.table.extra_hours == 24
    assert first.game not in state.by_game
    assert len(state.tables) == 1, "the two are not paired again at once"
    page = client.get(f"/tournaments/{public_id}/games").get_data(as_text=True)
    assert "undone by Dee (paired by mistake); it had been given 24 more hours" in page
    for player in first.seats:
        mails = outbox(app, to_addr=email_of(ids.index(player)))
        said = [m.purpose for m in mails if m.purpose in ("notice", "result")]
        assert said == ["notice", "result"], "told of the extension, then of the undo"
        assert "aborted by Dee: paired by mistake" in mails[-1].body_text

    simulate.play_out(svc_of(app), other.game)

    state = held_now(app, public_id).state
    later = [set(t.seats) for t in state.tables if t.game != other.game]
    assert later and set(first.seats) not in later
    assert verified(app, public_id) is None


def test_a_disqualified_player_is_told_why_and_their_opponent_reads_who_did_it(app, client):
    public_id, ids = new_event(app, rounds=2)
    cheat = ids[1]
    table = held_now(app, public_id).state.games_of[cheat][0]
    opponent = next(p for p in table.seats if p != cheat)
    sign_in(app, client, DIRECTOR)

    done = post(client, f"/tournaments/{public_id}/director", action="disqualify",
                player=cheat, reason="two accounts")

    assert done.status_code == 303
    (told,) = mails_to(app, email_of(1), "notice")
    assert "Dee disqualified you from Test cup (two accounts)" in told
    (result,) = mails_to(app, email_of(ids.index(opponent)), "result")
    assert "left the event (Dee: two accounts)" in result and "resign" not in result
    card = client.get(f"/tournaments/{public_id}/players/{cheat}").get_data(as_text=True)
    assert "Disqualified by Dee on" in card and "two accounts" in card
    assert verified(app, public_id) is None
