"""The pages a person uses: lobby, new game, game page, history, audit, export, mailbox."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import delete, select, update

import engine
from engine import Played
from pbem.log import snapshots
from pbem.log.games import load
from pbem.mail import outbox, transport
from pbem.models import Event, Game
from pbem.play import start as play_start
from pbem.play.act import resign
from pbem.web.app import create_app

from ..pipe import PLAYERS, csrf, csrf_in, legal, log, move, sign_in, start, token
from ..pipe import loaded as play_of
from ..pipe import outbox as outbox_rows


def text_of(response) -> str:
    """A page's text with HTML entities decoded."""
    return html.unescape(response.get_data(as_text=True))


def test_the_lobby_lists_recent_games_and_the_games_on_offer(app, client):
    public_id = start(app)
    page = client.get("/").get_data(as_text=True)
    assert public_id in page
    assert "Martian Frisby" in page


def test_healthz_answers_ok_and_is_never_cached(client):
    answer = client.get("/healthz")

    assert (answer.status_code, answer.text) == (200, "ok\n")
    assert answer.headers["Cache-Control"] == "no-store"


def test_new_game_asks_a_stranger_to_sign_in_first(client):
    response = client.get("/games/new")
    assert response.status_code == 302
    assert "/signin" in response.headers["Location"]


def test_a_signed_in_player_creates_a_game_with_options_from_the_form(app, client):
    sign_in(app, client, "ann@example.org")
    form_page = client.get("/games/new").get_data(as_text=True)
    assert 'name="opt_martian-frisby_change_columns"' in form_page
    response = client.post(
        "/games/new",
        data={
            "csrf": csrf_in(form_page),
            "kind": "martian-frisby",
            "email0": "ann@example.org",
            "email1": "bob@example.org",
            "name1": "Bob",
            "opt_martian-frisby_change_columns": "on",
            "opt_martian-frisby_max_turns": "300",
            "deadline_hours": "48",
        },
    )
    assert response.status_code == 302
    public_id = response.headers["Location"].rsplit("/", 1)[-1]
    setup = log(app, public_id)[0].payload
    assert setup["options"]["change_columns"] is True
    assert setup["options"]["max_turns"] == 300
    # A player with no name yet is not named after the address, which would publish it.
    assert setup["players"][1] == "Bob" and re.fullmatch(r"Player \d+", setup["players"][0])
    invitations = outbox_rows(app, purpose="invite")
    assert sorted(m.to_addr for m in invitations) == ["ann@example.org", "bob@example.org"]
    assert all(setup["commitment"] in m.body_text for m in invitations)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"email1": ""}, "played by 2 players, not 1"),
        ({"email1": "not-an-address"}, "is not an email address"),
        ({"opt_martian-frisby_max_turns": "-5"}, "max_turns"),
        ({"email1": "ann@example.org"}, "different player"),
    ],
)
def test_a_bad_new_game_form_names_the_problem_and_creates_nothing(app, client, fields, message):
    sign_in(app, client, "ann@example.org")
    form_page = client.get("/games/new").get_data(as_text=True)
    data = {
        "csrf": csrf_in(form_page),
        "kind": "martian-frisby",
        "email0": "ann@example.org",
        "email1": "bob@example.org",
        **fields,
    }
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    assert message in text_of(response)
    assert outbox_rows(app, purpose="invite") == []
    # The form comes back filled in as it was sent, so nothing has to be typed again.
    page = html.unescape(text_of(response))
    assert "The game was not created" in page
    for name, value in data.items():
        if name.startswith(("email", "opt_")) and value:
            assert re.search(rf'name="{re.escape(name)}"[^>]*value="{re.escape(value)}"', page)


def test_the_game_page_shows_the_board_the_players_and_the_commitment(app, client):
    public_id = start(app)
    page = client.get(f"/games/{public_id}").get_data(as_text=True)
    assert "<svg" in page and 'data-square="a1"' in page
    assert log(app, public_id)[0].payload["commitment"] in page
    assert "Ann" in page and "Bob" in page


