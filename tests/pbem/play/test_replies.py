"""Moves by reply mail: the reference, the first unquoted line, all or nothing, an answer."""

from __future__ import annotations

import email
import email.policy
import json
from dataclasses import replace
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import pytest

import engine
from pbem.log import dice
from pbem.log.games import load, seed_of
from pbem.mail import inbound
from pbem.play import replies
from pbem.play.start import start_game
from pbem.web.app import create_app

from ..pipe import KIND, answer_every_reply, illegal, legal, log, outbox, start, svc_of

QUOTED = (
    "\n\nOn Sat, 21 Nov 2026, pbem wrote:\n> It is your move in Martian Frisby\n> a1-a2 b1-b2\n"
)


def turn_mail(app, public_id):
    """The newest turn mail of a game."""
    return [m for m in outbox(app, purpose="turn") if m.game_id is not None][-1]


def reply_to(
    app,
    public_id,
    body: str,
    *,
    html: bool = False,
    via_subject: bool = False,
    sender: str | None = None,
) -> bytes:
    """A reply to the newest turn mail, as a mail client would write it."""
    original = turn_mail(app, public_id)
    headers = json.loads(original.headers)
    message = EmailMessage()
    message["From"] = sender or original.to_addr
    message["To"] = "pbem@localhost" if via_subject else headers["Reply-To"]
    message["Subject"] = "Re: " + original.subject
    message["Message-ID"] = make_msgid(domain="player.example")
    message["In-Reply-To"] = original.message_id
    if html:
        message.set_content(
            f"<html><body><div>{body}</div><blockquote>old</blockquote></body>", subtype="html"
        )
    else:
        message.set_content(body + QUOTED)
    return bytes(message)


def ingest(app, raw: bytes) -> replies.Ingested:
    svc = svc_of(app)
    return svc.write(lambda s: replies.ingest(s, svc.ctx, raw))


def test_the_turn_mail_carries_a_reply_reference_in_its_reply_to_and_keeps_the_game_subject(app):
    public_id = start(app)
    mail = turn_mail(app, public_id)
    reply_to_header = json.loads(mail.headers)["Reply-To"]
    ref = reply_to_header.split("+", 1)[1].split("@", 1)[0]
    assert mail.subject == f"Martian Frisby game {public_id}"
    assert len(ref) <= 64 and ref.startswith(public_id)
    assert "reply to this mail with your move" in mail.body_text


def test_a_reply_with_a_legal_move_is_played_and_confirmed(app):
    public_id = start(app)
    answer_every_reply(app)
    move = legal(app, public_id)[0]
    seat_email = turn_mail(app, public_id).to_addr
    result = ingest(app, reply_to(app, public_id, move.upper()))
    assert result.status == "played"
    assert [e.payload for e in log(app, public_id) if e.kind == "move"] == [{"action": move}]
    answer = outbox(app, purpose="reply")[-1]
    assert answer.to_addr == seat_email
    assert "Your mail was played" in answer.body_text


def test_a_reference_in_the_subject_alone_is_enough(app):
    public_id = start(app)
    result = ingest(app, reply_to(app, public_id, legal(app, public_id)[0], via_subject=True))
    assert result.status == "played"


def test_an_html_only_reply_is_read(app):
    public_id = start(app)
    result = ingest(app, reply_to(app, public_id, legal(app, public_id)[0], html=True))
    assert result.status == "played"


def test_an_illegal_move_by_mail_changes_nothing_and_the_answer_says_why(app):
    public_id = start(app)
    before = log(app, public_id)
    bad = illegal(app, public_id)
    result = ingest(app, reply_to(app, public_id, bad))
    assert result.status == "rejected"
    assert log(app, public_id) == before
    answer = outbox(app, purpose="reply")[-1].body_text
    assert "NOT played" in answer and bad in answer


@pytest.mark.parametrize("body", ["", "   "])
def test_a_reply_without_a_move_line_is_answered_with_the_expected_form(app, body):
    public_id = start(app)
    result = ingest(app, reply_to(app, public_id, body))
    assert result.status == "rejected"
    assert "no move" in result.message


def test_a_mail_delivered_twice_is_played_once(app):
    public_id = start(app)
    raw = reply_to(app, public_id, legal(app, public_id)[0])
    assert ingest(app, raw).status == "played"
    moves = len(log(app, public_id))
    assert ingest(app, raw).status == "ignored"
    assert len(log(app, public_id)) == moves


def test_an_old_reference_after_the_turn_was_played_is_refused(app):
    public_id = start(app)
    stale = reply_to(app, public_id, legal(app, public_id)[0])
    assert ingest(app, reply_to(app, public_id, legal(app, public_id)[0])).status == "played"
    before = log(app, public_id)
    result = ingest(app, stale)
    assert result.status == "rejected"
    assert "already played" in result.message
    assert log(app, public_id) == before


def test_a_forged_reference_is_ignored_and_strangers_get_no_mail(app):
    public_id = start(app)
    raw = reply_to(app, public_id, legal(app, public_id)[0], sender="stranger@example.net")
    forged = raw.replace(b"+" + public_id.encode(), b"+" + public_id.encode()[::-1])
    replies = len(outbox(app, purpose="reply"))
    result = ingest(app, forged)
    assert result.status == "ignored"
    assert len(outbox(app, purpose="reply")) == replies
    assert not [e for e in log(app, public_id) if e.kind == "move"]


