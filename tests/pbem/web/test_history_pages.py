"""History and audit pages of long games: what a full replay shows, from a window of the log."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from flask import render_template
from sqlalchemy import update

from pbem import present
from pbem.log import snapshots, store, windows
from pbem.log.games import load
from pbem.models import Event
from pbem.play.act import ACTING_KINDS, submit
from pbem.play.start import start_game
from pbem.web import history as history_view

from ..pipe import game_row, log, move, start, svc_of

CITY = [("red@example.org", "Rae"), ("yellow@example.org", "Yul"), ("blue@example.org", "Bo")]


@pytest.fixture
def short_pages(monkeypatch):
    """Snapshots every 7 events and history pages of 10, so that a short game has many."""
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 7)
    monkeypatch.setattr(history_view, "HISTORY_PAGE", 10)


def city_game(app, moves: int) -> str:
    """A Martianopolis 500 game (secret orders and deals) after that many bot moves."""
    svc = svc_of(app)
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martianopolis-500", CITY).game.public_id
    )
    for _ in range(moves):
        with svc.db.read() as s:
            game = load(s, public_id)
            seat = game.awaited()[0]
            grant, action = game.grant(seat), game.rules.bot_action(game.state, seat)
        svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
    return public_id


def replayed_page(app, public_id: str, at: int) -> str:
    """The history page at event `at` as the whole log, replayed from its start, shows it."""
    with svc_of(app).db.read() as s:
        loaded = load(s, public_id)
        entries = store.entries(s, loaded.game)
    rules, head = loaded.rules, loaded.game.head_seq
    lines, states = present.history(rules, loaded.setup, entries, loaded.state)
    first, last = windows.page_of(at, history_view.HISTORY_PAGE, head)
    acting = [e.seq for e in entries if e.kind in ACTING_KINDS]
    with app.test_request_context(f"/games/{public_id}/history/{at}"):
        return render_template(
            "history.html",
            game=loaded.game,
            lines=lines[first : last + 1],
            at=at,
            head=head,
            prev_act=max((s for s in acting if s < at), default=None),
            next_act=min((s for s in acting if s > at), default=None),
            pages=history_view.pager(
                at // history_view.HISTORY_PAGE,
                head // history_view.HISTORY_PAGE,
                history_view.HISTORY_PAGE,
                head,
            ),
            pos=present.position(rules, states[at], None),
        )


def test_the_history_at_any_event_is_what_a_full_replay_shows(app, client, short_pages):
    public_id = city_game(app, moves=24)
    head = log(app, public_id)[-1].seq
    assert any(e.salt for e in log(app, public_id)), "the game keeps secrets to hide"
    picks = {0, head, *random.Random(head).sample(range(1, head), 8)}

    for at in sorted(picks):
        page = client.get(f"/games/{public_id}/history/{at}").get_data(as_text=True)
        assert page == replayed_page(app, public_id, at), f"the page at event {at} differs"


def test_a_history_page_reads_only_its_events_and_those_since_a_snapshot(
    app, client, short_pages, monkeypatch
):
    public_id = start(app)
    for _ in range(20):
        move(app, public_id)
    head = log(app, public_id)[-1].seq
    reads = []

    def spying(session, game, after=-1, through=None):
        reads.append((after, through))
        return store.entries(session, game, after, through)

    monkeypatch.setattr(store, "entries", spying)
    monkeypatch.setattr(windows, "entries", spying)
    snapshots.CACHE.clear()
    client.get(f"/games/{public_id}/history/{head // 2}")

    assert reads, "the page read the log"
    for after, through in reads:
        last = head if through is None else through
        assert last - after <= 7 + 10, f"the page read events {after + 1} to {last} of {head}"


def test_the_history_pages_list_their_events_and_go_to_any_event(app, client, short_pages):
    public_id = start(app)
    for _ in range(20):
        move(app, public_id)
    head = log(app, public_id)[-1].seq

    page = html.unescape(client.get(f"/games/{public_id}/history/23").get_data(as_text=True))
    jumped = client.get(f"/games/{public_id}/history?event=5")
    wrong = client.get(f"/games/{public_id}/history?event=five")

    listed = [int(n) for n in re.findall(r'<tr[^>]*id="e(\d+)"', page)]
    assert listed == list(range(20, 30))
    assert "after event 23 of" in page and '<strong aria-current="page">20–29</strong>' in page
    assert f'<a href="/games/{public_id}/history/0">0–9</a>' in page
    last = head - head % 10
    assert f'<a href="/games/{public_id}/history/{last}">{last}–{head}</a>' in page
    assert 'name="event"' in page
    assert jumped.status_code == 302
    assert jumped.headers["Location"].endswith(f"/games/{public_id}/history/5")
    assert wrong.status_code == 404 and "'five' is not an event number" in html.unescape(
        wrong.get_data(as_text=True)
    )


def test_the_pager_leaves_out_the_pages_far_from_the_one_shown():
    pages = history_view.pager(10, 40, 50, 2006)

    shown = [p and (p["first"], p["current"]) for p in pages]

    assert shown == [
        (0, False), None, (400, False), (450, False), (500, True), (550, False), (600, False),
        None, (2000, False),
    ]
    assert pages[-1]["last"] == 2006
    one_gap = [p and p["number"] for p in history_view.pager(4, 9, 10, 95)]
    assert one_gap == [1, 2, 3, 4, 5, 6, 7, None, 10], "a gap of one page shows that page"


def test_the_audit_page_lists_its_checks_by_pages_and_checks_a_new_event(
    app, client, monkeypatch
):
    monkeypatch.setattr(history_view, "AUDIT_PAGE", 10)
    public_id = start(app)
    for _ in range(8):
        move(app, public_id)
    head = log(app, public_id)[-1].seq
    assert 10 < head < 20

    first = html.unescape(client.get(f"/games/{public_id}/audit").get_data(as_text=True))
    second = html.unescape(client.get(f"/games/{public_id}/audit?page=2").get_data(as_text=True))
    beyond = client.get(f"/games/{public_id}/audit?page=99")
    move(app, public_id)
    after = html.unescape(client.get(f"/games/{public_id}/audit").get_data(as_text=True))

    assert f"{head + 1} events, hash chain intact" in first
    assert re.findall(r"<tr><td>(\d+)</td>", first) == [str(n) for n in range(10)]
    assert re.findall(r"<tr><td>(\d+)</td>", second) == [str(n) for n in range(10, head + 1)]
    assert beyond.status_code == 404 and "its pages are 1 to" in beyond.get_data(as_text=True)
    new_head = log(app, public_id)[-1].seq
    assert f"{new_head + 1} events, hash chain intact" in after, "a stale report was shown"


def test_a_row_changed_behind_the_servers_back_shows_on_the_audit_page_at_once(app, client):
    public_id = start(app)
    for _ in range(6):
        move(app, public_id)
    roll = [e for e in log(app, public_id) if e.kind == "roll"][-2]
    sound = html.unescape(client.get(f"/games/{public_id}/audit").get_data(as_text=True))
    forged = dict(roll.payload, values=[6, *roll.payload["values"][1:]])
    if forged == roll.payload:
        forged["values"] = [5, *roll.payload["values"][1:]]
    with svc_of(app).db.write() as s:
        s.execute(
            update(Event)
            .where(Event.game_id == game_row(app, public_id).id, Event.seq == roll.seq)
            .values(payload=json.dumps(forged, separators=(",", ":"), sort_keys=True))
        )

    page = html.unescape(client.get(f"/games/{public_id}/audit").get_data(as_text=True))

    assert "The log checks out" in sound
    assert f"Problem at event {roll.seq} (roll)" in page
