"""Who gets a turn mail: a new turn always, a decision within one's own turn never."""

from __future__ import annotations

import random

from sqlalchemy import delete

import engine
from engine.testing import chance_event
from pbem.log.games import load
from pbem.models import Outbox
from pbem.play.notify import notify

from ..pipe import outbox, start, svc_of


def test_a_player_whose_turn_comes_round_again_is_mailed_even_if_they_acted_last(app):
    # After an automatic pass of the opponent, the same seat is awaited again: a new turn.
    public_id = start(app)
    svc = svc_of(app)

    def renotify(s, continuing):
        loaded = load(s, public_id)
        (seat,) = loaded.awaited()
        return notify(s, svc.ctx, loaded, before=(seat,), acting=seat, continuing=continuing)

    before = len(outbox(app, purpose="turn"))
    assert svc.write(lambda s: renotify(s, load(s, public_id).awaited()[0])) == []
    assert len(outbox(app, purpose="turn")) == before
    # The first turn mail of this head already exists; clear it to see the new one.
    svc.write(lambda s: s.execute(delete(Outbox).where(Outbox.purpose == "turn")))
    assert svc.write(lambda s: renotify(s, None)) != []
    assert len(outbox(app, purpose="turn")) == 1


def test_frisby_turns_are_single_decisions_so_none_continues():
    rules = engine.rules_for("martian-frisby")
    state = engine.step(rules, rules.start(2, {"first_player": 0}), engine.Rolled((3, 5)))
    after = engine.step(rules, state, engine.Played(0, "a1-a4 b1-b6"))
    assert not rules.same_turn(state, after)


def test_martian_dice_continues_a_turn_until_it_passes_to_the_next_player():
    rules = engine.rules_for("martian-dice")
    rng = random.Random(5)
    state = rules.start(2, {"first_player": 0})
    seen_continuing = seen_new_turn = False
    for _ in range(400):
        pending = rules.pending(state)
        if isinstance(pending, engine.Finished):
            break
        if not isinstance(pending, engine.Await):
            state = engine.step(rules, state, chance_event(rng, pending))
            continue
        (seat,) = pending.seats
        choices = rules.legal(state, seat)
        action = next((a for a in choices if a.endswith("roll")), choices[0])
        after = engine.step(rules, state, engine.Played(seat, action))
        while isinstance(rules.pending(after), engine.Roll | engine.Shuffle):
            after = engine.step(rules, after, chance_event(rng, rules.pending(after)))
        if action.endswith("roll") and rules.pending(after) == engine.Await((seat,), "pick"):
            assert rules.same_turn(state, after)
            seen_continuing = True
        if rules.pending(after) != engine.Await((seat,), "pick") or action.endswith("stop"):
            assert not rules.same_turn(state, after)
            seen_new_turn = True
        state = after
    assert seen_continuing and seen_new_turn


def play_until(rules, state, rng, wanted, limit=2000):
    """Bot moves and chance until `wanted(before, after, seat)` holds for one decision."""
    for _ in range(limit):
        pending = rules.pending(state)
        if isinstance(pending, engine.Roll | engine.Shuffle):
            state = engine.step(rules, state, chance_event(rng, pending))
        elif isinstance(pending, engine.Await):
            seat = pending.seats[0]
            played = engine.Played(seat, rules.bot_action(state, seat))
            after = engine.step(rules, state, played)
            while isinstance(rules.pending(after), engine.Roll | engine.Shuffle):
                after = engine.step(rules, after, chance_event(rng, rules.pending(after)))
            if wanted(state, after, seat):
                return state, after, seat
            state = after
        else:
            break
    raise AssertionError("no such decision in the game")


def test_martian_race_the_second_die_continues_the_turn_and_the_next_player_does_not():
    rules = engine.rules_for("martian-race")
    start = rules.start(2, {})
    rng = random.Random(3)

    def awaited(state):
        pending = rules.pending(state)
        return pending.seats if isinstance(pending, engine.Await) else ()

    _, after, seat = play_until(
        rules, start, rng, lambda b, a, s: awaited(a) == (s,) and rules.same_turn(b, a)
    )
    assert after.dice  # a die is still to play
    before, after, seat = play_until(
        rules, after, rng,
        lambda b, a, s: awaited(a) not in ((), (s,)) and rules.pending(a).kind == "move",
    )
    assert not rules.same_turn(before, after)  # the next player's turn


def test_martianopolis_each_racer_moved_continues_the_turn_until_it_ends():
    rules = engine.rules_for("martianopolis-500")
    rng = random.Random(4)
    start = rules.start(3, {})

    def moving_again(before, after, seat):
        pending = rules.pending(after)
        return isinstance(pending, engine.Await) and pending.kind == "move" and (
            pending.seats == (seat,) and rules.pending(before).kind == "move"
        )

    before, after, _ = play_until(rules, start, rng, moving_again)
    assert rules.same_turn(before, after)
    before, after, _ = play_until(
        rules, after, rng, lambda b, a, s: isinstance(rules.pending(a), engine.Await)
        and rules.pending(a).kind == "card" and rules.pending(b).kind == "move"
    )
    assert not rules.same_turn(before, after)
