"""An expired move link: a page that mails the seat a fresh link, and says where "My games" is."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

import pytest

from pbem.mail import outbox, transport

from ..pipe import BASE, PLAYERS, awaited, csrf_in, legal, start, svc_of, token
from ..pipe import outbox as outbox_rows
from .test_links import FORGERIES, old_token


def text_of(response) -> str:
    """What a person reads on a page: its text, tags removed."""
    page = re.sub(r"<(script|style)\b.*?</\1>", "", response.get_data(as_text=True), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def expired_link(app, settings) -> tuple[str, str]:
    public_id = start(app)
    return public_id, old_token(app, public_id, settings.link_max_age + 60)


def test_an_expired_link_offers_a_button_that_mails_a_fresh_link(app, client, settings):
    public_id, expired = expired_link(app, settings)
    page = client.get(f"/play/{expired}")
    assert page.status_code == 410
    words = text_of(page)
    assert "This move link has expired" in words and "Your seat is not lost" in words
    assert "Mail me a fresh link" in words
    assert "My games" in words and 'href="/me"' in page.get_data(as_text=True)
    seat = awaited(app, public_id)
    assert PLAYERS[seat][0] not in page.get_data(as_text=True)  # the address stays private

    form = {"csrf": csrf_in(page.get_data(as_text=True))}
    sent = client.post(f"/play/{expired}/fresh", data=form)
    assert sent.status_code == 200
    assert "is on its way" in text_of(sent)
    (mail,) = [m for m in outbox_rows(app) if m.purpose == "fresh-link"]
    assert mail.to_addr == PLAYERS[seat][0]


def test_a_fresh_link_is_mailed_at_most_once_in_ten_minutes(app, client, settings):
    _, expired = expired_link(app, settings)
    form = client.get(f"/play/{expired}").get_data(as_text=True)
    first = client.post(f"/play/{expired}/fresh", data={"csrf": csrf_in(form)})
    again = client.post(f"/play/{expired}/fresh", data={"csrf": csrf_in(form)})
    assert first.status_code == 200
    assert again.status_code == 429
    assert "less than 10 minutes ago" in text_of(again)
    assert len([m for m in outbox_rows(app) if m.purpose == "fresh-link"]) == 1


def test_the_fresh_link_button_needs_the_form_token_and_a_genuine_link(app, client, settings):
    public_id, expired = expired_link(app, settings)
    assert client.post(f"/play/{expired}/fresh", data={}).status_code == 403
    form = client.get(f"/play/{expired}").get_data(as_text=True)
    for what, forge in FORGERIES.items():
        forged = forge(token(app, public_id))
        response = client.post(f"/play/{forged}/fresh", data={"csrf": csrf_in(form)})
        assert response.status_code == 400, what
    assert not [m for m in outbox_rows(app) if m.purpose == "fresh-link"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_fresh_link_arrives_by_mail_and_plays(smtp_app, smtp_sink, settings):
    app, client = smtp_app, smtp_app.test_client()
    public_id, expired = expired_link(app, settings)
    seat = awaited(app, public_id)
    form = client.get(f"/play/{expired}").get_data(as_text=True)
    assert client.post(f"/play/{expired}/fresh", data={"csrf": csrf_in(form)}).status_code == 200
    svc = svc_of(app)
    hop = transport.SmtpTransport(smtp_sink.url, timeout=5)
    outbox.deliver_due(svc.db, hop, svc.settings.mail_from, now=lambda: datetime.now(UTC))
    (mail,) = [
        m for m in smtp_sink.to(PLAYERS[seat][0])
        if "a fresh link" in str(m.get_body(("plain",)).get_content())
    ]
    body = mail.get_body(("plain",))
    assert body is not None
    text = str(body.get_content())
    assert "It is your move" in text and "My games" in text
    link = re.search(rf"{re.escape(BASE)}(/play/[^/\s]+)\s", text)
    assert link
    page = client.get(link[1])
    assert page.status_code == 200 and 'id="move-form"' in page.get_data(as_text=True)
    move = legal(app, public_id)[0]
    played = client.post(
        link[1],
        data={"csrf": csrf_in(page.get_data(as_text=True)), "action": move, "nonce": "fresh-1"},
    )
    assert played.status_code == 303
