"""Late entry: a rolling Swiss takes entrants after its start until its entries close, a Swiss
in rounds takes them before a round with the director's score per round missed, and a
refusal speaks the director's words."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from pbem.tournaments.core import formats
from pbem.tournaments.core.errors import IllegalEvent
from pbem.tournaments.core.scoring import totals
from pbem.tournaments.core.standings import standings

from ..pipe import csrf_in, outbox, sign_in
from ..web.test_api import api_token_for, bearer
from .logs import T0, Log


def run(runner, *args):
    return runner.invoke(args=list(args))


# The fold: what a late entry changes in the tournament.

def test_a_late_entrant_of_a_rolling_swiss_is_paired_like_any_free_player():
    log = Log("rolling-swiss", games_per_player=2).register("ann", "bob", "cy").start()
    log.pair(None, [("ann", "bob")])
    log.register("dan")
    t = log.tournament()
    plan = formats.plan(t, log.now + timedelta(minutes=1), frozenset())

    assert t.entrant("dan").entered_at == log.now
    assert plan is not None and sorted(plan.tables[0]) == ["cy", "dan"]


def test_a_late_swiss_entrant_scores_half_a_bye_for_each_round_missed():
    log = Log("swiss", late_entry=0.5).register("ann", "bob", "cy", "dan").start()
    g1, g2 = log.pair(1, [("ann", "bob"), ("cy", "dan")])
    log.result(g1, [1, 2]).result(g2, [2, 1])
    log.pair(2, [("ann", "dan"), ("bob", "cy")])
    log.register("eve")
    t = log.tournament()

    assert totals(t)["eve"] == 1.0  # rounds 1 and 2, half a point each
    assert [(b.round, b.points, b.late) for b in t.byes] == [(1, 0.5, True), (2, 0.5, True)]
    (row,) = [r for r in standings(t) if r.player == "eve"]
    assert "0.5 (late entry, round 1) + 0.5 (late entry, round 2) = 1" in row.lines[0]


def test_a_late_swiss_entrant_is_paired_in_the_next_round():
    log = Log("swiss", late_entry=0).register("ann", "bob", "cy").start()
    (g1,) = log.pair(1, [("ann", "bob")], byes=[("cy", 1.0)])
    log.register("dan")
    log.result(g1, [1, 2])
    plan = formats.plan(log.tournament(), log.now, frozenset())

    assert plan is not None and plan.round == 2
    assert "dan" in {p for table in plan.tables for p in table} and not plan.byes


def test_a_late_entrant_who_scores_nothing_for_missed_rounds_has_no_bye_counted():
    log = Log("swiss", late_entry=0).register("ann", "bob").start()
    log.pair(1, [("ann", "bob")])
    t = log.register("cy").tournament()
    assert totals(t)["cy"] == 0.0


@pytest.mark.parametrize(("create", "why"), [
    ({}, "Eve cannot enter: entries closed when the event started (it takes no late entries)"),
    ({"late_entry": 0.5, "rounds": 1}, "Eve cannot enter: the last round (1) is paired already"),
])
def test_a_swiss_refuses_a_late_entry_in_words(create, why):
    log = Log("swiss", **create).register("ann", "bob").start()
    log.pair(1, [("ann", "bob")])
    with pytest.raises(IllegalEvent, match=re.escape(f"(register): {why}")):
        log.register("eve").tournament()


def test_the_director_closes_the_entries_of_a_rolling_event():
    log = Log("rolling-swiss").register("ann", "bob").start()
    log.director("close_entries")
    with pytest.raises(IllegalEvent, match="Cy cannot enter: the director closed the entries"):
        log.register("cy").tournament()


def test_a_rolling_event_takes_entries_until_its_closing_time():
    closes = T0 + timedelta(hours=4)
    log = Log("rolling-swiss", registration_closes=closes.isoformat()).register("ann", "bob")
    log.start().register("cy")  # hour 4: the closing time itself
    assert "cy" in log.tournament().active()
    with pytest.raises(IllegalEvent,
                       match="Dan cannot enter: entries closed on Sunday 1 March 2026, 16:00 UTC"):
        log.register("dan").tournament()


# The server: what the director types and what they and the late entrant see.

def rolling_event(runner, *extra) -> str:
    made = run(runner, "tournament", "create", "Frisby rolling", "--system", "rolling-swiss",
               "--kind", "martian-frisby", "--games-per-player", "2", "--max-concurrent", "1",
               "--director", "Dee Director <dee@example.org>", *extra)
    assert made.exit_code == 0, made.output
    public_id = made.output.split()[0]
    entered = run(runner, "tournament", "register", public_id, "Ann <ann@example.org>",
                  "Bob <bob@example.org>", "Cy <cy@example.org>")
    assert entered.exit_code == 0, entered.output
    assert run(runner, "tournament", "start", public_id).exit_code == 0
    return public_id


def test_a_late_entrant_of_a_rolling_swiss_gets_a_game_at_once(app, client, runner):
    public_id = rolling_event(runner)
    late = run(runner, "tournament", "register", public_id, "Larry Late <larry@example.org>")
    games = client.get(f"/tournaments/{public_id}/games").get_data(as_text=True)
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    invitations = outbox(app, purpose="invite", to_addr="larry@example.org")
    verified = run(runner, "tournament", "verify", public_id)

    assert late.exit_code == 0, late.output
    assert verified.exit_code == 0 and "pairings re-derived alike" in verified.output
    assert "Larry Late" in games and "Cy" in games  # Cy waited alone; now they play
    assert len(invitations) == 1
    assert "Entries stay open after the start until the director closes them." in home
    assert "Entries are still open: a late entrant is paired from the next pairing on." in home


def test_closed_entries_are_refused_in_the_directors_words(app, runner):
    public_id = rolling_event(runner)
    closed = run(runner, "tournament", "close-entries", public_id, "--reason", "field is full")
    late = run(runner, "tournament", "register", public_id, "Larry Late <larry@example.org>")

    assert closed.exit_code == 0 and "entries closed" in closed.output
    assert late.exit_code == 1
    assert "Larry Late cannot enter Frisby rolling: the director closed the entries on" \
        in late.output
    assert not re.search(r"event \d|\(register\)", late.output)


def test_a_swiss_without_late_entries_says_so_without_ids(app, runner):
    made = run(runner, "tournament", "create", "Spring open", "--system", "swiss",
               "--kind", "martian-frisby", "--rounds", "2", "--director", "dee@example.org")
    public_id = made.output.split()[0]
    run(runner, "tournament", "register", public_id, "ann@example.org", "bob@example.org")
    run(runner, "tournament", "start", public_id)
    late = run(runner, "tournament", "register", public_id, "Larry Late <larry@example.org>")

    assert late.exit_code == 1
    assert ("Larry Late cannot enter Spring open: entries closed when the event started "
            "(it takes no late entries)") in late.output
    assert not re.search(r"event \d|\(register\)", late.output)


def test_a_late_swiss_entrant_plays_from_the_next_round_with_the_stated_score(
        app, client, runner):
    made = run(runner, "tournament", "create", "Spring open", "--system", "swiss",
               "--kind", "martian-frisby", "--rounds", "3", "--late-entry", "0.5",
               "--director", "dee@example.org")
    public_id = made.output.split()[0]
    run(runner, "tournament", "register", public_id, "Ann <ann@example.org>",
        "Bob <bob@example.org>", "Cy <cy@example.org>")
    run(runner, "tournament", "start", public_id)  # round 1: a game and a bye
    late = run(runner, "tournament", "register", public_id, "Larry Late <larry@example.org>")
    table = run(runner, "tournament", "standings", public_id, "--explain")
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    (first,) = [g["game"] for g in client.get(f"/api/tournaments/{public_id}/games").get_json()]
    ended = run(runner, "director", "adjudicate", first, "--ranks", "1,2", "--reason", "agreed")
    games = client.get(f"/api/tournaments/{public_id}/games").get_json()
    names = {str(e["id"]): e["name"] for e in
             client.get(f"/api/tournaments/{public_id}/results").get_json()["players"]}
    second = [[names[s["player"]] for s in g["seats"]] for g in games if g["round"] == 2]
    verified = run(runner, "tournament", "verify", public_id)

    assert late.exit_code == 0, late.output
    assert ended.exit_code == 0, ended.output
    assert any("Larry Late" in seats for seats in second), second
    assert verified.exit_code == 0, verified.output
    assert "Larry Late" in table.output
    assert "0.5 (late entry, round 1)" in table.output
    assert "a late entrant scores half a bye for each round missed" in home


def test_a_refused_director_action_names_players_not_ids_or_events(app, runner):
    public_id = rolling_event(runner)
    first = run(runner, "tournament", "withdraw", public_id, "ann@example.org", "--reason", "ill")
    again = run(runner, "tournament", "withdraw", public_id, "ann@example.org", "--reason", "ill")

    assert first.exit_code == 0, first.output
    assert again.exit_code == 1
    assert "Error: Ann is already withdrawn" in again.output
    assert not re.search(r"event \d|'\d+'", again.output)


def test_a_rolling_event_with_an_entry_deadline_waits_for_late_entrants(app, client, runner):
    closes = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%d %H:%M")
    made = run(runner, "tournament", "create", "Open house", "--system", "rolling-swiss",
               "--kind", "martian-frisby", "--games-per-player", "1", "--max-concurrent", "1",
               "--entries-close", closes, "--director", "dee@example.org")
    public_id = made.output.split()[0]
    run(runner, "tournament", "register", public_id, "Ann <ann@example.org>",
        "Bob <bob@example.org>")
    run(runner, "tournament", "start", public_id)
    (game,) = [g["game"] for g in client.get(f"/api/tournaments/{public_id}/games").get_json()]
    run(runner, "director", "adjudicate", game, "--ranks", "1,2", "--reason", "agreed")
    waiting = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    run(runner, "tournament", "register", public_id, "Cy <cy@example.org>",
        "Dan <dan@example.org>")
    games = client.get(f"/tournaments/{public_id}/games").get_data(as_text=True)

    assert made.exit_code == 0, made.output
    assert "<strong>Running.</strong>" in waiting and "Entries close on " in waiting
    assert "Cy" in games and "Dan" in games
    assert len(outbox(app, purpose="invite", to_addr="dan@example.org")) == 1


def test_late_entrants_enter_a_rolling_swiss_from_its_page_and_the_api(app, client, runner):
    public_id = rolling_event(runner)
    sign_in(app, client, "larry@example.org")
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    entered = client.post(f"/tournaments/{public_id}/register", data={"csrf": csrf_in(home)},
                          follow_redirects=True)
    by_api = client.post(f"/api/tournaments/{public_id}/register",
                         headers=bearer(api_token_for(app, "mo@example.org")))

    assert "Entries are still open: a late entrant is paired from the next pairing on." in home
    assert "Enter me" in home
    assert "You are entered in Frisby rolling." in entered.get_data(as_text=True)
    assert by_api.status_code == 201 and by_api.get_json()["entrants"] == 5
    assert len(outbox(app, purpose="invite", to_addr="larry@example.org")) == 1
