"""The JSON API: personal tokens, creating and reading games, playing with move tokens."""

from __future__ import annotations

import hashlib
import re
import time
from datetime import UTC, datetime
from typing import Any
from unittest import mock

import pytest
from itsdangerous.timed import TimestampSigner
from sqlalchemy import func, select

from engine import Played
from pbem.links import MoveGrant
from pbem.models import Game, Player

from ..pipe import (
    BASE,
    PLAYERS,
    awaited,
    counts,
    csrf,
    game_row,
    illegal,
    legal,
    loaded,
    log,
    move,
    outbox,
    sign_in,
    start,
    svc_of,
    token,
)

NEW_GAME = {"kind": "martian-frisby", "players": ["ann@example.org", "bob@example.org"]}


def api_token_for(app: Any, email: str) -> str:
    """Give a player a personal API token directly, as /me would."""
    secret = f"pbem_test_{email}"
    with svc_of(app).db.write() as s:
        player = s.scalars(select(Player).where(Player.email == email)).first()
        if player is None:
            player = Player(email=email, name=email, mail_pref="turn", created_at=datetime.now(UTC))
            s.add(player)
        player.api_token_hash = hashlib.sha256(secret.encode()).hexdigest()
    return secret


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def game_count(app: Any) -> int:
    with svc_of(app).db.read() as s:
        return int(s.scalar(select(func.count()).select_from(Game)) or 0)


