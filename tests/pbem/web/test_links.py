"""Move links and the forms behind them: forged, expired, rotated, stale, replayed, hostile."""

from __future__ import annotations

import html
import re
import time
from dataclasses import replace
from typing import Any
from unittest import mock
from urllib.parse import urljoin, urlsplit

import pytest
from itsdangerous.timed import TimestampSigner

import engine
from pbem.config import load_settings
from pbem.errors import BadLink, ExpiredLink
from pbem.links import MoveGrant, Signer
from pbem.web.app import create_app
from tests.conftest import TEST_KEY

from ..pipe import (
    BASE,
    awaited,
    counts,
    csrf,
    csrf_in,
    grant,
    illegal,
    legal,
    link_in,
    loaded,
    log,
    move,
    outbox,
    path_of,
    sign_in,
    start,
    svc_of,
    token,
)

FOREIGN = "not our key, though 32 bytes or longer"
FORM_ACTION = re.compile(r'action="/play/([^"/]+)"')


def post_move(client: Any, tok: str, text: str, nonce: str | None = "n-1", **kw: Any) -> Any:
    """POST a move the way the page's form does."""
    data = {"csrf": csrf(client, **kw), "action": text}
    if nonce is not None:
        data["nonce"] = nonce
    return client.post(f"/play/{tok}", data=data, **kw)


def body_of(response: Any) -> str:
    return html.unescape(response.get_data(as_text=True))


def location_grant(app: Any, response: Any) -> MoveGrant:
    """The grant of the fresh link a successful POST redirects to."""
    assert response.status_code == 303
    target = response.headers["Location"].rsplit("/play/", 1)[1]
    return svc_of(app).signer.read_move_token(target)


def test_the_move_page_shows_the_position_and_a_form_with_the_legal_moves(app, client):
    public_id = start(app)

    page = client.get(f"/play/{token(app, public_id)}")

    assert page.status_code == 200
    text = body_of(page)
    assert loaded(app, public_id).game.head_hash in text
    for action in legal(app, public_id):
        assert f'value="{action}"' in text
    assert 'name="csrf"' in text and 'name="nonce"' in text


def test_a_legal_move_by_the_form_is_logged_once_and_redirects_to_a_fresh_link(app, client):
    public_id = start(app)
    seat = awaited(app, public_id)
    action = legal(app, public_id)[0]
    head = loaded(app, public_id).game.head_seq

    response = post_move(client, token(app, public_id), action)

    moves = [e for e in log(app, public_id) if e.kind == "move"]
    assert [(e.seq, e.seat, e.payload) for e in moves] == [(head + 1, seat, {"action": action})]
    fresh = location_grant(app, response)
    assert fresh == MoveGrant(public_id, seat, loaded(app, public_id).game.head_seq)


FORGERIES = {
    "altered signature": lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),
    "cut short": lambda t: t[: len(t) // 2],
    "another key": lambda t: Signer(FOREIGN).move_token(MoveGrant("x", 0, 0)),
    "garbage": lambda t: "not-a-token",
}


def test_a_forged_link_gets_a_400_page_and_changes_nothing(app, client):
    public_id = start(app)
    before = counts(app)

    for what, forge in FORGERIES.items():
        forged = forge(token(app, public_id))
        shown = client.get(f"/play/{forged}")
        posted = post_move(client, forged, legal(app, public_id)[0])

        assert shown.status_code == posted.status_code == 400, what
        assert "not valid" in body_of(shown) and "not valid" in body_of(posted), what
    assert counts(app) == before


def test_a_sign_in_token_is_not_a_move_link(app, client):
    public_id = start(app)
    wrong_salt = svc_of(app).signer.signin_token(1)
    before = counts(app)

    response = post_move(client, wrong_salt, legal(app, public_id)[0])

    assert response.status_code == 400
    assert counts(app) == before


