"""Any JSON sent to the API gets an answer: success, or a JSON error with a 4xx, never a 500."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine

from ..pipe import start, token
from .test_api import api_token_for, bearer

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()  # with NaN and the infinities, which json.dumps writes and Flask reads
    | st.text(max_size=30)
    | st.sampled_from(["", " ", "\x00", "\ud800", "a" * 400, "72", "bot", "forfeit"])
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                 max_size=4),
    max_leaves=12,
)
EMAILS = st.sampled_from(
    ["ann@example.org", "bob@example.org", "cy@example.org", "not an address", "a@b", "",
     "x" * 400 + "@example.org", "\u202e@example.org", "Ann <ann@example.org>"]
)
PLAYER = EMAILS | st.fixed_dictionaries({"email": EMAILS}, optional={"name": JSON}) | JSON
NEW_GAMES = st.fixed_dictionaries(
    {},
    optional={
        "kind": st.sampled_from([*engine.GAMES, "chess", ""]) | JSON,
        "players": st.lists(PLAYER, max_size=5) | JSON,
        "preset": st.sampled_from(["", "short", "classic"]) | JSON,
        "options": st.dictionaries(st.sampled_from(["max_turns", "laps", "first", "x"]), JSON,
                                   max_size=3) | JSON,
        "deadline_hours": JSON,
        "timeout_policy": JSON,
    },
)
HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


def post(client: Any, path: str, body: Any, headers: dict[str, str]) -> Any:
    text = json.dumps(body)  # surrogates travel as \\u escapes, NaN and Infinity as words
    return client.post(path, data=text, content_type="application/json", headers=headers)


def answered(response: Any) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        assert response.is_json, response.get_data(as_text=True)
        assert set(response.json) >= {"error", "message"}


@settings(max_examples=60, suppress_health_check=HEALTH)
@given(body=NEW_GAMES | JSON)
def test_any_json_to_create_a_game_is_answered_without_a_500(app, client, body):
    headers = bearer(api_token_for(app, "ann@example.org"))
    answered(post(client, "/api/games", body, headers))


@settings(max_examples=40, suppress_health_check=HEALTH)
@given(
    body=st.fixed_dictionaries({}, optional={"action": JSON | st.text(max_size=40),
                                             "nonce": JSON})
    | JSON
)
def test_any_json_to_play_is_answered_without_a_500(app, client, body):
    public_id = start(app)
    answered(post(client, f"/api/play/{token(app, public_id)}", body, {}))


@settings(max_examples=30, suppress_health_check=HEALTH)
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(lambda t: t.encode(
    "utf-8", "surrogatepass")))
def test_any_bytes_as_a_json_body_are_answered_without_a_500(app, client, raw):
    headers = bearer(api_token_for(app, "ann@example.org"))
    answered(client.post("/api/games", data=raw, content_type="application/json",
                         headers=headers))