def after_the_next_roll(app, public_id: str, action: str) -> tuple[int, Any]:
    """The awaited seat, and the state after its action and the game's own next roll."""
    svc = svc_of(app)
    with svc.db.read() as session:
        game = load(session, public_id)
        (seat,) = game.awaited()
        state = engine.step(game.rules, game.state, engine.Played(seat, action))
        pending = game.rules.pending(state)
        rolled = dice.roll(
            seed_of(session, game.game), game.game.stream, game.game.chances, pending.count
        )
        return seat, engine.step(game.rules, state, engine.Rolled(tuple(rolled)))


def turn_passes(app, public_id: str, action: str) -> bool:
    """Whether the action would hand the turn on, with the game's own next roll."""
    seat, state = after_the_next_roll(app, public_id, action)
    return bool(engine.rules_for(KIND).pending(state).seats != (seat,))


def test_several_lines_beyond_the_end_of_the_turn_are_refused_as_a_whole(app):
    # The next roll may leave the other seat no move and give the turn straight back (then
    # a second line is that turn's move): take a game whose first move hands the turn on.
    for _ in range(20):
        public_id = start(app)
        first = legal(app, public_id)[0]
        if turn_passes(app, public_id, first):
            break
    before = log(app, public_id)
    result = ingest(app, reply_to(app, public_id, f"{first}\n{first}"))
    assert result.status == "rejected"
    assert "were not played" in result.message
    assert log(app, public_id) == before


def test_several_lines_of_one_turn_are_played_in_order_each_with_a_fresh_grant(app):
    rules = engine.rules_for("martian-dice")
    svc = svc_of(app)
    players = [("ann@example.org", "Ann"), ("bob@example.org", "Bob")]
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martian-dice", players).game.public_id
    )
    # A take-and-roll after which the dice leave the same player a choice (no bust).
    for first in (a for a in legal(app, public_id) if a.endswith("roll")):
        seat, state = after_the_next_roll(app, public_id, first)
        pending = rules.pending(state)
        if isinstance(pending, engine.Await) and pending.seats == (seat,):
            break
    else:
        raise AssertionError("every take-and-roll of this game busts")
    second = next(a for a in rules.legal(state, seat) if a.endswith("stop"))

    answer_every_reply(app)
    result = ingest(app, reply_to(app, public_id, f"{first}\n{second}"))

    assert result.status == "played", result.message
    moves = [(e.seat, e.payload["action"]) for e in log(app, public_id) if e.kind == "move"]
    assert moves == [(seat, first), (seat, second)]
    assert len(result.message.split("; ")) == 2
    answer = outbox(app, purpose="reply")[-1]
    assert "Your mail was played" in answer.body_text
    assert result.message in answer.body_text


def test_the_move_lines_stop_at_the_quoted_original():
    text = "\n a1-a4 b1-b6 \nOn Mon, someone wrote:\n> b1-b2\n"
    assert inbound.move_lines(text) == ("a1-a4 b1-b6",)
    assert inbound.move_lines("> quoted only\n") == ()
    assert inbound.move_lines("H roll\nR stop\n\n-- \nsignature") == ("H roll", "R stop")


def test_pbem_ingest_mail_reads_standard_input(app, runner):
    public_id = start(app)
    raw = reply_to(app, public_id, legal(app, public_id)[0])
    result = runner.invoke(args=["ingest-mail"], input=raw)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("reply, played: ")


def test_the_http_endpoint_needs_its_token(settings):
    app = create_app({"SETTINGS": replace(settings, inbound_token="s3cret"), "TESTING": True})
    try:
        public_id = start(app)
        raw = reply_to(app, public_id, legal(app, public_id)[0])
        client = app.test_client()
        assert client.post("/api/inbound-mail", data=raw).status_code == 403
        response = client.post(
            "/api/inbound-mail", data=raw, headers={"Authorization": "Bearer s3cret"}
        )
        assert response.status_code == 200 and response.json["status"] == "played"
    finally:
        app.extensions["pbem"].db.dispose()
    off = create_app({"SETTINGS": settings, "TESTING": True})
    try:
        assert off.test_client().post("/api/inbound-mail", data=b"x").status_code == 404
    finally:
        off.extensions["pbem"].db.dispose()


@pytest.mark.parametrize("prefix", ["Re: ", "Re: Re: ", "RE: Aw: re: ", "Re[2]: "])
def test_the_answer_to_a_reply_has_one_re_however_many_the_reply_had(app, prefix):
    public_id = start(app)
    answer_every_reply(app)
    original = turn_mail(app, public_id)
    raw = reply_to(app, public_id, legal(app, public_id)[0])
    message = email.message_from_bytes(raw, policy=email.policy.default)
    del message["Subject"]
    message["Subject"] = prefix + original.subject
    assert ingest(app, bytes(message)).status == "played"
    answer = outbox(app, purpose="reply")[-1]
    assert answer.subject == "Re: " + original.subject
