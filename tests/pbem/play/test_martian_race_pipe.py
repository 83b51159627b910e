"""Martian Race through the pipe: a push decided by another player, by mail, mid-turn."""
from __future__ import annotations

import engine
from pbem.errors import StaleTurn
from pbem.log.games import load
from pbem.play.act import submit
from pbem.play.start import start_game

from ..pipe import log, outbox, svc_of

PLAYERS = [(f"{c}@example.org", c.title()) for c in ("red", "blue", "green", "yellow")]
RULES = engine.rules_for("martian-race")


def loaded(app, public_id):
    with svc_of(app).db.read() as s:
        return load(s, public_id)


def play_until_someone_else_must_push(app, public_id, limit=300):
    """Bot moves until a push waits for a seat other than the mover; None if the game ends."""
    svc = svc_of(app)
    for _ in range(limit):
        game = loaded(app, public_id)
        if game.game.status != "active":
            return None
        pending = game.pending
        (seat,) = pending.seats
        if pending.kind == "push" and seat != game.state.to_move:
            return game
        grant = game.grant(seat)
        action = RULES.bot_action(game.state, seat)
        svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
    return None


def test_a_push_is_decided_by_the_pushed_player_and_the_movers_turn_goes_on(app):
    svc = svc_of(app)
    for _attempt in range(10):
        public_id = svc.write(
            lambda s: start_game(s, svc.ctx, "martian-race", PLAYERS).game.public_id
        )
        game = play_until_someone_else_must_push(app, public_id)
        if game is not None:
            break
    else:
        raise AssertionError("no push decided by another player in ten games")
    chooser, mover = game.pending.seats[0], game.state.to_move
    assert chooser != mover
    # The chooser was mailed for this decision, at this head, with the push choices.
    mail = outbox(app, purpose="turn")[-1]
    assert mail.to_addr == PLAYERS[chooser][0]
    assert f".{game.game.head_seq}.{chooser}.turn." in mail.message_id
    choices = RULES.legal(game.state, chooser)
    assert choices and all(c.startswith("x ") for c in choices)
    # The mover's old link cannot answer for the chooser.
    mover_grant = game.grant(mover)
    try:
        svc.write(lambda s: submit(s, svc.ctx, mover_grant, choices[0]))
    except StaleTurn as e:
        assert "not" in str(e) and "turn" in str(e)
    else:
        raise AssertionError("the mover answered the chooser's push")
    # The chooser answers; within the same turn the game waits for the mover again
    # (or for another push), and a mover waiting again is mailed.
    grant = game.grant(chooser)
    mails_before = len(outbox(app, purpose="turn"))
    svc.write(lambda s: submit(s, svc.ctx, grant, choices[-1]))
    moves = [e for e in log(app, public_id) if e.kind == "move"]
    assert (moves[-1].seat, moves[-1].payload["action"]) == (chooser, choices[-1])
    after = loaded(app, public_id)
    if after.game.status == "active" and after.state.turns == game.state.turns:
        (waiting,) = after.pending.seats
        assert waiting == mover or after.pending.kind == "push"
        if waiting == mover:
            new_mail = outbox(app, purpose="turn")[mails_before:]
            assert [m.to_addr for m in new_mail] == [PLAYERS[mover][0]]
