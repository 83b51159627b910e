"""Bounces: each mail's return path names it; DSNs and older bounces are read; a hard one
marks the address failing, holds its mail and tells the director; a soft one retries."""

from __future__ import annotations

import email
from datetime import UTC, datetime
from email.policy import default
from typing import Any

import pytest
from sqlalchemy import select

from pbem.log.games import load
from pbem.mail import bounces, compose, failing
from pbem.models import Bounce, InboundMail, Player
from pbem.play.start import player_for, start_game
from pbem.tournaments import service

from ..pipe import outbox, sign_in, start, svc_of
from .bounce_mail import bounce, receive, send_all

ANN, BOB, DAN = "ann@example.org", "bob@example.org", "dan@example.org"


def read(name: str, recipient: str = ANN) -> bounces.Report:
    raw = bounce(name, envelope="pbem+b1.aaaaaaaaaaaaaaaa@localhost", recipient=recipient,
                 message_id="<x.1@localhost>")
    message = email.message_from_bytes(raw, policy=default)
    return bounces.read(message)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "kind", "status", "words"),
    [
        ("postfix_user_unknown.eml", "hard", "5.1.1", "User unknown in virtual mailbox table"),
        ("postfix_delayed.eml", "delayed", "4.4.1", "Connection timed out"),
        ("exim_failed.eml", "hard", "5.1.1", "User unknown"),
        ("gmail_no_such_user.eml", "hard", "5.1.1", "does not exist"),
        ("gmail_inbox_full.eml", "soft", "5.2.2", "out of storage space"),
    ],
)
def test_bounces_from_postfix_exim_and_gmail_are_read_with_their_status_and_reason(
    name, kind, status, words
):
    report = read(name)
    assert report.problem is None
    (failure,) = report.failures
    assert (failure.address, failure.kind, failure.status) == (ANN, kind, status)
    assert words in failure.diagnostic
    assert report.original_id == "<x.1@localhost>"


def test_a_malformed_report_is_said_to_be_unreadable_and_does_not_raise():
    report = read("malformed_report.eml")
    assert report.failures == () and report.problem


def first_turn(app: Any, smtp_sink: Any) -> tuple[Any, str, str]:
    """Start a game created by Dan, send its mails; the turn mail's row and return path."""
    svc = svc_of(app)

    def begin(s: Any) -> str:
        dan = player_for(s, DAN, "Dan")
        players = [(ANN, "Ann"), (BOB, "Bob")]
        return start_game(s, svc.ctx, "martian-frisby", players, created_by=dan).game.public_id

    public_id = svc.write(begin)
    send_all(app, smtp_sink.url)
    smtp_sink.wait_for(3)
    (turn,) = outbox(app, purpose="turn")
    index = [str(m["Message-ID"]) for m in smtp_sink.messages].index(turn.message_id)
    return turn, smtp_sink.senders[index], public_id


def test_each_mail_goes_out_with_a_return_path_that_names_it(smtp_app, smtp_sink):
    turn, envelope, _ = first_turn(smtp_app, smtp_sink)
    svc = svc_of(smtp_app)
    local, _, domain = envelope.partition("@")
    assert domain == "localhost" and local.startswith("pbem+b")
    assert svc.signer.read_number_ref("b", local.partition("+")[2]) == turn.id
    assert len(set(smtp_sink.senders)) == 3  # one return path per mail


def test_a_hard_bounce_marks_the_address_failing_holds_its_mail_and_tells_the_director(
    smtp_app, smtp_sink
):
    turn, envelope, public_id = first_turn(smtp_app, smtp_sink)
    raw = bounce("postfix_user_unknown.eml", envelope=envelope, recipient=turn.to_addr,
                 message_id=turn.message_id)

    result = receive(smtp_app, raw)

    assert result.kind == "bounce" and "the address is failing" in result.message
    with svc_of(smtp_app).db.read() as s:
        player = s.scalars(select(Player).where(Player.email == turn.to_addr)).one()
        assert player.mail_failing_at is not None and "User unknown" in player.mail_failure
        assert s.scalars(select(Bounce)).one().kind == "hard"
    (notice,) = outbox(smtp_app, purpose="bounce")
    assert notice.to_addr == DAN and f"/games/{public_id}" in notice.body_text
    assert "User unknown" in notice.body_text and "deadlines keep running" in notice.body_text
    # No answer to the bounce: nothing went back to the mail system that sent it.
    assert {r.purpose for r in outbox(smtp_app)} == {"invite", "turn", "bounce"}
    # Further mail to the address is held, not sent and not retried.
    svc = svc_of(smtp_app)

    def remind(s: Any) -> None:
        loaded = load(s, public_id)
        compose.queue_turn(s, svc.ctx, loaded, loaded.awaited()[0], reminder=True)

    svc.write(remind)
    held = outbox(smtp_app, to_addr=turn.to_addr, sent_at=None)
    assert len(held) == 1 and held[0].held_at is not None
    before = len(smtp_sink.messages)
    assert send_all(smtp_app, smtp_sink.url).sent == 1  # the director's notice only
    assert all(turn.to_addr not in str(m["To"]) for m in smtp_sink.wait_for(before + 1)[before:])


