"""Turn mails as Gmail shows them: SVG, style blocks, scripts and classes removed, the board
still there. Each game's mail is rendered in Chromium and photographed under test-output/."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

import engine
from pbem.log.games import load
from pbem.mail import outbox, transport
from pbem.models import Outbox
from pbem.play.act import submit
from pbem.play.start import start_game
from tests.conftest import make_app
from tests.pbem.pipe import SEATS

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "mail-boards"
PLAYERS = [(f"p{i}@example.org", f"Player {i}") for i in range(3)]
ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
WEB_WORDS = re.compile(r"\b(hover|click|lit square)", re.IGNORECASE)


def as_gmail_shows(html: str) -> str:
    """The HTML part with what Gmail removes taken out: SVG, style blocks, scripts, classes."""
    for tag in ("svg", "style", "script"):
        html = re.sub(rf"<{tag}\b.*?</{tag}>", "", html, flags=re.DOTALL | re.IGNORECASE)
    return re.sub(r"\sclass=(\"[^\"]*\"|'[^']*')", "", html)


def pieces(kind: str, view: dict[str, Any]) -> Counter[str]:
    """What a player reads for each piece on the board (or die on the table), by count."""
    if kind == "martian-frisby":
        return Counter(
            f"{view['players'][p['seat']][0]}{p['size']}"
            for stack in view["board"].values()
            for p in stack
        )
    if kind == "martian-dice":
        labels = {"tank": "Tank", "ray": "Death ray", "human": "Human", "cow": "Cow"}
        return Counter(labels.get(d["face"], "Chicken") for d in view["dice"] if d["face"])
    if kind == "martianopolis-500":
        return Counter(
            f"{view['players'][r['seat']]['name'][0]}{r['name']}"
            for r in view["racers"]
            if r["square"]
        )
    return Counter(
        f"{p['colour'][0]}{'SML'[p['size'] - 1]}{'▲' if p['standing'] else ARROWS[p['facing']]}"
        for p in view["board"]
    )


def play_until_a_turn_mail_shows_pieces(app: Any, kind: str) -> tuple[dict[str, Any], str]:
    """Bot moves until the newest turn mail is for the position now and shows a few pieces."""
    svc = app.extensions["pbem"]
    rules = engine.rules_for(kind)
    players = PLAYERS[: SEATS[kind]]
    public_id = svc.write(lambda s: start_game(s, svc.ctx, kind, players).game.public_id)
    for decisions in range(400):
        with svc.db.read() as s:
            game = load(s, public_id)
            seat = min(game.awaited())
            key = f".{game.game.head_seq}.{seat}.turn."
            view = rules.view(game.state, seat)
            grant, action = game.grant(seat), rules.bot_action(game.state, seat)
        if decisions >= 6 and len(pieces(kind, view)) >= 2 and mailed(app, key):
            return view, players[seat][0]
        svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
    raise AssertionError(f"no {kind} turn mail with pieces on the board in 400 decisions")


def mailed(app: Any, key: str) -> bool:
    """Whether a mail with this key part in its Message-ID is in the outbox."""
    with app.extensions["pbem"].db.read() as s:
        ids = s.scalars(select(Outbox.message_id).where(Outbox.purpose == "turn"))
        return any(key in i for i in ids)


def delivered_turn_mail(app: Any, sink: Any, address: str) -> EmailMessage:
    """Send the outbox over SMTP to the sink; the newest turn mail to an address."""
    svc = app.extensions["pbem"]
    hop = transport.SmtpTransport(sink.url, timeout=5)
    outbox.deliver_due(svc.db, hop, svc.settings.mail_from, now=lambda: datetime.now(UTC))
    turns = [
        m for m in sink.to(address) if "It is your move" in m.get_body(("plain",)).get_content()
    ]
    assert turns, f"no turn mail reached {address}"
    return turns[-1]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("kind", sorted(SEATS))
def test_a_turn_mail_shows_its_board_after_gmail_strips_it(
    kind, settings, smtp_sink, browser
):
    app = make_app(replace(settings, smtp_url=smtp_sink.url))
    try:
        view, address = play_until_a_turn_mail_shows_pieces(app, kind)
        message = delivered_turn_mail(app, smtp_sink, address)
    finally:
        app.extensions["pbem"].db.dispose()
    html_part = message.get_body(("html",))
    text_part = message.get_body(("plain",))
    assert html_part is not None and text_part is not None
    html, text = str(html_part.get_content()), str(text_part.get_content())
    assert not WEB_WORDS.search(text), WEB_WORDS.search(text)
    stripped = as_gmail_shows(html)
    page = browser.new_page(viewport={"width": 800, "height": 900})
    try:
        page.set_content(stripped)
        assert not WEB_WORDS.search(page.inner_text("body"))
        expected = pieces(kind, view)
        assert expected, "the position has nothing to show"
        for label, count in expected.items():
            shown = page.get_by_text(label, exact=True)
            assert shown.count() >= count, f"{label!r}: {shown.count()} shown, {count} on the board"
            for i in range(count):
                box = shown.nth(i).bounding_box()
                assert box and box["width"] >= 12 and box["height"] >= 10, (label, box)
                size = shown.nth(i).evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
                assert size >= 10, (label, size)
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = SHOTS / f"{kind}.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"\nscreenshot of the {kind} turn mail as Gmail shows it: {shot}")
    finally:
        page.close()
