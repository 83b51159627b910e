"""Folding a log in steps, from a kept state, gives exactly the state one fold gives."""

from __future__ import annotations

import json
import random

import pytest

from pbem.tournaments.core import stored
from pbem.tournaments.core.errors import IllegalEvent
from pbem.tournaments.core.fold import fold

from .logs import Log


def eventful() -> Log:
    """A Swiss log with every kind of event a state must carry across a split."""
    log = Log(rounds=3)
    log.register("ann", "bob", "cid", "dan", "eve", "fay", "gus")
    log.add("withdraw", {"player": "gus", "reason": "busy"})
    log.start()
    log.pair(1, [["ann", "bob"], ["cid", "dan"], ["eve", "fay"]])
    log.result("g1", [1, 2]).result("g2", [1, 1]).director("forbid", players=["ann", "cid"])
    log.add("replace", {"player": "bob", "by": "bea", "name": "Bea"})
    log.result("g3", [2, 1]).director("annul", game="g3")
    log.pair(2, [["ann", "dan"], ["bea", "eve"], ["cid", "fay"]])
    log.director("undo", game="g6").director("extend", game="g5", hours=24)
    log.result("g4", [2, 1]).result("g5", [1, 2])
    log.director("bye", player="cid", round=2, points=0.5).director("disqualify", player="fay")
    log.pair(3, [["ann", "eve"], ["bea", "dan"]], byes=[("cid", 1)])
    log.result("g7", [1, 2]).director("adjudicate", game="g8", ranks=[1, 1], scores=None)
    return log


def test_folding_on_from_every_split_gives_the_one_fold():
    events = eventful().events
    whole = fold(events)
    for split in range(1, len(events) + 1):
        kept = fold(events[:split])
        assert fold(events[split:], after=kept) == whole, f"split at {split}"


def test_folding_one_event_at_a_time_gives_the_one_fold():
    events = eventful().events
    state = fold(events[:1])
    for event in events[1:]:
        state = fold((event,), after=state)
    assert state == fold(events)
    (replaced,) = [e.seq for e in events if e.kind == "replace"]
    assert state.former == (("bob", "bea", replaced),)


def through_json(state):
    """The state as a stored fold reads it back."""
    return stored.load(json.loads(json.dumps(stored.dump(state))))


@pytest.mark.parametrize("kept", [lambda state: state, through_json], ids=["kept", "stored"])
def test_random_splits_of_a_rolling_log_fold_alike(kept):
    rng = random.Random(7)
    log = Log("rolling-swiss", games_per_player=3, max_concurrent=1)
    players = [f"p{n}" for n in range(8)]
    log.register(*players).start()
    for _ in range(3):
        rng.shuffle(players)
        games = log.pair(None, [players[i:i + 2] for i in range(0, 8, 2)])
        for game in games:
            log.result(game, rng.choice([[1, 2], [2, 1], [1, 1]]), flags=["bot"])
    events = log.events
    for _ in range(20):
        cuts = sorted(rng.sample(range(1, len(events)), 3))
        state = None
        for first, last in zip([0, *cuts], [*cuts, len(events)], strict=True):
            state = fold(events[first:last], after=None if state is None else kept(state))
        assert state == fold(events)


def test_the_kept_state_is_not_changed_by_folding_on_from_it():
    log = eventful()
    kept = fold(log.events[:-4])
    before = (kept.tables, kept.byes, kept.entrants, kept.pairings)
    fold(log.events[-4:], after=kept)
    assert (kept.tables, kept.byes, kept.entrants, kept.pairings) == before


def test_an_event_refused_after_a_kept_state_is_refused_as_in_one_fold():
    log = eventful()
    kept = fold(log.events)
    log.add("replace", {"player": "bea", "by": "bob", "name": "Bob"})
    with pytest.raises(IllegalEvent, match="'bob' already plays"):
        fold(log.events)
    with pytest.raises(IllegalEvent, match="'bob' already plays"):
        fold(log.events[-1:], after=kept)


def test_a_full_event_refuses_an_entry_however_the_log_is_split():
    # Registrations count on from the one before; a withdrawal in between counts again.
    log = Log(max_players=3)
    log.register("ann", "bob", "cid")
    log.add("withdraw", {"player": "bob", "reason": "busy"})
    log.register("dan")
    log.add("register", {"player": "eve", "name": "Eve", "rating": None})
    with pytest.raises(IllegalEvent, match="Eve cannot enter: the event is full: it takes "
                                           "at most 3 players"):
        fold(log.events)
    for split in range(1, len(log.events)):
        kept = fold(log.events[:split])
        with pytest.raises(IllegalEvent, match="the event is full"):
            fold(log.events[split:], after=kept)
    assert fold(log.events[:-1]).active() == ("ann", "cid", "dan")


def test_a_stored_fold_reads_back_as_the_fold_it_was_at_every_split():
    events = eventful().events
    whole = fold(events)
    for split in range(1, len(events) + 1):
        kept = fold(events[:split])
        back = through_json(kept)
        assert back == kept, f"split at {split}"
        assert fold(events[split:], after=back) == whole, f"split at {split}"
    # Types as well as values: a float stays a float, a tuple a tuple, a time a time.
    back = through_json(whole)
    assert [type(b.points) for b in back.byes] == [type(b.points) for b in whole.byes]
    assert type(back.tables[0].seats) is tuple and back.created_at == whole.created_at
    assert back.config.options == whole.config.options