def test_the_failing_address_shows_to_opponents_and_directors_and_signing_in_clears_it(
    smtp_app, smtp_sink
):
    turn, envelope, public_id = first_turn(smtp_app, smtp_sink)
    failing_email = turn.to_addr
    other = BOB if failing_email == ANN else ANN
    receive(smtp_app, bounce("gmail_no_such_user.eml", envelope=envelope,
                             recipient=failing_email, message_id=turn.message_id))
    name = "Ann" if failing_email == ANN else "Bob"
    page = f"/games/{public_id}"

    public = smtp_app.test_client().get(page).get_data(as_text=True)
    assert "bounces" not in public  # strangers are not told
    for viewer in (other, DAN):
        client = smtp_app.test_client()
        sign_in(smtp_app, client, viewer)
        shown = client.get(page).get_data(as_text=True)
        assert f"Mail to {name} bounces since" in shown
    assert "as director you may extend a deadline" in shown  # Dan directs the game

    client = smtp_app.test_client()
    sign_in(smtp_app, client, failing_email)  # the sign-in link reached the address
    me = client.get("/me").get_data(as_text=True)
    assert "bounced on" not in me
    with svc_of(smtp_app).db.read() as s:
        player = s.scalars(select(Player).where(Player.email == failing_email)).one()
        assert player.mail_failing_at is None
    assert all(r.held_at is None for r in outbox(smtp_app, to_addr=failing_email))


def test_a_soft_bounce_sends_the_mail_again_and_three_make_the_address_failing(
    smtp_app, smtp_sink
):
    turn, envelope, _ = first_turn(smtp_app, smtp_sink)
    for n in range(1, 4):
        raw = bounce("gmail_inbox_full.eml", envelope=envelope, recipient=turn.to_addr,
                     message_id=turn.message_id).replace(b"a1si2345678ejb", f"try{n}".encode())
        result = receive(smtp_app, raw)
        (row,) = [r for r in outbox(smtp_app, purpose="turn")]
        if n < 3:
            assert "sent again in" in result.message and row.sent_at is None
        else:
            assert "the address is failing" in result.message
            assert "3 soft bounces" in result.message


def test_a_delay_notice_changes_nothing(smtp_app, smtp_sink):
    turn, envelope, _ = first_turn(smtp_app, smtp_sink)
    result = receive(smtp_app, bounce("postfix_delayed.eml", envelope=envelope,
                                      recipient=turn.to_addr, message_id=turn.message_id))
    assert "still tries" in result.message
    (row,) = outbox(smtp_app, purpose="turn")
    assert row.sent_at is not None and row.held_at is None


@pytest.mark.parametrize("envelope", [
    "pbem+b999999.aaaaaaaaaaaaaaaa@localhost",  # a forged or foreign return path
    "pbem@localhost",  # no return path of ours at all
])
def test_a_bounce_for_no_mail_of_ours_changes_nothing_and_is_kept_in_the_log(app, envelope):
    start(app)
    before = [r.id for r in outbox(app)]
    result = receive(app, bounce("postfix_user_unknown.eml", envelope=envelope,
                                 recipient=ANN, message_id="<guess.1@localhost>"))
    assert result.kind == "bounce" and "no mail of ours" in result.message
    assert [r.id for r in outbox(app)] == before
    with svc_of(app).db.read() as s:
        (kept,) = s.scalars(select(InboundMail)).all()
        assert kept.kind == "bounce" and "no mail of ours" in kept.outcome
        assert s.scalars(select(Player).where(Player.mail_failing_at.is_not(None))).all() == []


def test_a_malformed_bounce_for_our_mail_changes_nothing_and_the_next_mail_goes_on(
    smtp_app, smtp_sink
):
    turn, envelope, _ = first_turn(smtp_app, smtp_sink)
    result = receive(smtp_app, bounce("malformed_report.eml", envelope=envelope,
                                      recipient=turn.to_addr, message_id=turn.message_id))
    assert "nothing changed" in result.message
    again = receive(smtp_app, bounce("postfix_user_unknown.eml", envelope=envelope,
                                     recipient=turn.to_addr, message_id=turn.message_id))
    assert "the address is failing" in again.message


def test_the_same_bounce_delivered_twice_is_acted_on_once(smtp_app, smtp_sink):
    turn, envelope, _ = first_turn(smtp_app, smtp_sink)
    raw = bounce("exim_failed.eml", envelope=envelope, recipient=turn.to_addr,
                 message_id=turn.message_id)
    assert receive(smtp_app, raw).kind == "bounce"
    assert receive(smtp_app, raw).kind == "duplicate"
    assert len(outbox(smtp_app, purpose="bounce")) == 1


def test_a_bounce_whose_return_path_was_rewritten_is_matched_by_its_signed_message_id(
    smtp_app, smtp_sink
):
    turn, _, _ = first_turn(smtp_app, smtp_sink)
    result = receive(smtp_app, bounce("gmail_no_such_user.eml", envelope="pbem@localhost",
                                      recipient=turn.to_addr, message_id=turn.message_id))
    assert "the address is failing" in result.message


def test_the_event_page_shows_a_failing_entrant_to_the_director_and_entrants_only(app):
    svc = svc_of(app)

    def event(s: Any) -> str:
        dee = player_for(s, "dee@example.org", "Dee")
        held = service.create(s, dee, {"name": "Autumn cup", "system": "round-robin",
                                       "kind": "martian-frisby"})
        for address, name in ((ANN, "Ann"), (BOB, "Bob")):
            held = service.register(s, held, player_for(s, address, name))
        player_for(s, "carl@example.org", "Carl")
        ann = s.scalars(select(Player).where(Player.email == ANN)).one()
        failing.mark_failing(s, svc.ctx, ann, "550 5.1.1 user unknown", datetime.now(UTC))
        return held.row.public_id

    event_id = svc.write(event)
    page = f"/tournaments/{event_id}"
    assert "bounces" not in app.test_client().get(page).get_data(as_text=True)
    for viewer, sees in (("dee@example.org", True), (BOB, True), ("carl@example.org", False)):
        client = app.test_client()
        sign_in(app, client, viewer)
        assert ("Mail to Ann bounces since" in client.get(page).get_data(as_text=True)) == sees
