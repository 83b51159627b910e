"""Every registered game keeps the engine contract (docs/architecture.md §3) at random."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

import engine
from engine import Await, Finished, Played, Roll, Shuffle, replay, rules_for, step
from engine.testing import play_randomly, with_limits

# CI checks one game per case at every step; `pytest -m slow` plays many more.
PARSE_SAMPLE = 40
GAMES_PER_CASE = int(os.environ.get("PBEM_RANDOM_GAMES", "10000"))


def cases():
    """(kind, seats, preset) for every game, player count and preset."""
    for kind in engine.GAMES:
        rules = rules_for(kind)
        for seats in rules.seats:
            for preset in [None, *rules.presets]:
                yield pytest.param(kind, seats, preset, id=f"{kind}-{seats}-{preset or 'default'}")


def options_for(rules, preset):
    return rules.resolve_options(with_limits(rules, None), preset)


def check_every_step(rules, seats, options, events):
    """Walk a play-through, checking the contract at every step."""
    state = rules.start(seats, options)
    addresses = set()
    for event in events:
        dumped = rules.dump(state)
        assert json.loads(json.dumps(dumped)) == dumped
        assert rules.dump(rules.load(dumped)) == dumped
        assert rules.pending(rules.load(dumped)) == rules.pending(state)
        for viewer in [None, *range(seats)]:
            view = rules.view(state, viewer)
            assert json.loads(json.dumps(view)) == view
        pending = rules.pending(state)
        address = rules.chance_address(state)
        if isinstance(pending, Roll | Shuffle) and address is not None:
            # Dice scheme 2 draws from the address: two chance events must never share one.
            assert address not in addresses, address
            addresses.add(address)
        elif not isinstance(pending, Roll | Shuffle):
            assert address is None, (pending, address)
        if isinstance(pending, Roll):
            assert 1 <= pending.count <= 20 and 2 <= pending.sides <= 100
        if isinstance(pending, Shuffle):
            assert 1 <= pending.n <= 1000
        if isinstance(pending, Await):
            for seat in pending.seats:
                actions = rules.legal(state, seat)
                # A spread sample keeps long legal lists affordable at every step.
                sample = actions[:: max(1, len(actions) // PARSE_SAMPLE)]
                for action in sample:
                    assert rules.parse_action(state, seat, action) == action
                check_sentences(rules, state, seats, seat, sample)
        if isinstance(event, Played):
            check_sentences(rules, state, seats, event.seat, (event.action,))
        before = rules.dump(state)
        state = step(rules, state, event)
        assert rules.dump(rules.load(before)) == before, "apply mutated its input"
    return state


def check_sentences(rules, state, seats, seat, actions):
    """Every reader's sentence names the acting seat; only a secret's own seat reads it whole."""
    name = rules.seat_name(state, seat)
    hidden = set()
    for action in actions:
        played = Played(seat, action)
        own = rules.describe(state, played, seat)
        assert name in own, (own, name)
        secret = rules.is_secret(state, played)
        for viewer in [None, *range(seats)]:
            if viewer == seat:
                continue
            text = rules.describe(state, played, viewer)
            assert name in text, (text, name)
            if secret:
                assert text != own and action not in text, (text, own)
                hidden.add(text)
            else:
                assert text == own, (viewer, text, own)
    # What the others read of a secret choice must not tell one choice from another.
    assert len(hidden) <= 1, hidden


@pytest.mark.parametrize(("kind", "seats", "preset"), list(cases()))
def test_random_play_finishes_and_replay_equals_the_fold(kind, seats, preset):
    check_random_play(kind, seats, preset, seed=0)


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "seats", "preset"), list(cases()))
@pytest.mark.parametrize("seed", range(1, 20))
def test_more_random_play_keeps_the_contract_at_every_step(kind, seats, preset, seed):
    check_random_play(kind, seats, preset, seed=seed)


def check_random_play(kind, seats, preset, seed):
    """One random game, checked at every step, replayed two ways."""
    rules = rules_for(kind)
    options = options_for(rules, preset)
    game = play_randomly(rules, seats, random.Random(seed), options, resign_rate=0.0)
    assert game.finished, "random play ran past its event budget"
    folded = check_every_step(rules, seats, options, game.events)
    assert rules.dump(folded) == rules.dump(game.state)
    assert rules.dump(replay(rules, seats, options, game.events)) == rules.dump(game.state)
    outcome = rules.outcome(game.state)
    assert isinstance(rules.pending(game.state), Finished)
    assert outcome is not None and len(outcome.ranks) == seats
    assert min(outcome.ranks) == 1 and outcome.reason


@pytest.mark.parametrize(("kind", "seats", "preset"), list(cases()))
def test_random_play_with_resignations_ends_cleanly(kind, seats, preset):
    rules = rules_for(kind)
    options = options_for(rules, preset)
    for seed in range(2):
        game = play_randomly(rules, seats, random.Random(seed), options, resign_rate=0.05)
        assert game.finished
        assert rules.outcome(game.state) is not None


def test_unknown_games_are_named_with_the_known_ones():
    with pytest.raises(engine.UnknownGame, match="martian-frisby"):
        rules_for("martian-chess")


def test_every_rules_object_declares_its_identity():
    for kind in engine.GAMES:
        rules = rules_for(kind)
        assert rules.kind == kind
        assert rules.title and isinstance(rules.version, int) and rules.seats


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "seats", "preset"), list(cases()))
def test_many_random_games_never_dead_end(kind, seats, preset):
    rules = rules_for(kind)
    options = options_for(rules, preset)
    finished = 0
    for seed in range(GAMES_PER_CASE):
        game = play_randomly(rules, seats, random.Random(seed), options)
        finished += game.finished
    assert finished == GAMES_PER_CASE


@pytest.mark.parametrize("kind", engine.GAMES)
def test_every_preset_is_made_of_valid_options(kind):
    rules = rules_for(kind)
    for preset, values in rules.presets.items():
        resolved = rules.resolve_options(None, preset)
        for name in values:
            spec = next(o for o in rules.options if o.name == name)
            assert spec.parse(resolved[name]) == resolved[name], (preset, name)


BOT_GAME = """
import hashlib, random, sys
import engine
from engine.testing import chance_event

rules = engine.rules_for(sys.argv[1])
state = rules.start(rules.seats[-1], rules.resolve_options({}))
rng, played = random.Random(7), []
for _ in range(300):
    pending = rules.pending(state)
    if isinstance(pending, engine.Finished):
        break
    if isinstance(pending, engine.Await):
        seat = pending.seats[0]
        played.append(rules.bot_action(state, seat))
        event = engine.Played(seat, played[-1])
    else:
        event = chance_event(rng, pending)
    state = engine.step(rules, state, event)
print(len(played), hashlib.sha256("|".join(played).encode()).hexdigest())
"""


@pytest.mark.parametrize("kind", engine.GAMES)
def test_the_house_bot_plays_the_same_in_any_process(kind):
    # A timeout move must not depend on set or dict order, which PYTHONHASHSEED changes.
    games = [
        subprocess.run(
            [sys.executable, "-c", BOT_GAME, kind],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
        for seed in ("1", "99")
    ]
    assert games[0] == games[1]
    assert int(games[0].split()[0]) > 0