def assert_error(response: Any, status: int, code: str) -> str:
    """The response is the API's JSON error shape; return its message."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.is_json
    data = response.get_json()
    assert set(data) == {"error", "message"}
    assert data["error"] == code
    assert isinstance(data["message"], str) and data["message"]
    return str(data["message"])


def test_creating_a_game_needs_a_token_or_a_signed_in_player(app, client):
    for headers in ({}, bearer("pbem_not_a_token"), {"Authorization": "Basic YW5uOnB3"}):
        response = client.post("/api/games", json=NEW_GAME, headers=headers)

        assert_error(response, 403, "forbidden")
    assert game_count(app) == 0
    assert outbox(app) == []


def test_a_token_made_at_me_after_signing_in_by_mail_creates_games(app, client):
    sign_in(app, client, "carol@example.org")
    page = client.post("/me", data={"what": "token", "csrf": csrf(client)})
    assert page.status_code == 200
    (secret,) = re.findall(r"pbem_[A-Za-z0-9_-]{20,}", page.get_data(as_text=True))

    response = app.test_client().post("/api/games", json=NEW_GAME, headers=bearer(secret))

    assert response.status_code == 201
    data = response.get_json()
    assert set(data) == {"id", "url"}
    assert data["url"] == f"{BASE}/games/{data['id']}"
    with svc_of(app).db.read() as s:
        game = s.scalars(select(Game).where(Game.public_id == data["id"])).one()
        creator = s.get(Player, game.created_by)
        assert creator is not None and creator.email == "carol@example.org"
        assert creator.api_token_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert sorted(r.purpose for r in outbox(app, game_id=game.id)) == ["invite", "invite", "turn"]


def test_a_replaced_token_no_longer_works(app, client):
    sign_in(app, client, "carol@example.org")
    first = re.findall(
        r"pbem_[A-Za-z0-9_-]{20,}",
        client.post("/me", data={"what": "token", "csrf": csrf(client)}).get_data(as_text=True),
    )[0]
    second = re.findall(
        r"pbem_[A-Za-z0-9_-]{20,}",
        client.post("/me", data={"what": "token", "csrf": csrf(client)}).get_data(as_text=True),
    )[0]

    old = app.test_client().post("/api/games", json=NEW_GAME, headers=bearer(first))
    new = app.test_client().post("/api/games", json=NEW_GAME, headers=bearer(second))

    assert (old.status_code, new.status_code) == (403, 201)


def test_a_signed_in_browser_may_create_games_through_the_api(app, client):
    sign_in(app, client, "carol@example.org")

    response = client.post("/api/games", json=NEW_GAME)

    assert response.status_code == 201


def test_a_game_created_with_players_and_options_has_them(app, client):
    secret = api_token_for(app, "bot@example.org")
    body = {
        "kind": "martian-frisby",
        "players": [{"email": "Ann@Example.org", "name": "Ann"}, "bob@example.org"],
        "preset": "change-columns",
        "options": {"max_turns": 30},
    }

    response = client.post("/api/games", json=body, headers=bearer(secret))

    assert response.status_code == 201
    setup = log(app, response.get_json()["id"])[0].payload
    # A player given no name is not named after the address (that would publish it).
    assert setup["players"][0] == "Ann" and re.fullmatch(r"Player \d+", setup["players"][1])
    assert setup["options"]["change_columns"] is True
    assert setup["options"]["max_turns"] == 30


BAD_NEW_GAMES = [
    ({**NEW_GAME, "kind": "chess"}, "chess"),
    ({**NEW_GAME, "players": ["ann@example.org"]}, "2 players"),
    ({**NEW_GAME, "players": ["ann@example.org", "ann@example.org"]}, "different player"),
    ({**NEW_GAME, "players": ["ann@example.org", "not an address"]}, "not an email"),
    ({**NEW_GAME, "players": "ann@example.org"}, "list"),
    ({**NEW_GAME, "options": ["max_turns"]}, "object"),
    ({**NEW_GAME, "options": {"no_such_option": 1}}, "no_such_option"),
    ({**NEW_GAME, "preset": "no-such-preset"}, "no-such-preset"),
    ({**NEW_GAME, "players": [1, 2]}, "must be an email"),
    ({**NEW_GAME, "players": [None, "bob@example.org"]}, "must be an email"),
    ({**NEW_GAME, "players": [{"email": "ann@example.org", "name": 5}, "b@x.org"]}, "name"),
    ({**NEW_GAME, "preset": ["standard"]}, "preset"),
]


def test_a_bad_new_game_request_is_422_and_creates_nothing(app, client):
    secret = api_token_for(app, "bot@example.org")

    for body, words in BAD_NEW_GAMES:
        response = client.post("/api/games", json=body, headers=bearer(secret))

        assert words in assert_error(response, 422, "illegal-action"), body
    assert game_count(app) == 0


def test_a_new_game_request_that_is_not_json_is_refused(app, client):
    secret = api_token_for(app, "bot@example.org")

    for send in ({"data": "kind=martian-frisby"}, {"json": ["not", "an", "object"]}):
        response = client.post("/api/games", headers=bearer(secret), **send)

        assert "JSON object" in assert_error(response, 400, "bad-request")
    assert game_count(app) == 0


def test_the_game_resource_shows_the_spectator_view_and_what_is_awaited(app, client):
    public_id = start(app)
    head = game_row(app, public_id)

    response = client.get(f"/api/games/{public_id}")

    assert response.status_code == 200
    data = response.get_json()
    assert data["id"] == public_id and data["kind"] == "martian-frisby"
    assert data["status"] == "active"
    assert data["head"] == {"seq": head.head_seq, "hash": head.head_hash}
    assert data["players"] == [name for _, name in PLAYERS]
    assert data["commitment"] == log(app, public_id)[0].payload["commitment"]
    assert data["position"]["awaited"] == [awaited(app, public_id)]
    assert data["position"]["seat"] is None
    assert data["position"]["legal"] == []  # a spectator has no choices


def test_the_log_resource_lists_every_event_with_its_hash(app, client):
    public_id = start(app)
    client.post(f"/api/play/{token(app, public_id)}", json={"action": legal(app, public_id)[0]})

    response = client.get(f"/api/games/{public_id}/log")

    assert response.status_code == 200
    assert response.get_json() == [e.to_json() for e in log(app, public_id)]
    assert [e["seq"] for e in response.get_json()] == list(range(len(log(app, public_id))))


def test_an_unknown_game_is_a_json_404(app, client):
    for path in ("/api/games/nosuchgame", "/api/games/nosuchgame/log"):
        assert "nosuchgame" in assert_error(client.get(path), 404, "not-found")


def test_unknown_api_paths_and_methods_answer_json(app, client):
    assert client.get("/api/nothing-here").status_code == 404
    assert client.get("/api/nothing-here").is_json
    wrong_method = client.delete("/api/games/x")
    assert wrong_method.status_code == 405 and wrong_method.is_json


def test_playing_by_the_api_returns_the_description_and_a_fresh_token(app, client):
    public_id = start(app)
    seat = awaited(app, public_id)
    action = legal(app, public_id)[0]

    response = client.post(f"/api/play/{token(app, public_id)}", json={"action": action})

    assert response.status_code == 200
    data = response.get_json()
    assert data["replayed"] is False
    assert data["played"].startswith(("South", "North"))
    head = game_row(app, public_id)
    assert data["game"]["head"] == {"seq": head.head_seq, "hash": head.head_hash}
    fresh = svc_of(app).signer.read_move_token(data["token"])
    assert fresh == MoveGrant(public_id, seat, head.head_seq)
    moves = [e for e in log(app, public_id) if e.kind == "move"]
    assert [(m.seat, m.payload["action"]) for m in moves] == [(seat, action)]


def test_an_illegal_move_by_the_api_is_422_naming_the_move(app, client):
    public_id = start(app)
    text = illegal(app, public_id)
    before = counts(app)

    response = client.post(f"/api/play/{token(app, public_id)}", json={"action": text})

    message = assert_error(response, 422, "illegal-action")
    assert text.split()[0] in message
    assert counts(app) == before


def test_an_unreadable_move_by_the_api_is_422_with_the_expected_form(app, client):
    public_id = start(app)

    response = client.post(f"/api/play/{token(app, public_id)}", json={"action": "castle kingside"})

    assert "a1-a4 b1-b6" in assert_error(response, 422, "illegal-action")


def test_a_stale_token_is_409_and_changes_nothing(app, client):
    public_id = start(app)
    old = token(app, public_id)
    client.post(f"/api/play/{old}", json={"action": legal(app, public_id)[0]})
    before = counts(app)

    response = client.post(f"/api/play/{old}", json={"action": legal(app, public_id)[0]})

    assert "already played" in assert_error(response, 409, "stale")
    assert counts(app) == before


def test_a_token_for_the_seat_not_awaited_is_409_not_your_turn(app, client):
    public_id = start(app)
    waiting = token(app, public_id, seat=1 - awaited(app, public_id))
    before = counts(app)

    response = client.post(f"/api/play/{waiting}", json={"action": legal(app, public_id)[0]})

    assert "turn" in assert_error(response, 409, "stale")
    assert counts(app) == before


def test_a_forged_token_is_400(app, client):
    public_id = start(app)
    tok = token(app, public_id)
    before = counts(app)

    response = client.post(f"/api/play/{tok[:-4]}abcd", json={"action": legal(app, public_id)[0]})

    assert_error(response, 400, "bad-link")
    assert counts(app) == before


def test_an_expired_token_is_410(app, client, settings):
    public_id = start(app)
    then = int(time.time()) - settings.link_max_age - 10
    with mock.patch.object(TimestampSigner, "get_timestamp", return_value=then):
        old = token(app, public_id)

    response = client.post(f"/api/play/{old}", json={"action": legal(app, public_id)[0]})

    assert_error(response, 410, "expired-link")


def test_a_play_request_without_a_json_action_is_refused(app, client):
    public_id = start(app)
    before = counts(app)

    for send in (
        {"data": "a1-a4 b1-b6", "content_type": "text/plain"},
        {"data": "{not json", "content_type": "application/json"},
        {"json": ["a1-a4 b1-b6"]},
        {"json": {"move": "a1-a4 b1-b6"}},
        {"json": {"action": ""}},
        {"json": {"action": 14}},
    ):
        response = client.post(f"/api/play/{token(app, public_id)}", **send)

        assert assert_error(response, 400, "bad-request"), send
    assert counts(app) == before


def test_a_bot_reads_its_choices_in_words_and_a_current_token_from_its_link(app, client):
    public_id = start(app)
    game = loaded(app, public_id)
    (seat,) = game.awaited()
    before = counts(app)

    mine = client.get(f"/api/play/{token(app, public_id)}").get_json()
    other = client.get(f"/api/play/{token(app, public_id, 1 - seat)}").get_json()

    assert (mine["seat"], mine["link"], mine["your_turn"]) == (seat, "current", True)
    assert mine["choices"] == [
        {"action": a, "text": game.rules.describe(game.state, Played(seat, a), seat)}
        for a in legal(app, public_id)
    ]
    fresh = svc_of(app).signer.read_move_token(mine["token"])
    assert (fresh.game, fresh.seat, fresh.seq) == (public_id, seat, game.game.head_seq)
    assert mine["game"]["head"]["seq"] == game.game.head_seq
    assert (other["link"], other["your_turn"], other["choices"], other["token"]) == (
        "waiting",
        False,
        [],
        None,
    )
    assert counts(app) == before


def test_a_bot_may_leave_the_words_out_and_gets_the_same_view_otherwise(app, client):
    public_id = start(app)
    seat = awaited(app, public_id)
    before = counts(app)

    for s in (seat, 1 - seat):
        worded = client.get(f"/api/play/{token(app, public_id, s)}").get_json()
        brief = client.get(f"/api/play/{token(app, public_id, s)}?words=0").get_json()

        assert brief["choices"] == [{"action": c["action"]} for c in worded["choices"]]
        assert brief["choices"] == (
            [{"action": a} for a in legal(app, public_id)] if s == seat else []
        )
        same = ("seat", "seat_name", "link", "your_turn", "game", "view")
        assert {k: brief[k] for k in same} == {k: worded[k] for k in same}
        assert set(brief) == set(worded)
        assert (brief["token"] is None) == (worded["token"] is None) == (s != seat)
    mine = f"/api/play/{token(app, public_id, seat)}"
    explicit = client.get(mine + "?words=1").get_json()["choices"]
    assert explicit == client.get(mine).get_json()["choices"] != []
    assert all(c["text"] for c in explicit)
    assert counts(app) == before


@pytest.mark.parametrize("words", ["", "no", "true", "00"])
def test_words_other_than_0_or_1_are_a_400_naming_the_choice(app, client, words):
    public_id = start(app)

    response = client.get(f"/api/play/{token(app, public_id)}?words={words}")

    assert "'words' must be 0" in assert_error(response, 400, "bad-request")


def test_a_used_token_is_stale_while_the_other_seat_decides(app, client):
    # The dice may leave the other seat no move and give the turn straight back: try a
    # few games until the turn really moved on.
    for _ in range(20):
        public_id = start(app)
        seat = awaited(app, public_id)
        old = token(app, public_id)
        sent = client.post(f"/api/play/{old}", json={"action": legal(app, public_id)[0]})
        assert sent.status_code == 200
        if awaited(app, public_id) != seat:
            break
    else:
        raise AssertionError("twenty games in a row gave the turn straight back")

    seen = client.get(f"/api/play/{old}").get_json()

    assert (seen["link"], seen["your_turn"], seen["token"]) == ("stale", False, None)
    assert seen["choices"] == []
    refused = client.post(f"/api/play/{old}", json={"action": legal(app, public_id)[0]})
    assert "already played" in assert_error(refused, 409, "stale")


def test_a_used_token_of_a_seat_awaited_again_is_stale_awaited_with_a_fresh_token(app, client):
    public_id = start(app)
    seat = awaited(app, public_id)
    old = token(app, public_id)
    sent = client.post(f"/api/play/{old}", json={"action": legal(app, public_id)[0]})
    assert sent.status_code == 200
    while awaited(app, public_id) != seat:
        move(app, public_id)

    seen = client.get(f"/api/play/{old}").get_json()

    assert (seen["link"], seen["your_turn"]) == ("stale-awaited", True)
    fresh = svc_of(app).signer.read_move_token(seen["token"])
    assert fresh == MoveGrant(public_id, seat, game_row(app, public_id).head_seq)
    assert [c["action"] for c in seen["choices"]] == list(legal(app, public_id))
    refused = client.post(f"/api/play/{old}", json={"action": legal(app, public_id)[0]})
    assert_error(refused, 409, "stale")
    played = client.post(f"/api/play/{seen['token']}", json={"action": legal(app, public_id)[0]})
    assert played.status_code == 200


@pytest.mark.parametrize("nonce", ["bot-1", "n" * 100], ids=["short", "longer than stored"])
def test_an_api_call_repeated_with_its_nonce_gets_the_original_answer(app, client, nonce):
    public_id = start(app)
    tok = token(app, public_id)
    body = {"action": legal(app, public_id)[0], "nonce": nonce}

    first = client.post(f"/api/play/{tok}", json=body)
    after = counts(app)
    again = client.post(f"/api/play/{tok}", json=body)

    assert (first.status_code, again.status_code) == (200, 200)
    assert (first.get_json()["replayed"], again.get_json()["replayed"]) == (False, True)
    assert again.get_json()["game"]["head"] == first.get_json()["game"]["head"]
    assert counts(app) == after


def test_a_bot_reusing_its_nonce_on_the_next_turn_is_told_not_ignored(app, client):
    public_id = start(app)
    seat = awaited(app, public_id)
    first = client.post(
        f"/api/play/{token(app, public_id)}",
        json={"action": legal(app, public_id)[0], "nonce": "move"},
    )
    assert first.status_code == 200
    while awaited(app, public_id) != seat:
        move(app, public_id)
    before = counts(app)

    response = client.post(
        f"/api/play/{token(app, public_id)}",
        json={"action": legal(app, public_id)[0], "nonce": "move"},
    )

    assert "nonce" in assert_error(response, 422, "illegal-action")
    assert counts(app) == before


def test_the_sign_in_mail_is_rate_limited_per_address(app, client):
    token_ = csrf(client)
    statuses = [
        client.post("/signin", data={"email": "dan@example.org", "csrf": token_}).status_code
        for _ in range(4)
    ]

    assert statuses == [200, 200, 200, 429]
    assert len(outbox(app, purpose="signin")) == 3


def test_a_nul_character_anywhere_is_a_400_never_a_500(app, client):
    # PostgreSQL text can hold no NUL: unchecked, each of these was a 500 there.
    public_id = start(app)
    secret = api_token_for(app, "bot@example.org")
    named = {"email": "ann@example.org", "name": "A\x00B"}
    before = counts(app)
    requests = {
        "game page": lambda: client.get("/games/ab%00cd"),
        "game resource": lambda: client.get("/api/games/ab%00cd"),
        "query": lambda: client.get(f"/games/{public_id}?x=%00"),
        "api nonce": lambda: client.post(
            f"/api/play/{token(app, public_id)}",
            json={"action": legal(app, public_id)[0], "nonce": "a\x00b"},
        ),
        "form nonce": lambda: client.post(
            f"/play/{token(app, public_id)}",
            data={"csrf": csrf(client), "action": legal(app, public_id)[0], "nonce": "x\x00y"},
        ),
        "player name": lambda: client.post(
            "/api/games",
            json={**NEW_GAME, "players": [named, "bob@example.org"]},
            headers=bearer(secret),
        ),
    }

    for what, send in requests.items():
        response = send()

        assert response.status_code == 400, what
    assert counts(app) == before


def test_inviting_a_player_does_not_rename_them(app, client):
    sign_in(app, client, "ann@example.org")
    client.post("/me", data={"csrf": csrf(client), "name": "Ann", "mail_pref": "turn"})
    secret = api_token_for(app, "mallory@example.org")
    players = [
        {"email": "ann@example.org", "name": "Ann the cheat"},
        {"email": "b@x.org", "name": " "},
    ]
    body = {**NEW_GAME, "players": players}

    created = app.test_client().post("/api/games", json=body, headers=bearer(secret))

    assert created.status_code == 201
    with svc_of(app).db.read() as s:
        ann = s.scalars(select(Player).where(Player.email == "ann@example.org")).one()
        assert ann.name == "Ann"
        new = s.scalars(select(Player).where(Player.email == "b@x.org")).one()
        assert re.fullmatch(r"Player \d+", new.name)  # a blank name is no name