def old_token(app: Any, public_id: str, age: int) -> str:
    """A move token signed `age` seconds ago."""
    then = int(time.time()) - age
    with mock.patch.object(TimestampSigner, "get_timestamp", return_value=then):
        return token(app, public_id)


def test_an_expired_move_link_gets_410_and_changes_nothing(app, client, settings):
    public_id = start(app)
    expired = old_token(app, public_id, settings.link_max_age + 60)
    before = counts(app)

    shown = client.get(f"/play/{expired}")
    posted = post_move(client, expired, legal(app, public_id)[0])

    assert shown.status_code == posted.status_code == 410
    assert "expired" in body_of(shown)
    assert counts(app) == before


def test_a_link_just_inside_its_lifetime_still_works(app, client, settings):
    public_id = start(app)
    almost = old_token(app, public_id, settings.link_max_age - 60)

    assert client.get(f"/play/{almost}").status_code == 200
    assert post_move(client, almost, legal(app, public_id)[0]).status_code == 303


THIRTY_DAYS = 30 * 24 * 60 * 60
KEY, NEW, OLDER = (f"{name} signing key: 32 bytes or longer" for name in ("a", "a new", "an older"))


def test_a_move_link_lives_thirty_days_unless_configured(app, client, settings, tmp_path):
    public_id = start(app)
    assert settings.link_max_age == THIRTY_DAYS, "the test settings keep the default"
    assert svc_of(app).signer.max_age == THIRTY_DAYS
    assert Signer(KEY).max_age == THIRTY_DAYS
    env = {"PBEM_INSTANCE_PATH": str(tmp_path), "PBEM_SECRET_KEY": KEY}
    assert load_settings(env).link_max_age == THIRTY_DAYS
    assert load_settings({**env, "PBEM_LINK_MAX_AGE": "3600"}).link_max_age == 3600

    day_29 = old_token(app, public_id, THIRTY_DAYS - 24 * 60 * 60)
    day_31 = old_token(app, public_id, THIRTY_DAYS + 24 * 60 * 60)

    assert client.get(f"/play/{day_29}").status_code == 200
    assert client.get(f"/play/{day_31}").status_code == 410


def test_a_signer_with_a_short_lifetime_refuses_older_tokens():
    signer = Signer(KEY, max_age=1)
    grant_ = MoveGrant("g", 0, 3)
    fresh = signer.move_token(grant_)
    then = int(time.time()) - 5
    with mock.patch.object(TimestampSigner, "get_timestamp", return_value=then):
        stale = signer.move_token(grant_)

    assert signer.read_move_token(fresh) == grant_
    with pytest.raises(ExpiredLink):
        signer.read_move_token(stale)


def test_a_link_signed_with_a_retired_key_works_through_the_fallbacks(settings):
    rotated = replace(settings, secret_key=NEW, secret_key_fallbacks=(TEST_KEY,))
    app = create_app({"SETTINGS": rotated, "TESTING": True})
    try:
        client = app.test_client()
        public_id = start(app)
        old = Signer(TEST_KEY).move_token(grant(app, public_id))
        gone = Signer(OLDER).move_token(grant(app, public_id))

        assert client.get(f"/play/{gone}").status_code == 400
        assert client.get(f"/play/{old}").status_code == 200
        response = post_move(client, old, legal(app, public_id)[0])

        assert response.status_code == 303
        fresh = response.headers["Location"].rsplit("/play/", 1)[1]
        assert Signer(NEW).read_move_token(fresh).game == public_id
        with pytest.raises(BadLink):
            Signer(TEST_KEY).read_move_token(fresh)  # new links use the new key
    finally:
        svc_of(app).db.dispose()


def played_to_the_other_seat(app: Any, client: Any) -> tuple[str, str]:
    """A game whose first move passed the turn on, and the first mover's now stale link.

    The dice can leave the other seat with no legal pair, which passes it automatically
    and gives the turn straight back (that case has its own test below), so try a few
    games until the turn really moved on.
    """
    for attempt in range(20):
        public_id = start(app)
        seat = awaited(app, public_id)
        first = token(app, public_id)
        sent = post_move(client, first, legal(app, public_id)[0], nonce=f"try-{attempt}")
        assert sent.status_code == 303
        if awaited(app, public_id) != seat:
            return public_id, first
    raise AssertionError("twenty games in a row gave the turn straight back")


