"""A Swiss's round timetable: round k starts by its date (on the clock's pass, as `pbem tick
--at` shows on a test instance), the last round's unfinished games adjudicated or carried;
the director may start a round early on the web, the command line or the API."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from pbem.tournaments import adjudication
from pbem.tournaments.core import formats
from pbem.tournaments.core.errors import BadFormat, IllegalEvent
from pbem.tournaments.core.model import Event
from pbem.tournaments.core.scoring import totals
from pbem.tournaments.core.verify import verify
from pbem.tournaments.log import core_events, entries, load
from tests.conftest import make_app

from ..log.forgery import rechain
from ..pipe import csrf_in, outbox, sign_in, svc_of
from ..web.test_api import api_token_for, bearer
from .logs import T0, Log

PLAYERS = ("Ann <ann@example.org>", "Bob <bob@example.org>", "Cy <cy@example.org>",
           "Di <di@example.org>")


def run(runner, *args):
    return runner.invoke(args=[str(a) for a in args])


def when(delta: timedelta) -> str:
    return (datetime.now(UTC) + delta).strftime("%Y-%m-%d %H:%M")


def timetabled(runner, unfinished: str | None, *dates: str, rounds: int = 2) -> str:
    """A 4-player Swiss of Martian Dice duels, started; round 1 is paired."""
    timetable = [a for d in dates for a in ("--round-start", d)]
    if unfinished:
        timetable += ["--unfinished-games", unfinished]
    made = run(runner, "tournament", "create", "Timed open", "--system", "swiss", "--kind",
               "martian-dice", "--rounds", rounds, "--director", "Dee <dee@example.org>",
               "--deadline-hours", 24 * 7, *timetable)
    assert made.exit_code == 0, made.output
    public_id = made.output.split()[0]
    assert run(runner, "tournament", "register", public_id, *PLAYERS).exit_code == 0
    assert run(runner, "tournament", "start", public_id).exit_code == 0
    return public_id


def state(app, public_id):
    with svc_of(app).db.read() as s:
        return load(s, public_id).state


def name(t, player: str) -> str:
    return t.entrant(player).name


def end_one_game_of_round_1(app, runner, public_id: str) -> tuple[str, str]:
    """Adjudicate the first game of round 1 by hand; return (ended, still unfinished)."""
    first, second = (tb.game for tb in state(app, public_id).tables)
    done = run(runner, "director", "adjudicate", first, "--ranks", "1,2", "--reason", "agreed")
    assert done.exit_code == 0, done.output
    return first, second


@pytest.fixture
def test_app(settings):
    app = make_app(replace(settings, test_instance=True))
    yield app
    app.extensions["pbem"].db.dispose()


def pairs(t, round_: int) -> set[frozenset[str]]:
    return {frozenset(tb.seats) for tb in t.tables if tb.round == round_}


def test_on_the_date_an_unfinished_game_is_adjudicated_and_round_2_paired(test_app):
    runner = test_app.test_cli_runner()
    public_id = timetabled(runner, "adjudicate", when(timedelta(days=2)))
    _, late = end_one_game_of_round_1(test_app, runner, public_id)

    early = run(runner, "tick", "--at", "+1d")
    assert early.exit_code == 0, early.output
    assert state(test_app, public_id).last_round() == 1  # not before its date
    ticked = run(runner, "tick", "--at", "+3d")
    assert ticked.exit_code == 0, ticked.output

    t = state(test_app, public_id)
    table = t.by_game[late]
    assert table.result is not None and "adjudicated" in table.result.flags
    assert table.result.ranks == (1, 1)  # 0 to 0: level scores draw
    assert t.last_round() == 2 and len(pairs(t, 2)) == 2
    assert not pairs(t, 1) & pairs(t, 2)
    (start,) = t.round_starts
    assert start.timetable and start.unfinished == "adjudicate" and start.games == (late,)
    assert start.by == "the server (on the timetable Dee set)"
    assert "round 2 starts by" in start.reason
    for player in table.seats:
        person = name(t, player).lower()
        (notice,) = outbox(test_app, purpose="notice", to_addr=f"{person}@example.org")
        assert "the server (on the timetable Dee set) started round 2" in notice.body_text
        assert "ended by adjudication on the scores so far" in notice.body_text
    (told,) = outbox(test_app, purpose="notice", to_addr="dee@example.org")
    assert f"adjudicated on the scores so far: {late}" in told.body_text
    verified = run(runner, "tournament", "verify", public_id)
    assert verified.exit_code == 0, verified.output
    game = test_app.test_client().get(f"/games/{late}").get_data(as_text=True)
    assert "level, so a draw" in game
    home = test_app.test_client().get(f"/tournaments/{public_id}").get_data(as_text=True)
    assert "Round 2: starts by" in home and "on the timetable" in home


def test_on_the_date_a_carried_game_goes_on_and_counts_for_its_own_round(test_app):
    runner = test_app.test_cli_runner()
    public_id = timetabled(runner, "carry", when(timedelta(days=2)), when(timedelta(days=4)),
                           rounds=3)
    _, late = end_one_game_of_round_1(test_app, runner, public_id)

    ticked = run(runner, "tick", "--at", "+3d")
    assert ticked.exit_code == 0, ticked.output
    t = state(test_app, public_id)
    assert t.last_round() == 2 and t.by_game[late].result is None
    assert not pairs(t, 1) & pairs(t, 2)  # the carried pair is not paired again
    carried = set(t.by_game[late].seats)
    assert all(any(p in tb.seats for tb in t.tables if tb.round == 2) for p in carried)
    for player in carried:
        person = name(t, player).lower()
        (notice,) = outbox(test_app, purpose="notice", to_addr=f"{person}@example.org")
        assert "goes on: play it to the end, its result counts for round 1" in notice.body_text

    ended = run(runner, "director", "adjudicate", late, "--ranks", "2,1", "--reason", "agreed")
    assert ended.exit_code == 0, ended.output
    t = state(test_app, public_id)
    table = t.by_game[late]
    assert table.round == 1 and table.result is not None and table.result.ranks == (2, 1)
    assert t.last_round() == 2  # round 3 waits for round 2, not for the carried game
    for game in [tb.game for tb in t.tables if tb.round == 2]:
        run(runner, "director", "adjudicate", game, "--ranks", "1,2", "--reason", "agreed")
    t = state(test_app, public_id)
    assert t.last_round() == 3
    assert not (pairs(t, 3) & (pairs(t, 1) | pairs(t, 2)))
    verified = run(runner, "tournament", "verify", public_id)
    assert verified.exit_code == 0, verified.output


def test_a_forged_early_pairing_without_a_start_fails_verify(test_app):
    runner = test_app.test_cli_runner()
    public_id = timetabled(runner, "carry", when(timedelta(days=2)))
    end_one_game_of_round_1(test_app, runner, public_id)
    run(runner, "tick", "--at", "+3d")
    with svc_of(test_app).db.read() as s:
        held = load(s, public_id)
        events = core_events(entries(s, held.row))
    assert verify(events) is None
    forged = [e for e in events if e.payload.get("action") != "start-round"]
    forged = [Event(i, e.kind, e.payload, e.at) for i, e in enumerate(forged)]
    problem = verify(forged)
    assert problem is not None
    assert "while round 1 still had unfinished games" in problem.problem
    assert "no start of round 2 (by the director, or on the timetable) was logged" in \
        problem.problem


def test_pbem_tournament_verify_refuses_an_exported_log_without_the_start(test_app, tmp_path):
    runner = test_app.test_cli_runner()
    public_id = timetabled(runner, "carry", when(timedelta(days=2)))
    end_one_game_of_round_1(test_app, runner, public_id)
    run(runner, "tick", "--at", "+3d")
    path = tmp_path / "log.jsonl"
    assert run(runner, "tournament", "export", public_id, "--what", "log", "-o", path) \
        .exit_code == 0
    honest = run(runner, "tournament", "verify", path)
    assert honest.exit_code == 0, honest.output
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    kept = [line for line in lines
            if not (isinstance(line, dict) and (line.get("payload") or {}).get("action")
                    == "start-round")]
    seq = 0
    for line in kept[1:]:
        line["seq"], seq = seq, seq + 1
    path.write_text("".join(json.dumps(line) + "\n" for line in rechain(kept)))

    forged = run(runner, "tournament", "verify", path)

    assert forged.exit_code != 0
    assert "while round 1 still had unfinished games" in forged.output
    assert "no start of round 2 (by the director, or on the timetable) was logged" in \
        forged.output


def test_the_director_starts_round_2_early_on_the_web(test_app):
    runner = test_app.test_cli_runner()
    public_id = timetabled(runner, None)
    _, late = end_one_game_of_round_1(test_app, runner, public_id)
    client = test_app.test_client()
    sign_in(test_app, client, "dee@example.org")
    page = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    assert "Start round 2 now" in page and 'name="unfinished" value="carry"' in page
    form = {"csrf": csrf_in(page), "action": "start-round", "unfinished": "carry",
            "reason": "Bob is travelling"}
    unconfirmed = client.post(f"/tournaments/{public_id}/director", data=form)
    assert "tick the box to confirm" in unconfirmed.get_data(as_text=True)
    done = client.post(f"/tournaments/{public_id}/director", data={**form, "confirm": "yes"},
                       follow_redirects=True)
    assert done.status_code == 200, done.get_data(as_text=True)
    t = state(test_app, public_id)
    (start,) = t.round_starts
    assert (start.by, start.reason, start.timetable) == ("Dee", "Bob is travelling", False)
    assert t.last_round() == 2 and t.by_game[late].result is None
    page = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    assert "started round 2 early" in page and "Bob is travelling" in page
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    assert "early: Dee started it before round 1 was over (Bob is travelling)" in home
    assert run(runner, "tournament", "verify", public_id).exit_code == 0


def test_the_director_starts_a_round_from_the_command_line_and_the_api(test_app):
    runner = test_app.test_cli_runner()
    public_id = timetabled(runner, None, rounds=3)
    _, late = end_one_game_of_round_1(test_app, runner, public_id)
    started = run(runner, "tournament", "start-round", public_id, "--unfinished", "adjudicate",
                  "--reason", "the weekend is over")
    assert started.exit_code == 0, started.output
    assert "round 2 started" in started.output
    t = state(test_app, public_id)
    assert t.by_game[late].result is not None and t.last_round() == 2
    assert t.round_starts[0].by == "the operator"

    client = test_app.test_client()
    headers = bearer(api_token_for(test_app, "dee@example.org"))
    actions = f"/api/tournaments/{public_id}/actions"
    bad = client.post(actions, headers=headers, json={
        "action": "start-round", "unfinished": "later", "reason": "why not", "confirm": True})
    assert bad.status_code == 422 and "adjudicate" in bad.get_json()["message"]
    made = client.post(actions, headers=headers, json={
        "action": "start-round", "unfinished": "carry", "reason": "holidays", "confirm": True})
    assert made.status_code == 200, made.get_json()
    assert made.get_json()["done"] == "Round 3 is started."
    t = state(test_app, public_id)
    assert t.round_starts[1].games == tuple(sorted(tb.game for tb in t.tables
                                                   if tb.round == 2))
    assert not pairs(t, 3) & (pairs(t, 1) | pairs(t, 2))

    again = run(runner, "tournament", "start-round", public_id, "--unfinished", "carry",
                "--reason", "x")
    assert again.exit_code != 0 and "round 3 is the last round of Timed open" in again.output
    assert run(runner, "tournament", "verify", public_id).exit_code == 0


@pytest.mark.parametrize(("extra", "why"), [
    (["--round-start", "+1"], "give round 2's start as YYYY-MM-DD HH:MM (UTC)"),
    (["--round-start", "2020-01-01 10:00", "--unfinished-games", "carry"],
     "round 2's start, "),
    (["--round-start", "2099-01-01 10:00"], "say what becomes of a game still unfinished"),
    (["--unfinished-games", "carry"], "give the date by which each round from 2 on starts"),
    (["--round-start", "2099-01-01 10:00", "--round-start", "2098-01-01 10:00",
      "--unfinished-games", "carry", "--rounds", "3"], "which is not after round 2's date"),
    (["--round-start", "2099-01-01 10:00", "--round-start", "2099-01-02 10:00",
      "--unfinished-games", "carry"], "needs a date for each round from 2 to 2: 1 date, not 2"),
    (["--round-start", "2099-01-01 10:00", "--round-start", "2100-06-02 10:00",
      "--unfinished-games", "carry", "--rounds", "3"], "more than a year after round 2"),
])
def test_a_bad_timetable_is_refused_on_the_command_line(runner, extra, why):
    rounds = [] if "--rounds" in extra else ["--rounds", "2"]
    made = run(runner, "tournament", "create", "Timed open", "--system", "swiss", "--kind",
               "martian-dice", "--director", "dee@example.org", *rounds, *extra)
    assert made.exit_code != 0
    assert why in made.output, made.output


def test_a_timetable_is_refused_for_a_round_robin_and_a_bad_one_on_the_form_and_api(
        app, client):
    sign_in(app, client, "dee@example.org")
    page = client.get("/tournaments/new").get_data(as_text=True)
    assert 'name="round_starts"' in page and 'value="adjudicate"' in page
    form = {"csrf": csrf_in(page), "name": "Timed open", "system": "swiss",
            "kind": "martian-dice", "rounds": "3", "deadline_hours": "72",
            "round_starts": "2099-01-02 10:00\n2099-01-01 10:00", "unfinished_games": "carry"}
    refused = client.post("/tournaments/new", data=form)
    assert refused.status_code == 422
    assert "round 3 starts by Thursday 1 January 2099, 10:00 UTC, which is not after round " \
        "2's date" in html.unescape(refused.get_data(as_text=True))
    made = client.post("/tournaments/new", data={
        **form, "round_starts": "2099-01-01 10:00\n2099-01-02 10:00"})
    assert made.status_code == 303
    home = client.get(made.headers["Location"]).get_data(as_text=True)
    assert "Round 2: starts by Thursday 1 January 2099, 10:00 UTC" in home

    headers = bearer(api_token_for(app, "dee@example.org"))
    api = client.post("/api/tournaments", headers=headers, json={
        "name": "Robin", "system": "round-robin", "kind": "martian-dice",
        "round_starts": ["2099-01-01 10:00"], "unfinished_games": "carry"})
    assert api.status_code == 422
    assert "a round timetable is for Swiss events in rounds, not for a Round robin event" in \
        api.get_json()["message"]


# The pure core: what the fold takes and refuses, and the server's adjudication.

def timed_log(unfinished: str = "carry") -> tuple[Log, str, str]:
    log = Log("swiss", round_starts=[(T0 + timedelta(days=1)).isoformat(),
                                     (T0 + timedelta(days=2)).isoformat()],
              unfinished_games=unfinished)
    log.register("ann", "bob", "cy", "dan").start()
    g1, g2 = log.pair(1, [("ann", "bob"), ("cy", "dan")])
    log.result(g1, [1, 2])
    return log, g1, g2


def start_round(log: Log, games: list[str], **extra) -> Log:
    log.add("director", {"by": "Dee", "by_player": "dee", "reason": "travel",
                         "action": "start-round", "round": 2, "unfinished": "carry",
                         "games": games, **extra})
    return log


def test_a_carried_game_no_longer_holds_its_round_and_counts_for_it_when_it_ends():
    log, _, g2 = timed_log()
    start_round(log, [g2])
    t = log.tournament()
    plan = formats.plan(t, log.now, frozenset())
    assert t.carried == {g2} and t.holding(1) == ()
    assert plan is not None and plan.round == 2
    assert {frozenset(s) for s in plan.tables}.isdisjoint({frozenset(("cy", "dan"))})
    (g3, g4) = log.pair(2, plan.tables)
    log.result(g2, [2, 1])
    t = log.tournament()
    assert t.by_game[g2].round == 1 and totals(t)["dan"] == 1.0


@pytest.mark.parametrize(("games", "extra", "why"), [
    (["g9"], {}, "the unfinished games of round 1 are ['g2'], not ['g9']"),
    (["g2"], {"timetable": True}, "on the timetable, not before"),
    (["g2"], {"timetable": True, "as_of": (T0 + timedelta(days=3)).isoformat(),
              "unfinished": "adjudicate"},
     "the timetable says to carry unfinished games, not to adjudicate them"),
    (["g2"], {"round": 3}, "round 3 cannot start now (round 1 of 3 is the last paired)"),
])
def test_the_fold_refuses_a_start_that_does_not_fit(games, extra, why):
    log, _, _ = timed_log()
    start_round(log, games, **extra)
    with pytest.raises(IllegalEvent, match=re.escape(why)):
        log.tournament()


def test_on_the_timetable_a_start_is_taken_from_its_date_on():
    log, _, g2 = timed_log()
    start_round(log, [g2], timetable=True, as_of=(T0 + timedelta(days=1)).isoformat())
    assert log.tournament().round_start(2).timetable


def test_the_fold_refuses_a_timetable_for_another_format():
    with pytest.raises(BadFormat, match="a round timetable is for Swiss events in rounds"):
        Log("rolling-swiss", round_starts=[T0.isoformat()], unfinished_games="carry").tournament()


class Scored:
    def __init__(self, scores):
        self.values = scores

    def scores(self, state):
        return self.values


def fake(rules) -> SimpleNamespace:
    return SimpleNamespace(rules=rules, state=None, game=SimpleNamespace(seats=[0, 1]))


def test_the_server_adjudicates_on_the_scores_so_far_else_a_draw():
    lead = adjudication.ruling(fake(Scored((13, 9))), ["Ann", "Bob"])
    level = adjudication.ruling(fake(Scored((4, 4))), ["Ann", "Bob"])
    none = adjudication.ruling(fake(object()), ["Ann", "Bob"])

    assert (lead.ranks, lead.scores) == ((1, 2), (13.0, 9.0))
    assert lead.basis == "the scores so far (Ann 13, Bob 9): Ann leads, so wins"
    assert level.ranks == (1, 1) and "level, so a draw" in level.basis
    assert (none.ranks, none.scores) == ((1, 1), None)
    assert none.basis == "no score (the game keeps none): a draw"