def test_the_game_page_says_its_rules_version_and_lists_its_options_and_rulings(app, client):
    svc = app.extensions["pbem"]
    public_id = svc.write(
        lambda s: play_start.start_game(
            s, svc.ctx, "martian-race", [("ann@example.org", "Ann"), ("bob@example.org", "Bob")],
            options={"stall_rounds": 25},
        ).game.public_id
    )
    page = html.unescape(client.get(f"/games/{public_id}").get_data(as_text=True))
    version = engine.rules_for("martian-race").version
    assert f"Martian Race rules version {version}" in page
    for option in engine.rules_for("martian-race").options:
        assert f"<code>{option.name}</code>" in page
    assert '25 <span class="muted">(default 0)</span>' in page and "not in the rulebook" in page
    assert "the push distance is reduced by just enough" in page  # a ruling, with its section
    history = html.unescape(client.get(f"/games/{public_id}/history").get_data(as_text=True))
    assert f"rules version {version}" in history


def test_a_game_of_an_unknown_rules_version_is_a_clear_error(app, client):
    public_id = start(app)
    svc = app.extensions["pbem"]
    with svc.db.read() as s:
        game = s.scalars(select(Game).where(Game.public_id == public_id)).one()
        setup = log(app, public_id)[0].payload
    changed = json.dumps({**setup, "rules_version": 99})
    svc.write(lambda s: s.execute(
        update(Event).where(Event.game_id == game.id, Event.seq == 0).values(payload=changed)
    ))
    snapshots.CACHE.clear()
    response = client.get(f"/games/{public_id}")
    assert response.status_code == 500
    assert "has no rules version 99" in html.unescape(response.get_data(as_text=True))


def test_an_unknown_game_is_a_clear_404(client):
    response = client.get("/games/nosuchgame")
    assert response.status_code == 404
    assert "there is no game 'nosuchgame'" in text_of(response)


def test_history_steps_through_every_event_with_permalinks(app, client):
    public_id = start(app)
    move(app, public_id)
    head = log(app, public_id)[-1].seq
    page = client.get(f"/games/{public_id}/history").get_data(as_text=True)
    assert f"after event {head} of {head}" in page
    assert "dice commitment" in page
    first = client.get(f"/games/{public_id}/history/0").get_data(as_text=True)
    assert f'href="/games/{public_id}/history/1"' in first
    assert 'rel="prev"' not in first
    # After the setup event only, every piece is still on its nest.
    assert first.count("South 1 under South 2 under South 3") == 2
    assert client.get(f"/games/{public_id}/history/{head + 1}").status_code == 404


def test_history_steps_from_move_to_move_and_lists_only_the_events_of_its_page(app, client):
    public_id = start(app)
    for _ in range(30):
        move(app, public_id)
    entries = log(app, public_id)
    moves = [e.seq for e in entries if e.kind == "move"]
    at = moves[10]

    page = html.unescape(client.get(f"/games/{public_id}/history/{at}").get_data(as_text=True))

    assert f'href="/games/{public_id}/history/{moves[9]}">◀◀ previous move' in page
    assert f'href="/games/{public_id}/history/{moves[11]}">next move ▶▶' in page
    listed = {int(n) for n in re.findall(r'<tr[^>]*id="e(\d+)"', page)}
    first = at - at % 50
    assert listed == set(range(first, min(entries[-1].seq, first + 49) + 1))
    assert "to decide who starts" in client.get(f"/games/{public_id}/history/1").get_data(
        as_text=True
    )


def test_a_martian_dice_history_names_the_faces_rolled(app, client):
    svc = app.extensions["pbem"]
    players = [(email, None) for email, _ in PLAYERS]
    public_id = svc.write(
        lambda s: play_start.start_game(s, svc.ctx, "martian-dice", players).game.public_id
    )
    move(app, public_id)
    rolls = [e for e in log(app, public_id) if e.kind == "roll" and e.payload["sides"] == 6]
    page = text_of(client.get(f"/games/{public_id}/history"))
    for roll in rolls:
        numbers = " ".join(str(v) for v in roll.payload["values"])
        assert f"Rolled {numbers}" not in page
        assert f"({numbers})" in page
    assert re.search(r"Rolled \d+ (tank|death ray|human|cow|chicken)", page)