def test_a_stale_link_shows_the_current_position_and_says_the_turn_was_played(app, client):
    public_id, first = played_to_the_other_seat(app, client)
    head = loaded(app, public_id).game
    before = counts(app)

    page = client.get(f"/play/{first}")

    assert page.status_code == 200
    text = body_of(page)
    assert "has already been played" in text
    assert head.head_hash in text
    assert 'id="move-form"' not in text
    again = post_move(client, first, legal(app, public_id)[0], nonce="n-2")
    assert again.status_code == 409
    assert "already played" in body_of(again)
    assert "has already been played" not in body_of(again)  # one message, not two
    assert counts(app) == before


def test_an_old_link_of_a_seat_awaited_again_offers_a_fresh_form_but_cannot_act(app, client):
    public_id = start(app)
    seat = awaited(app, public_id)
    first = token(app, public_id)
    assert post_move(client, first, legal(app, public_id)[0], nonce="n-1").status_code == 303
    while awaited(app, public_id) != seat:
        move(app, public_id)
    before = counts(app)

    page = client.get(f"/play/{first}")

    text = body_of(page)
    assert "It is your turn again" in text
    fresh = FORM_ACTION.search(text)
    assert fresh, "the page offers no form"
    assert svc_of(app).signer.read_move_token(fresh[1]) == grant(app, public_id)
    assert post_move(client, first, legal(app, public_id)[0], nonce="n-3").status_code == 409
    assert counts(app) == before
    assert post_move(client, fresh[1], legal(app, public_id)[0], nonce="n-4").status_code == 303


def test_a_link_for_the_seat_not_awaited_is_refused_as_not_your_turn(app, client):
    public_id = start(app)
    other = 1 - awaited(app, public_id)
    waiting = token(app, public_id, seat=other)
    before = counts(app)

    page = client.get(f"/play/{waiting}")
    posted = post_move(client, waiting, legal(app, public_id)[0])

    assert page.status_code == 200
    assert "not your turn yet" in body_of(page)
    assert 'id="move-form"' not in body_of(page)
    assert posted.status_code == 409
    name = ("South", "North")[other]
    assert f"it is not {name}'s turn" in body_of(posted)
    assert counts(app) == before


def test_a_link_for_one_seat_never_acts_for_the_other(app, client):
    public_id = start(app)
    mover = awaited(app, public_id)
    other_link = token(app, public_id, seat=1 - mover)
    before = counts(app)

    # Whatever the form says, the seat is the token's.
    response = client.post(
        f"/play/{other_link}",
        data={"csrf": csrf(client), "action": legal(app, public_id)[0], "seat": str(mover)},
    )

    assert response.status_code == 409
    assert counts(app) == before
    assert not [e for e in log(app, public_id) if e.kind == "move"]


def test_a_link_for_a_seat_the_game_does_not_have_is_refused(app, client):
    public_id = start(app)
    head = loaded(app, public_id).game.head_seq
    nowhere = svc_of(app).signer.move_token(MoveGrant(public_id, 7, head))
    before = counts(app)

    assert client.get(f"/play/{nowhere}").status_code == 422
    assert post_move(client, nowhere, legal(app, public_id)[0]).status_code == 422
    assert counts(app) == before


def test_a_link_for_a_game_that_does_not_exist_is_404(app, client):
    start(app)
    missing = svc_of(app).signer.move_token(MoveGrant("nosuchgame", 0, 2))

    assert client.get(f"/play/{missing}").status_code == 404
    assert post_move(client, missing, "a1-a2 b1-b2").status_code == 404


