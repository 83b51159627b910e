"""Every number a person gives is finite and within its limits, or refused with a message."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from sqlalchemy import select

import engine
from pbem.bounds import MAX_SEATS
from pbem.log.chain import canonical_json
from pbem.models import TournamentEvent
from pbem.play.start import player_for
from pbem.tournaments import service
from pbem.tournaments.core.formats.roundrobin import RoundRobin
from pbem.tournaments.log import load

from ..pipe import csrf_in, loaded, sign_in, start, svc_of
from ..play.test_director import created_by_ann
from ..tournaments.test_service import new_event, started
from .test_api import api_token_for, bearer


def assert_json_error(response: Any, *words: str) -> str:
    """A 4xx in the API's error shape, whose message says these words."""
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"error", "message"}, body
    for word in words:
        assert word in body["message"], body["message"]
    return str(body["message"])


def logged(app: Any) -> list[str]:
    """Every tournament event's payload as stored."""
    with svc_of(app).db.read() as s:
        return list(s.scalars(select(TournamentEvent.payload)))


def director_page(app: Any, client: Any) -> str:
    """A Swiss event the signed-in client directs, started: its id."""
    sign_in(app, client, "director@example.org")
    public_id, _ = new_event(app, rounds=2)
    started(app, public_id)
    return public_id


def post_director(client: Any, public_id: str, **fields: str) -> Any:
    page = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    return client.post(f"/tournaments/{public_id}/director",
                       data={"csrf": csrf_in(page), "reason": "testing", **fields})


def test_the_tournament_directors_forms_refuse_hours_and_points_out_of_bounds(app, client):
    public_id = director_page(app, client)
    held = load_held(app, public_id)
    game, player = held.state.tables[0].game, held.state.entrants[0].player
    before = logged(app)

    for hours in ("inf", "nan", "1e30", "721", "1.5"):
        refused = post_director(client, public_id, action="extend", game=game, hours=hours)
        assert refused.status_code == 422, hours
        said = html.unescape(refused.get_data(as_text=True))
        assert f"hours must be a whole number from 1 to 720, not '{hours}'" in said
    for points in ("inf", "nan", "1e30"):
        refused = post_director(client, public_id, action="bye", player=player, points=points)
        assert refused.status_code == 422, points
        said = html.unescape(refused.get_data(as_text=True))
        assert f"points must be a number from -1,000 to 1,000, not '{points}'" in said
    assert logged(app) == before


GAME_DIRECTOR_REFUSALS = (
    ("hours", "inf", "hours must be a whole number from 1 to 720, not 'inf'"),
    ("hours", "nan", "hours must be a whole number from 1 to 720, not 'nan'"),
    ("ranks", "inf, 1", "each rank must be a whole number from 1 to 8, not 'inf'"),
    ("ranks", "1, 1e30", "each rank must be a whole number from 1 to 8, not '1e30'"),
    ("scores", "nan, 3", "each score must be a number from -1,000,000 to 1,000,000"),
)


def test_the_game_directors_forms_name_a_number_out_of_bounds(app, client):
    public_id = created_by_ann(app, client)

    for field, value, said in GAME_DIRECTOR_REFUSALS:
        page = client.get(f"/games/{public_id}/director").get_data(as_text=True)
        refused = client.post(f"/games/{public_id}/director", data={
            "action": "extend" if field == "hours" else "adjudicate", "reason": "testing",
            "csrf": csrf_in(page), "ranks": "1, 2", field: value})
        assert refused.status_code == 422, value
        assert said in html.unescape(refused.get_data(as_text=True))
    assert loaded(app, public_id).game.status == "active"


def load_held(app: Any, public_id: str) -> Any:
    with svc_of(app).db.read() as s:
        return load(s, public_id)


def create_by_api(app: Any, client: Any, body: str) -> Any:
    """POST /api/tournaments with a JSON body written as raw text."""
    secret = api_token_for(app, "dee@example.org")
    return client.post("/api/tournaments", data=body, content_type="application/json",
                       headers=bearer(secret))