@pytest.mark.parametrize("seq", ["-1", "abc", "1.5"])
def test_a_history_page_for_a_malformed_event_number_says_so(client, app, seq):
    public_id = start(app)

    response = client.get(f"/games/{public_id}/history/{seq}")

    assert response.status_code == 404
    assert f"{seq!r} is not an event number" in html.unescape(text_of(response))


def test_the_audit_page_checks_the_chain_and_after_the_end_every_roll(app, client):
    public_id = start(app)
    move(app, public_id)
    page = client.get(f"/games/{public_id}/audit").get_data(as_text=True)
    assert "The log checks out" in page
    assert "checked once the seed is revealed" in page
    svc = app.extensions["pbem"]
    with svc.db.read() as s:
        grant = load(s, public_id).grant(0)
    svc.write(lambda s: resign(s, svc.ctx, grant))
    page = client.get(f"/games/{public_id}/audit").get_data(as_text=True)
    assert "every roll and shuffle matches the revealed seed" in page
    assert "chance event 0 matches the seed" in page


def test_the_log_export_has_the_header_and_every_event_with_its_hash(app, client):
    public_id = start(app)
    move(app, public_id)
    lines = client.get(f"/games/{public_id}/log.jsonl").get_data(as_text=True).splitlines()
    header = json.loads(lines[0])
    assert header == {
        "format": "pbem-log",
        "version": 2,
        "game": public_id,
        "kind": "martian-frisby",
        "rules_version": engine.rules_for("martian-frisby").version,
        "stream": public_id,
    }
    assert [json.loads(line)["hash"] for line in lines[1:]] == [e.hash for e in log(app, public_id)]


def test_the_play_page_offers_each_legal_move_as_a_button_and_a_text_box(app, client):
    public_id = start(app)
    page = client.get(f"/play/{token(app, public_id)}").get_data(as_text=True)
    buttons = re.findall(r'name="choice" value="([^"]+)"', page)
    assert buttons == list(legal(app, public_id))
    assert 'name="action"' in page
    assert "Your move" in page


def test_each_move_button_says_in_words_what_it_does(app, client):
    public_id = start(app)
    game = play_of(app, public_id)

    page = html.unescape(client.get(f"/play/{token(app, public_id)}").get_data(as_text=True))

    said = dict(
        re.findall(r'value="([^"]+)"[^>]*><code>[^<]+</code> <span class="say">([^<]+)<', page)
    )
    (seat,) = game.awaited()
    assert said == {
        a: game.rules.describe(game.state, Played(seat, a), seat) for a in legal(app, public_id)
    }
    assert all(" moves " in sentence for sentence in said.values())


def test_a_choice_link_asks_to_confirm_and_only_the_post_plays_it(app, client):
    public_id = start(app)
    choice = legal(app, public_id)[0]
    before = len(log(app, public_id))
    page = client.get(f"/play/{token(app, public_id)}?choice={choice}").get_data(as_text=True)
    assert "Confirm:" in page and f'value="{choice}"' in page
    assert len(log(app, public_id)) == before


def test_the_dev_mailbox_shows_local_mail_in_debug_mode_only(settings, tmp_path):
    app = create_app({"SETTINGS": settings, "TESTING": True})
    start(app)
    svc = app.extensions["pbem"]
    delivered = outbox.deliver_due(
        svc.db, transport.MaildirTransport(settings.maildir), settings.mail_from
    )
    assert delivered.sent >= 3
    client = app.test_client()
    assert client.get("/dev/mail/").status_code == 404
    app.debug = True
    index = client.get("/dev/mail/").get_data(as_text=True)
    assert "Martian Frisby game" in index
    keys = re.findall(r'href="/dev/mail/([^"]+)"', index)
    bodies = [client.get(f"/dev/mail/{key}").get_data(as_text=True) for key in keys]
    assert any("http://pbem.test/play/" in body for body in bodies)
    svc.db.dispose()
    with_smtp = create_app(
        {"SETTINGS": replace(settings, smtp_url="smtp://127.0.0.1:1"), "TESTING": True}
    )
    with_smtp.debug = True
    assert with_smtp.test_client().get("/dev/mail/").status_code == 404
    with_smtp.extensions["pbem"].db.dispose()