def test_a_resubmitted_form_gets_the_original_answer_and_no_second_event(app, client):
    public_id = start(app)
    tok = token(app, public_id)
    action = legal(app, public_id)[0]

    first = post_move(client, tok, action, nonce="same-nonce")
    after_first = counts(app)
    second = post_move(client, tok, action, nonce="same-nonce")

    assert first.status_code == second.status_code == 303
    original, replayed = location_grant(app, first), location_grant(app, second)
    assert (replayed.game, replayed.seat) == (original.game, original.seat)
    assert counts(app) == after_first
    assert len([e for e in log(app, public_id) if e.kind == "move"]) == 1
    assert "already sent" in body_of(client.get(second.headers["Location"]))


def test_a_second_submission_with_another_nonce_is_409(app, client):
    public_id = start(app)
    tok = token(app, public_id)
    action = legal(app, public_id)[0]

    first = post_move(client, tok, action, nonce="nonce-a")
    after_first = counts(app)
    second = post_move(client, tok, action, nonce="nonce-b")

    assert (first.status_code, second.status_code) == (303, 409)
    assert counts(app) == after_first


def test_a_nonce_used_in_one_game_does_not_swallow_a_move_in_another(app, client):
    one = start(app)
    two = start(app, players=(("cy@example.org", "Cy"), ("di@example.org", "Di")))
    assert post_move(client, token(app, one), legal(app, one)[0], nonce="n").status_code == 303
    before = counts(app)

    reused = post_move(client, token(app, two), legal(app, two)[0], nonce="n")

    # Not "already sent" (the move was never played here): refused, and nothing changes.
    assert reused.status_code == 422
    assert counts(app) == before
    fresh = post_move(client, token(app, two), legal(app, two)[0], nonce="m")
    assert fresh.status_code == 303
    assert [e.kind for e in log(app, two)].count("move") == 1


def test_a_nonce_reused_on_a_later_turn_is_refused_not_taken_as_played(app, client):
    public_id = start(app)
    post_move(client, token(app, public_id), legal(app, public_id)[0], nonce="n")
    post_move(client, token(app, public_id), legal(app, public_id)[0], nonce="o")
    before = counts(app)

    response = post_move(client, token(app, public_id), legal(app, public_id)[0], nonce="n")

    assert response.status_code == 422
    assert counts(app) == before


def test_opening_links_never_changes_anything(app, client):
    public_id = start(app)
    current = token(app, public_id)
    waiting = token(app, public_id, seat=1 - awaited(app, public_id))
    player_id = loaded(app, public_id).player(0).id
    signer = svc_of(app).signer
    before = counts(app)

    for path in (
        f"/play/{current}",
        f"/play/{waiting}",
        f"/signin/{signer.signin_token(player_id)}",
        f"/unsubscribe/{signer.unsubscribe_token(player_id)}",
        f"/games/{public_id}",
        f"/games/{public_id}/history",
        f"/games/{public_id}/audit",
        f"/games/{public_id}/log.jsonl",
    ):
        assert client.get(path).status_code == 200, path
        assert client.head(path).status_code == 200, path

    assert counts(app) == before
    assert loaded(app, public_id).player(0).mail_pref == "turn"


def test_a_head_request_on_a_sign_in_link_signs_nobody_in(app, client):
    public_id = start(app)
    player_id = loaded(app, public_id).player(0).id
    path = f"/signin/{svc_of(app).signer.signin_token(player_id)}"

    client.head(path)

    assert client.get("/me").status_code == 302  # still signed out: sent to /signin


def test_a_form_without_the_right_csrf_token_is_403_and_logs_nothing(app, client):
    public_id = start(app)
    tok = token(app, public_id)
    csrf(client)  # the browser session has a token; the form does not send it
    before = counts(app)

    for sent in (None, "", "wrong-token"):
        data = {"action": legal(app, public_id)[0], "nonce": "n-1"}
        if sent is not None:
            data["csrf"] = sent
        move_ = client.post(f"/play/{tok}", data=data)
        resign = client.post(f"/play/{tok}/resign", data={**data, "confirm": "yes"})

        assert move_.status_code == resign.status_code == 403, sent
    assert counts(app) == before