def event(**fields: Any) -> str:
    base = {"name": "Cup", "system": "swiss", "kind": "martian-frisby", "rounds": 3}
    return json.dumps({**base, **fields})


def test_options_that_are_not_an_object_are_a_json_422(app, client):
    for options in ('"x"', "[1, 2]"):
        refused = create_by_api(app, client, event()[:-1] + f', "options": {options}}}')
        assert refused.status_code == 422, options
        assert_json_error(refused, "options must be an object")
    assert logged(app) == []


EVENT_REFUSALS = (
    ({"rounds": 10**30}, "rounds must be from 1 to 30"),
    ({"rounds": 31}, "rounds must be from 1 to 30"),
    ({"system": "rolling-swiss", "rounds": None, "games_per_player": 10**9,
      "max_concurrent": 1}, "games_per_player must be from 1 to 200"),
    ({"system": "rolling-swiss", "rounds": None, "games_per_player": 4,
      "max_concurrent": 10**6}, "max_concurrent must be from 1 to 20"),
    ({"system": "rolling-swiss", "rounds": None, "games_per_player": 4, "max_concurrent": 1,
      "pair_max_wait_hours": 10**6}, "pair_max_wait_hours must be from 1 to 720"),
    ({"deadline_hours": 10**9}, "deadline_hours must be a whole number of hours from 1 to 2,160"),
    ({"deadline_hours": 0.5}, "deadline_hours must be a whole number of hours from 1 to 2,160"),
    ({"table_sizes": [10**30]}, "table sizes [1000000000000000000000000000000] do not fit"),
    ({"table_sizes": 5}, "table_sizes must be a list"),
    ({"tiebreaks": 5}, "'tiebreaks' must be a list"),
    ({"timeout_policy": "x" * 5000}, "timeout_policy must be one of bot, forfeit"),
)


def test_a_number_beyond_an_events_limits_is_refused_naming_it(app, client):
    for fields, said in EVENT_REFUSALS:
        refused = create_by_api(app, client, event(**fields))
        assert refused.status_code == 422, fields
        message = assert_json_error(refused, said)
        assert len(message) < 300, "a message quotes a long value cut short"
    assert logged(app) == []


def test_hours_that_are_not_finite_are_refused_and_never_reach_the_log(app, client):
    rolling = {"system": "rolling-swiss", "rounds": None, "games_per_player": 4,
               "max_concurrent": 1}
    for field, value in (("deadline_hours", "NaN"), ("deadline_hours", "Infinity"),
                         ("pair_max_wait_hours", "-Infinity"), ("pair_max_wait_hours", "1e400")):
        refused = create_by_api(app, client, event(**rolling)[:-1] + f', "{field}": {value}}}')
        assert refused.status_code == 400, (field, value)
        assert_json_error(refused, f"'{field}' is NaN, Infinity or too large a number")
    assert logged(app) == []


def test_the_new_tournament_form_refuses_hours_that_are_not_finite_or_positive(app, client):
    sign_in(app, client, "dee@example.org")

    for field, value in (("deadline_hours", "inf"), ("deadline_hours", "-0"),
                         ("pair_max_wait_hours", "nan"), ("pair_max_wait_hours", "1e400")):
        page = client.get("/tournaments/new").get_data(as_text=True)
        refused = client.post("/tournaments/new", data={
            "name": "Cup", "system": "rolling-swiss", "kind": "martian-frisby",
            "games_per_player": "4", "max_concurrent": "1", "timeout_policy": "forfeit",
            field: value, "csrf": csrf_in(page)})
        assert refused.status_code == 422, (field, value)
        said = html.unescape(refused.get_data(as_text=True))
        must = {"deadline_hours": "hours per decision must be a whole number"}.get(
            field, f"{field.replace('_', ' ')} must be a number")  # as the form labels them
        assert f"{must} from 1 to" in said
        assert f"not '{value}'" in said
    assert logged(app) == []