def test_a_players_page_lists_their_games_without_their_address(app, client):
    public_id = start(app)
    page = client.get("/").get_data(as_text=True)
    link = re.search(r'href="(/players/\d+)">Ann<', page)[1]
    shown = client.get(link).get_data(as_text=True)
    assert public_id in shown and "Ann" in shown
    assert "ann@example.org" not in shown
    assert client.get("/players/999999").status_code == 404


def test_the_audit_page_notices_a_log_cut_short(app, client):
    public_id = start(app)
    move(app, public_id)
    last = log(app, public_id)[-1].seq
    svc = app.extensions["pbem"]
    with svc.db.write() as s:
        game = s.scalars(select(Game).where(Game.public_id == public_id)).one()
        s.execute(delete(Event).where(Event.game_id == game.id, Event.seq == last))
    page = text_of(client.get(f"/games/{public_id}/audit"))
    assert f"Problem at event {last}" in page
    assert "events were removed or replaced" in page


def test_one_player_cannot_start_games_without_end(app, client, monkeypatch):
    monkeypatch.setattr(play_start, "GAME_LIMIT", (2, timedelta(hours=1)))
    sign_in(app, client, "ann@example.org")
    for expected in (302, 302, 429):
        form_page = client.get("/games/new").get_data(as_text=True)
        response = client.post(
            "/games/new",
            data={
                "csrf": csrf_in(form_page),
                "kind": "martian-frisby",
                "email0": "ann@example.org",
                "email1": "bob@example.org",
            },
        )
        assert response.status_code == expected
    assert "wait a little" in text_of(response)


def test_signing_in_from_the_new_game_page_comes_back_to_it(app, client):
    start_page = client.get("/games/new")
    signin_path = start_page.headers["Location"]
    form = client.get(signin_path).get_data(as_text=True)
    client.post(
        "/signin", data={"email": "cy@example.org", "csrf": csrf_in(form), "next": "/games/new"}
    )
    link = outbox_rows(app, purpose="signin")[-1].body_text
    path = re.search(r"http://pbem\.test(/signin/\S+)", link)[1]
    confirm = client.get(path).get_data(as_text=True)
    done = client.post(
        path,
        data={
            "csrf": csrf_in(confirm),
            "next": re.search(r'name="next" value="([^"]+)"', confirm)[1],
        },
    )
    assert done.status_code == 303
    assert done.headers["Location"].endswith("/games/new")


def test_the_choices_are_grouped_by_the_piece_that_moves_first(app, client):
    public_id = start(app)
    page = client.get(f"/play/{token(app, public_id)}").get_data(as_text=True)
    groups = re.findall(r'<fieldset class="group" data-from="([a-b][1-8])">', page)
    firsts = sorted({action.split("-")[0] for action in legal(app, public_id)})
    assert sorted(groups) == firsts
    assert "by the square they start from" in page


def test_the_play_page_title_is_plain_text(app, client):
    public_id = start(app)
    page = client.get(f"/play/{token(app, public_id)}").get_data(as_text=True)
    title = re.search(r"<title>(.*?)</title>", page, re.S)[1]
    assert "<" not in title and "Martian Frisby" in title
    assert page.count("<script>") == 1


def test_a_signed_in_player_finds_a_play_link_wherever_a_game_waits_for_them(app, client):
    public_id = start(app)
    game = play_of(app, public_id)
    (seat,) = game.awaited()
    waiting, idle = (game.player(seat).email, game.player(1 - seat).email)
    sign_in(app, client, waiting)

    pages = [
        client.get(path).get_data(as_text=True) for path in ("/", "/me", f"/games/{public_id}")
    ]

    for page in pages:
        found = re.search(r'href="/play/([^"]+)"', page)
        assert found, "no play link"
        grant = app.extensions["pbem"].signer.read_move_token(found[1])
        assert (grant.game, grant.seat, grant.seq) == (public_id, seat, game.game.head_seq)
    assert "Your turn: play now" in pages[0] and "Martian Frisby" in pages[0]

    client.post("/signout", data={"csrf": csrf(client)})
    sign_in(app, client, idle)
    for path in ("/", "/me", f"/games/{public_id}"):
        assert "/play/" not in client.get(path).get_data(as_text=True)
    assert "waiting for" in client.get("/me").get_data(as_text=True)