def test_a_csrf_token_from_another_browser_session_is_refused(app, client):
    public_id = start(app)
    theirs = csrf(app.test_client())
    csrf(client)
    before = counts(app)

    response = client.post(
        f"/play/{token(app, public_id)}", data={"csrf": theirs, "action": legal(app, public_id)[0]}
    )

    assert response.status_code == 403
    assert counts(app) == before


def test_token_pages_send_no_referrer(app, client, settings):
    public_id = start(app)
    signer = svc_of(app).signer
    player_id = loaded(app, public_id).player(0).id
    tok = token(app, public_id)
    pages = [
        client.get(f"/play/{tok}"),
        client.get(f"/play/{tok[:-3]}xyz"),
        client.get(f"/play/{old_token(app, public_id, settings.link_max_age + 5)}"),
        client.get(f"/signin/{signer.signin_token(player_id)}"),
        client.get(f"/unsubscribe/{signer.unsubscribe_token(player_id)}"),
        post_move(client, tok, "no such move"),
    ]

    assert [p.status_code for p in pages] == [200, 400, 410, 200, 200, 422]
    for page in pages:
        assert page.headers["Referrer-Policy"] == "no-referrer"


def test_mailed_links_use_the_base_url_never_the_host_header(app, client):
    public_id = start(app)
    hostile = {"Host": "evil.example", "X-Forwarded-Host": "evil.example"}

    response = post_move(client, token(app, public_id), legal(app, public_id)[0], headers=hostile)
    client.post(
        "/signin",
        data={"email": "ann@example.org", "csrf": csrf(client, headers=hostile)},
        headers=hostile,
    )

    assert response.status_code == 303
    assert not response.headers["Location"].startswith("http://evil.example")
    rows = [r for r in outbox(app) if r.purpose in ("turn", "signin")]
    assert {r.purpose for r in rows} == {"turn", "signin"}
    for row in rows:
        assert "evil.example" not in row.body_text + (row.body_html or "") + row.headers
        for what in ("play", "signin", "unsubscribe", "games"):
            for link in re.findall(rf"https?://[^\s\"<>]+/{what}/[^\s\"<>]+", row.body_text):
                assert link.startswith(BASE + "/"), link
    turn = [r for r in rows if r.purpose == "turn"][-1]
    path_of(link_in(turn.body_text, "play"))


def test_an_illegal_move_is_422_with_the_engines_message_and_the_log_is_unchanged(app, client):
    public_id = start(app)
    text = illegal(app, public_id)
    game = loaded(app, public_id)
    seat = awaited(app, public_id)
    with pytest.raises(engine.IllegalAction) as refused:
        engine.step(game.rules, game.state, engine.Played(seat, text))
    before = counts(app)

    response = post_move(client, token(app, public_id), text)

    assert response.status_code == 422
    page = body_of(response)
    assert str(refused.value) in page
    assert text.split()[0] in str(refused.value)
    assert f'value="{text}"' in page  # what the player typed stays in the box
    assert counts(app) == before


def test_an_unreadable_move_is_422_and_shows_the_expected_form(app, client):
    public_id = start(app)
    before = counts(app)

    for text in ("hello there", "a1-a4 b1", "z9-z1 q3-q4 a1", "x" * 300):
        response = post_move(client, token(app, public_id), text)

        assert response.status_code == 422, text
        assert "write two moves like 'a1-a4 b1-b6'" in body_of(response), text
    assert counts(app) == before


def test_an_empty_move_is_422_and_asks_for_one(app, client):
    public_id = start(app)
    before = counts(app)

    response = post_move(client, token(app, public_id), "   ")

    assert response.status_code == 422
    assert "Type a move" in body_of(response)
    assert counts(app) == before


