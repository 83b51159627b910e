"""One conversation per game: one subject and a References chain to the seat's invitation;
a reply binds to its decision by the plus address, or by In-Reply-To where it was dropped."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

from pbem.play.act import resign

from ..pipe import grant, legal, log, outbox, start, svc_of
from .bounce_mail import receive, send_all

ANN, BOB = "ann@example.org", "bob@example.org"


def test_every_mail_of_a_game_keeps_one_subject_and_refers_to_the_seats_invitation(
    smtp_app, smtp_sink
):
    public_id = start(smtp_app, players=((ANN, "Ann"), (BOB, "Bob")))
    svc = svc_of(smtp_app)
    svc.write(lambda s: resign(s, svc.ctx, grant(smtp_app, public_id)))
    sent = send_all(smtp_app, smtp_sink.url).sent
    messages = smtp_sink.wait_for(sent)
    rows = {r.message_id: r for r in outbox(smtp_app)}
    for address in (ANN, BOB):
        mine = [m for m in messages if address in str(m["To"])]
        purposes = [rows[m["Message-ID"]].purpose for m in mine]
        assert "invite" in purposes and "result" in purposes
        assert {str(m["Subject"]) for m in mine} == {f"Martian Frisby game {public_id}"}
        (invite,) = [m for m in mine if rows[m["Message-ID"]].purpose == "invite"]
        assert invite["In-Reply-To"] is None and invite["References"] is None
        for later in (m for m in mine if m is not invite):
            assert later["In-Reply-To"] == invite["Message-ID"]
            assert str(later["References"]).split()[0] == invite["Message-ID"]


def reply(turn: Any, move: str, *, to: str, answers: dict[str, str]) -> bytes:
    message = EmailMessage()
    message["From"], message["To"] = turn.to_addr, to
    message["Subject"] = "Re: " + turn.subject
    message["Message-ID"] = make_msgid(domain="player.example")
    for name, value in answers.items():
        message[name] = value
    message.set_content(move + "\n\n> quoted\n")
    return bytes(message)


def test_a_reply_whose_plus_address_was_dropped_binds_by_in_reply_to(app):
    public_id = start(app)
    (turn,) = outbox(app, purpose="turn")
    move = legal(app, public_id)[0]
    result = receive(app, reply(turn, move, to="pbem@localhost",
                                answers={"In-Reply-To": turn.message_id}))
    assert (result.kind, result.status) == ("reply", "played"), result.message
    assert [e.payload["action"] for e in log(app, public_id) if e.kind == "move"] == [move]


def test_a_reply_with_only_references_binds_to_the_newest_mail_it_names(app):
    public_id = start(app)
    (turn,) = outbox(app, purpose="turn")
    (invite, *_) = outbox(app, purpose="invite")
    move = legal(app, public_id)[0]
    chain = f"{invite.message_id} {turn.message_id}"
    result = receive(app, reply(turn, move, to="pbem@localhost", answers={"References": chain}))
    assert (result.kind, result.status) == ("reply", "played"), result.message


def test_a_reply_naming_a_guessed_message_id_plays_nothing(app):
    public_id = start(app)
    (turn,) = outbox(app, purpose="turn")
    unsigned = turn.message_id.rsplit(".", 1)[0] + "@localhost>"  # the id without its MAC
    result = receive(app, reply(turn, legal(app, public_id)[0], to="pbem@localhost",
                                answers={"In-Reply-To": unsigned}))
    assert result.kind == "command"  # a mail to the server's own address, not a move
    assert [e for e in log(app, public_id) if e.kind == "move"] == []
