"""Martian Dice through the pipe: six players, many decisions a turn, one mail a turn."""

from __future__ import annotations

import engine
from pbem.log import audit, export, store
from pbem.log.games import load
from pbem.play.act import submit
from pbem.play.start import start_game

from ..pipe import log, outbox, svc_of

PLAYERS = [(f"p{i}@example.org", f"P{i}") for i in range(6)]


def test_a_six_player_game_plays_to_the_end_with_every_roll_in_the_log(app):
    svc = svc_of(app)
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martian-dice", PLAYERS).game.public_id
    )
    rules = engine.rules_for("martian-dice")
    for _ in range(5000):
        with svc.db.read() as s:
            loaded = load(s, public_id)
            if loaded.game.status != "active":
                break
            (seat,) = loaded.awaited()
            grant = loaded.grant(seat)
            action = rules.bot_action(loaded.state, seat)
        svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
    else:
        raise AssertionError("the game did not end within 5000 decisions")

    entries = log(app, public_id)
    setup = store.Setup.from_payload(entries[0].payload)
    assert setup.seats == 6
    # Every roll is recorded; replaying the log alone gives the final position.
    rolls = [e for e in entries if e.kind == "roll"]
    assert rolls and all(len(e.payload["values"]) == e.payload["count"] for e in rolls)
    final = store.fold(rules, setup, entries)
    outcome = rules.outcome(final)
    assert outcome is not None and max(outcome.scores or ()) >= 25
    assert entries[-1].kind == "reveal"
    report = audit.verify(export.header_for(public_id, "martian-dice", 1, public_id), entries)
    assert report.ok and report.complete
    assert len(outbox(app, purpose="result")) == 6


def test_no_mail_is_sent_for_a_decision_that_follows_the_players_own(app):
    svc = svc_of(app)
    rules = engine.rules_for("martian-dice")
    public_id = svc.write(
        lambda s: start_game(s, svc.ctx, "martian-dice", PLAYERS[:2]).game.public_id
    )
    for _ in range(400):
        with svc.db.read() as s:
            loaded = load(s, public_id)
            if loaded.game.status != "active":
                break
            (seat,) = loaded.awaited()
            grant = loaded.grant(seat)
            choices = rules.legal(loaded.state, seat)
            # Prefer rolling on, so that turns take several decisions.
            action = next((a for a in choices if a.endswith("roll")), choices[0])
        mails_before = len(outbox(app, purpose="turn"))
        result = svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
        with svc.db.read() as s:
            after = load(s, public_id).awaited()
        mails = outbox(app, purpose="turn")[mails_before:]
        if after == (seat,):
            assert mails == [], "a player continuing their own turn got a mail"
        elif after:
            assert [m.to_addr for m in mails] == [PLAYERS[after[0]][0]]
        assert result.head == log(app, public_id)[-1].seq