def test_the_new_tournament_form_refuses_whole_numbers_out_of_bounds(app, client):
    sign_in(app, client, "dee@example.org")

    for field, value in (("rounds", "1000000000000000000000000000000"), ("rounds", "²"),
                         ("rounds", "0"), ("table_sizes", "99")):
        page = client.get("/tournaments/new").get_data(as_text=True)
        refused = client.post("/tournaments/new", data={
            "name": "Cup", "system": "swiss", "kind": "martian-frisby", "rounds": "3",
            "deadline_hours": "48", "timeout_policy": "forfeit", field: value,
            "csrf": csrf_in(page)})
        assert refused.status_code == 422, (field, value)
        assert "must be a whole number from" in refused.get_data(as_text=True)
    assert logged(app) == []


def test_an_event_made_before_the_limits_still_lists_and_shows(app, client, monkeypatch):
    monkeypatch.setattr(service, "check_limits", lambda *_: None)  # as an older server did
    public_id, _ = new_event(app, rounds=10**30)
    started(app, public_id)

    listed = client.get("/api/tournaments")
    assert listed.status_code == 200
    assert listed.get_json()[0]["forecast_end"] is None, "no forecast past the calendar's end"
    assert client.get(f"/tournaments/{public_id}").status_code == 200
    assert client.get(f"/tournaments/{public_id}/deadlines.ics").status_code == 200


def test_an_event_takes_no_more_entrants_than_its_limit(app, monkeypatch):
    monkeypatch.setattr(RoundRobin, "most_entrants", lambda self, config: 3)
    public_id, _ = new_event(app, system="round-robin", players=3)
    svc = svc_of(app)

    def one_more(s: Any) -> None:
        service.register(s, load(s, public_id, for_update=True),
                         player_for(s, "late@example.org", "Late"))

    with pytest.raises(Exception,
                       match="Late cannot enter Test cup: the event is full: it takes at most 3"):
        svc.write(one_more)


def test_an_active_days_filter_out_of_bounds_is_a_json_422(client):
    for days in ("99999999999", "0", "-1", "1e3", "inf", "²"):
        refused = client.get(f"/api/ratings?active_days={days}")
        assert refused.status_code == 422, days
        assert_json_error(refused, "active_days must be a whole number from 1 to 36,500")


def test_a_player_id_beyond_any_key_is_not_found(client):
    for path in (f"/api/players/{2**63}/ratings", f"/api/players/{10**30}/ratings",
                 f"/players/{10**30}", "/api/players/0/ratings"):
        response = client.get(path)
        assert response.status_code == 404, path
    assert_json_error(client.get(f"/api/players/{10**30}/ratings"), "there is no player")


def test_the_logs_never_hold_a_number_json_has_not():
    for value in (float("nan"), float("inf"), -float("inf")):
        with pytest.raises(ValueError):
            canonical_json({"hours": value})


def test_the_seat_limit_is_the_most_seats_any_game_has():
    assert max(max(engine.rules_for(kind).seats) for kind in engine.GAMES) == MAX_SEATS


COMMAND_REFUSALS = (
    (["tournament", "create", "Cup", "--system", "swiss", "--kind", "martian-frisby",
      "--director", "dee@example.org", "--rounds", "1000000"], "rounds must be from 1 to 30"),
    (["tournament", "create", "Cup", "--system", "swiss", "--kind", "martian-frisby",
      "--director", "dee@example.org", "--rounds", "3", "--deadline-hours", "inf"],
     "'deadline_hours' must be a finite number"),
    (["tournament", "simulate", "swiss", "martian-frisby", "--players", "1000000000"],
     "1000000000 is not in the range 2<=x<=512"),
    (["ratings", "show", "--active-days", "99999999999"], "is not in the range 1<=x<=36500"),
)


def test_the_command_line_refuses_numbers_out_of_bounds_with_a_message(runner):
    for args, said in COMMAND_REFUSALS:
        result = runner.invoke(args=args)
        assert result.exit_code != 0, args
        assert said in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_the_operator_cannot_adjudicate_with_an_infinite_rank(app, runner):
    public_id = start(app)
    result = runner.invoke(args=["director", "adjudicate", public_id, "--ranks", "inf,1",
                                 "--reason", "testing"])
    assert result.exit_code != 0
    assert "each rank must be a whole number from 1 to 8, not 'inf'" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert loaded(app, public_id).game.status == "active"
