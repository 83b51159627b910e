"""Any number in any form, JSON body or address that takes one is answered, never with a 500.

Infinities, NaN, -0, 10^30, negatives, other scripts' digits, words where numbers go, and
JSON of the wrong type: the API answers a 4xx in its error shape, a page a 4xx with the
message, or the thing is done. Each test tries a bounded number of examples on each
database (see tests/conftest.py for the profiles).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine

from ..pipe import csrf_in, sign_in
from ..play.test_director import created_by_ann
from ..tournaments.test_service import new_event, started
from .test_api import api_token_for, bearer

HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
LEAN = settings(max_examples=25, deadline=None, suppress_health_check=HEALTH)

# Numbers as typed into a form or a query string.
TYPED = (
    st.sampled_from(["inf", "-inf", "nan", "NaN", "Infinity", "-0", "0", "-1", "1e30", "1e400",
                     "1e-400", "9" * 40, "9" * 5000, "1.5", "²", "١٢", "1_000", " 7 ", "",
                     "abc", "0x10", "1,2", "3, 1", "\u00a05"])
    | st.integers(min_value=-(10**30), max_value=10**30).map(str)
    | st.floats().map(str)
    | st.text(max_size=8)
)
# Numbers (and what comes instead) in a JSON body; json.dumps writes NaN and Infinity.
SENT = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats()
    | st.sampled_from([-0.0, 1e300, 2**63, -(2**63) - 1, 10**30])
    | st.text(max_size=8)
    | st.lists(st.integers(min_value=-(10**30), max_value=10**30), max_size=3)
    | st.dictionaries(st.text(max_size=4), st.integers(), max_size=2)
)
FORM_FIELDS = ("rounds", "games_per_player", "max_concurrent", "pair_min_free", "advance",
               "deadline_hours", "pair_max_wait_hours", "table_sizes")
NUMBER_FIELDS = ("rounds", "games_per_player", "max_concurrent", "pair_min_free", "advance",
                 "deadline_hours", "pair_max_wait_hours", "table_sizes", "options", "tiebreaks")


def answered(response: Any, path: str) -> None:
    """Never a 500; an API error in its shape, a page's with its message."""
    text = response.get_data(as_text=True)
    assert response.status_code < 500, (path, text[-2000:])
    if response.status_code >= 400 and path.startswith("/api/"):
        assert set(response.get_json()) == {"error", "message"}, text
    elif response.status_code >= 400:
        assert 'role="alert"' in text, text[-2000:]


def signed_in_client(app: Any, email: str) -> Any:
    """A browser signed in as this address."""
    client = app.test_client()
    sign_in(app, client, email)
    return client


@pytest.fixture
def event(app: Any) -> dict[str, Any]:
    """A started Swiss, its director's browser, one of its games and one of its players."""
    client = signed_in_client(app, "director@example.org")
    public_id, _ = new_event(app, rounds=2)
    table = started(app, public_id).state.tables[0]
    return {"client": client, "id": public_id, "game": table.game, "player": table.seats[0]}


@pytest.fixture
def ann_game(app: Any) -> tuple[Any, str]:
    """Ann's browser, and a game she started from the form (so she directs it)."""
    client = app.test_client()
    return client, created_by_ann(app, client)


@pytest.fixture
def ann(app: Any) -> Any:
    """Ann's browser, signed in."""
    return signed_in_client(app, "ann@example.org")


@LEAN
@given(fields=st.dictionaries(st.sampled_from(NUMBER_FIELDS), SENT, max_size=4),
       system=st.sampled_from(["swiss", "round-robin", "rolling-swiss", "knockout"]))
def test_any_numbers_in_a_new_tournament_body_are_answered(app, client, fields, system):
    body = {"name": "Cup", "system": system, "kind": "martian-dice", **fields}
    response = client.post("/api/tournaments", data=json.dumps(body),
                           content_type="application/json",
                           headers=bearer(api_token_for(app, "dee@example.org")))
    answered(response, "/api/tournaments")


@LEAN
@given(fields=st.dictionaries(st.sampled_from(FORM_FIELDS), TYPED, max_size=4),
       system=st.sampled_from(["swiss", "rolling-swiss", "knockout"]))
def test_any_numbers_typed_in_the_new_tournament_form_are_answered(ann, fields, system):
    page = ann.get("/tournaments/new").get_data(as_text=True)
    data = {"name": "Cup", "system": system, "kind": "martian-dice", "timeout_policy": "bot",
            "csrf": csrf_in(page), **fields}
    answered(ann.post("/tournaments/new", data=data), "/tournaments/new")


@LEAN
@given(action=st.sampled_from(["extend", "bye"]), value=TYPED)
def test_any_numbers_in_the_tournament_directors_forms_are_answered(event, action, value):
    client, path = event["client"], f"/tournaments/{event['id']}/director"
    page = client.get(path).get_data(as_text=True)
    data = {"csrf": csrf_in(page), "action": action, "reason": "fuzz", "game": event["game"],
            "player": event["player"], "hours": value, "points": value}
    answered(client.post(path, data=data), path)


@LEAN
@given(action=st.sampled_from(["extend", "adjudicate", "replace"]), value=TYPED, other=TYPED)
def test_any_numbers_in_a_games_director_forms_are_answered(ann_game, action, value, other):
    client, game = ann_game
    path = f"/games/{game}/director"
    page = client.get(path).get_data(as_text=True)
    data = {"csrf": csrf_in(page), "action": action, "reason": "fuzz", "hours": value,
            "ranks": value, "scores": other, "seat": other, "email": "cy@example.org"}
    answered(client.post(path, data=data), path)


@LEAN
@given(deadline=TYPED, option=TYPED, sent=SENT)
def test_any_numbers_for_a_new_game_are_answered(app, ann, deadline, option, sent):
    page = ann.get("/games/new?kind=martian-race").get_data(as_text=True)
    form = {"kind": "martian-race", "email0": "ann@example.org", "email1": "bob@example.org",
            "deadline_hours": deadline, "opt_martian-race_max_turns": option,
            "opt_martian-race_martians": option, "csrf": csrf_in(page)}
    answered(ann.post("/games/new", data=form), "/games/new")
    body = {"kind": "martian-race", "players": ["ann@example.org", "bob@example.org"],
            "deadline_hours": sent, "options": {"max_turns": sent, "martians": sent}}
    answered(ann.post("/api/games", data=json.dumps(body), content_type="application/json",
                      headers=bearer(api_token_for(app, "ann@example.org"))), "/api/games")


@LEAN
@given(days=TYPED, number=st.integers(min_value=-(10**30), max_value=10**30) | TYPED)
def test_any_number_in_a_query_or_an_address_is_answered(client, days, number):
    for path, query in (("/api/ratings", {"active_days": days, "kind": "martian-dice"}),
                        ("/ratings", {"active": days})):
        answered(client.get(path, query_string=query), path)
    for path in (f"/api/players/{number}/ratings", f"/players/{number}",
                 f"/tournaments/t00000000/boards/{number}", f"/games/0000000000/history/{number}"):
        answered(client.get(path), path)


def test_the_martian_race_options_the_new_game_fuzz_types_into_are_numbers():
    kinds = {o.name: o.kind for o in engine.rules_for("martian-race").options}
    assert kinds["max_turns"] is kinds["martians"] is int
