"""One "your move" mail per turn: whole bot games of every kind, mails counted per seat."""

from __future__ import annotations

import json
import re
from collections import Counter
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import pytest

import engine
from pbem.log.games import load
from pbem.play import replies
from pbem.play.act import submit
from pbem.play.start import start_game

from ..pipe import SEATS, outbox, svc_of

PLAYERS = [(f"p{i}@example.org", f"Player {i}") for i in range(4)]


def turn_of(kind: str, state: Any) -> Any:
    """Which turn of the game a state is in, read from the state itself."""
    if kind == "martian-dice":
        return (state.round, state.to_move, len(state.duels))
    if kind == "martianopolis-500":
        return state.turn
    return state.turns


def play_and_count(app: Any, kind: str) -> dict[str, Any]:
    """Play a whole bot game; count the turn mails of each awaited stretch of each seat.

    A stretch is a run of decisions of one seat within one turn, with no other seat's
    decision in between: the seat becomes awaited, then acts until it is not awaited or
    its turn ends.
    """
    svc = svc_of(app)
    rules = engine.rules_for(kind)
    players = PLAYERS[: SEATS[kind]]
    address = {email: seat for seat, (email, _) in enumerate(players)}
    public_id = svc.write(lambda s: start_game(s, svc.ctx, kind, players).game.public_id)
    stretches: list[list[int]] = [[] for _ in players]  # mails of each stretch, per seat
    per_turn: Counter[tuple[int, Any]] = Counter()
    seen = 0

    def take_mails(turn: Any) -> None:
        nonlocal seen
        mails = outbox(app, purpose="turn")
        for mail in mails[seen:]:
            seat = address[mail.to_addr]
            assert stretches[seat], f"{mail.to_addr} was mailed while not awaited"
            stretches[seat][-1] += 1
            per_turn[(seat, turn)] += 1
        seen = len(mails)

    with svc.db.read() as s:
        game = load(s, public_id)
        awaited, state = set(game.awaited()), game.state
    for seat in awaited:
        stretches[seat].append(0)
    take_mails(turn_of(kind, state))
    for _ in range(20000):
        with svc.db.read() as s:
            game = load(s, public_id)
            if game.game.status != "active":
                break
            seat = min(game.awaited())
            grant = game.grant(seat)
            action = rules.bot_action(game.state, seat)
        svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
        with svc.db.read() as s:
            after = load(s, public_id)
            now = set(after.awaited()) if after.game.status == "active" else set()
        new_turn = turn_of(kind, after.state) != turn_of(kind, state)
        for other in now:
            if other not in awaited or (other == seat and new_turn):
                stretches[other].append(0)
        take_mails(turn_of(kind, after.state))
        awaited, state = now, after.state
    else:
        raise AssertionError(f"{kind} did not end within 20000 decisions")
    counts = [n for seat in stretches for n in seat]
    return {
        "stretches": len(counts),
        "mails": sum(counts),
        "max_per_stretch": max(counts),
        "unmailed_stretches": counts.count(0),
        "max_per_turn": max(per_turn.values()),
        "turns": len({turn for _, turn in per_turn}),
    }


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("kind", sorted(SEATS))
def test_a_seat_is_mailed_once_each_time_it_becomes_awaited(app, kind):
    found = play_and_count(app, kind)
    print(f"\nturn mails, {kind}: {found}")
    assert found["max_per_stretch"] == 1, found
    assert found["unmailed_stretches"] == 0, found


def race_started_with_a_turn_that_goes_on(app: Any) -> tuple[str, int, Any]:
    """A Martian Race whose mover, after the first die, must still play the second."""
    svc = svc_of(app)
    rules = engine.rules_for("martian-race")
    for _attempt in range(10):
        public_id = svc.write(
            lambda s: start_game(s, svc.ctx, "martian-race", PLAYERS[:2]).game.public_id
        )
        with svc.db.read() as s:
            game = load(s, public_id)
            (seat,) = game.awaited()
            after = rules.apply(game.state, engine.Played(seat, rules.legal(game.state, seat)[0]))
        if rules.pending(after) == engine.Await((seat,), "move"):
            return public_id, seat, rules
    raise AssertionError("no turn went on after the first die in ten games")


def test_a_turn_mail_link_opens_the_next_decision_of_a_turn_that_goes_on(app, client):
    public_id, seat, rules = race_started_with_a_turn_that_goes_on(app)
    svc = svc_of(app)
    (mail,) = [m for m in outbox(app, purpose="turn") if m.to_addr == PLAYERS[seat][0]]
    link = re.search(r"http://pbem\.test(/play/\S+)", mail.body_text)
    assert link
    with svc.db.read() as s:
        game = load(s, public_id)
        grant, first = game.grant(seat), rules.legal(game.state, seat)[0]
    svc.write(lambda s: submit(s, svc.ctx, grant, first))
    assert len(outbox(app, purpose="turn")) == 1  # no second mail for the second die
    page = client.get(link[1]).get_data(as_text=True)
    assert "Your turn goes on" in page
    assert "already been played" not in page
    assert 'id="move-form"' in page


def test_a_mail_player_whose_turn_goes_on_is_told_so_and_can_reply_again(app):
    public_id, seat, rules = race_started_with_a_turn_that_goes_on(app)
    svc = svc_of(app)
    (mail,) = outbox(app, purpose="turn")
    with svc.db.read() as s:
        first = rules.legal(load(s, public_id).state, seat)[0]
    raw = reply(mail.to_addr, json.loads(mail.headers)["Reply-To"], mail.subject, first)
    assert svc.write(lambda s: replies.ingest(s, svc.ctx, raw)).status == "played"
    (answer,) = outbox(app, purpose="reply")
    assert "It is still your move" in answer.body_text
    assert len(outbox(app, purpose="turn")) == 1
    with svc.db.read() as s:
        state = load(s, public_id).state
        second = rules.legal(state, seat)[0]
    # The answer shows the die still to play, and what may be played with it.
    assert f"{state.dice[0]} still to play" in answer.body_text
    assert second in answer.body_text
    again = reply(mail.to_addr, json.loads(answer.headers)["Reply-To"], answer.subject, second)
    assert svc.write(lambda s: replies.ingest(s, svc.ctx, again)).status == "played"


def reply(sender: str, to: str, subject: str, line: str) -> bytes:
    """A reply mail with a move on its first line."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "Re: " + subject
    message["Message-ID"] = make_msgid(domain="player.example")
    message.set_content(f"{line}\n\n> the quoted mail\n")
    return bytes(message)