def test_resigning_without_ticking_the_box_changes_nothing(app, client):
    public_id = start(app)
    before = counts(app)

    response = client.post(f"/play/{token(app, public_id)}/resign", data={"csrf": csrf(client)})

    assert response.status_code == 422
    assert "confirm" in body_of(response)
    assert counts(app) == before


def test_resigning_with_confirmation_ends_the_game_and_reveals_the_seed(app, client):
    public_id = start(app)
    seat = 1 - awaited(app, public_id)  # a seat may resign while the other is to move
    tok = token(app, public_id, seat=seat)

    response = client.post(f"/play/{tok}/resign", data={"csrf": csrf(client), "confirm": "yes"})

    assert response.status_code == 303
    entries = log(app, public_id)
    assert [(e.kind, e.seat) for e in entries[-2:]] == [("resign", seat), ("reveal", None)]
    game = loaded(app, public_id)
    assert game.game.status == "finished"
    outcome = game.rules.outcome(game.state)
    assert outcome is not None and outcome.ranks[1 - seat] == 1
    results = outbox(app, purpose="result")
    assert sorted(r.to_addr for r in results) == ["ann@example.org", "bob@example.org"]
    before = counts(app)
    again = client.post(f"/play/{tok}/resign", data={"csrf": csrf(client), "confirm": "yes"})
    assert again.status_code == 409
    assert counts(app) == before
    assert client.get(f"/play/{tok}").status_code == 200
    assert "This game is over" in body_of(client.get(f"/play/{tok}"))


def test_after_signing_in_the_next_page_is_never_another_site(app, client):
    public_id = start(app)
    player_id = loaded(app, public_id).player(0).id

    for target in (
        "//evil.example/",
        "/\\evil.example",
        "/\\/evil.example",
        "https://evil.example/",
    ):
        path = f"/signin/{svc_of(app).signer.signin_token(player_id)}"  # each link works once
        page = client.get(path)
        response = client.post(
            path, data={"csrf": csrf_in(page.get_data(as_text=True)), "next": target}
        )

        assert response.status_code == 303
        # Browsers read a backslash as a slash: "/\\host" would be "//host", another site.
        as_read = urljoin(BASE + "/", response.headers["Location"].replace("\\", "/"))
        assert urlsplit(as_read).netloc == "pbem.test", (target, as_read)


def test_an_address_that_mail_would_read_as_another_recipient_is_refused(app, client):
    for address in ("a:victim@example.org", "postmaster(x@example.org", 'a"b@example.org'):
        response = client.post("/signin", data={"email": address, "csrf": csrf(client)})

        assert response.status_code == 422, address
    assert outbox(app) == []


def test_a_sign_in_link_expires_after_an_hour(app, client):
    public_id = start(app)
    player_id = loaded(app, public_id).player(0).id
    signer = svc_of(app).signer
    with mock.patch.object(TimestampSigner, "get_timestamp", return_value=int(time.time()) - 3700):
        old = signer.signin_token(player_id)
    with mock.patch.object(TimestampSigner, "get_timestamp", return_value=int(time.time()) - 3500):
        recent = signer.signin_token(player_id)

    assert client.get(f"/signin/{old}").status_code == 410
    assert client.get(f"/signin/{recent}").status_code == 200


def test_a_browser_stays_signed_in_across_a_key_rotation(settings):
    old_app = create_app({"SETTINGS": settings, "TESTING": True})
    rotated = replace(settings, secret_key=NEW, secret_key_fallbacks=(settings.secret_key,))
    new_app = create_app({"SETTINGS": rotated, "TESTING": True})
    try:
        before = old_app.test_client()
        sign_in(old_app, before, "ann@example.org")
        cookie = before.get_cookie("session")
        assert cookie is not None
        after = new_app.test_client()
        after.set_cookie("session", cookie.value)

        assert after.get("/me").status_code == 200
        assert "ann@example.org" in after.get("/me").get_data(as_text=True)
    finally:
        svc_of(old_app).db.dispose()
        svc_of(new_app).db.dispose()
