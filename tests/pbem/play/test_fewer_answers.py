"""Fewer answers: a reply that plays and hands the turn on gets none, unless the player asked
for every answer on /me; a refused reply and one after which the turn goes on get one."""

from __future__ import annotations

import engine
from pbem.play.start import start_game

from ..pipe import csrf, illegal, legal, outbox, sign_in, start, svc_of
from .test_replies import after_the_next_roll, ingest, reply_to


def a_game_whose_first_move_hands_the_turn_on(app):
    for _ in range(20):
        public_id = start(app)
        first = legal(app, public_id)[0]
        seat, state = after_the_next_roll(app, public_id, first)
        pending = engine.rules_for("martian-frisby").pending(state)
        if isinstance(pending, engine.Await) and pending.seats != (seat,):
            return public_id, first
    raise AssertionError("no game in 20 hands the turn on")


def test_a_reply_that_hands_the_turn_on_gets_no_answer_by_default(app):
    public_id, first = a_game_whose_first_move_hands_the_turn_on(app)
    result = ingest(app, reply_to(app, public_id, first))
    assert result.status == "played" and "not answered" in result.message
    assert outbox(app, purpose="reply") == []


def test_a_refused_reply_is_always_answered(app):
    public_id = start(app)
    result = ingest(app, reply_to(app, public_id, illegal(app, public_id)))
    assert result.status == "rejected"
    (answer,) = outbox(app, purpose="reply")
    assert "NOT played" in answer.body_text


def test_a_reply_after_which_the_turn_goes_on_is_answered_with_the_position(app):
    svc = svc_of(app)
    players = [("ann@example.org", "Ann"), ("bob@example.org", "Bob")]
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martian-dice", players).game.public_id
    )
    rules = engine.rules_for("martian-dice")
    for first in (a for a in legal(app, public_id) if a.endswith("roll")):
        seat, state = after_the_next_roll(app, public_id, first)
        pending = rules.pending(state)
        if isinstance(pending, engine.Await) and pending.seats == (seat,):
            break
    else:
        raise AssertionError("every take-and-roll of this game busts")
    result = ingest(app, reply_to(app, public_id, first))
    assert result.status == "played"
    (answer,) = outbox(app, purpose="reply")
    assert "It is still your move" in answer.body_text


def test_a_player_who_asks_on_me_for_every_answer_gets_one(app):
    public_id, first = a_game_whose_first_move_hands_the_turn_on(app)
    email = reply_to_address_owner(app, public_id)
    client = app.test_client()
    sign_in(app, client, email)
    page = client.get("/me").get_data(as_text=True)
    assert "Answer my reply mails" in page
    saved = client.post("/me", data={"csrf": csrf(client), "mail_pref": "turn", "name": "",
                                     "reply_answers": "every"})
    assert saved.status_code == 303
    assert ingest(app, reply_to(app, public_id, first)).status == "played"
    (answer,) = outbox(app, purpose="reply")
    assert answer.to_addr == email and "Your mail was played" in answer.body_text


def reply_to_address_owner(app, public_id: str) -> str:
    return [m for m in outbox(app, purpose="turn") if m.game_id is not None][-1].to_addr
