"""Duplicate dice: games sharing a stream roll alike, and its seed waits for the last game."""

from __future__ import annotations

import pytest

from pbem.errors import Rejected
from pbem.log import audit, export
from pbem.log.games import load
from pbem.play.act import resign

from ..pipe import log, outbox, start, svc_of

OTHERS = (("cy@example.org", None), ("di@example.org", None))


def resign_first_seat(app, public_id):
    svc = svc_of(app)
    with svc.db.read() as s:
        grant = load(s, public_id).grant(0)
    svc.write(lambda s: resign(s, svc.ctx, grant))


def reveals(app, public_id):
    return [e for e in log(app, public_id) if e.kind == "reveal"]


def test_two_tables_on_one_stream_get_the_same_opening_rolls(app):
    one = start(app, stream="cup-1")
    two = start(app, players=OTHERS, stream="cup-1")
    rolls = [[e.payload["values"] for e in log(app, g) if e.kind == "roll"] for g in (one, two)]
    assert rolls[0] == rolls[1]
    assert log(app, one)[0].payload["commitment"] == log(app, two)[0].payload["commitment"]


def test_the_shared_seed_is_revealed_only_when_the_last_game_ends(app):
    one = start(app, stream="cup-2")
    two = start(app, players=OTHERS, stream="cup-2")
    resign_first_seat(app, one)
    assert reveals(app, one) == [], "the seed would give away the other table's dice"
    result = [m for m in outbox(app, purpose="result") if m.to_addr.startswith("ann")][-1]
    assert "published\nwhen the last of them ends" in result.body_text
    resign_first_seat(app, two)
    assert len(reveals(app, one)) == len(reveals(app, two)) == 1
    for public_id in (one, two):
        entries = log(app, public_id)
        header = export.header_for(public_id, "martian-frisby", 1, "cup-2")
        report = audit.verify(header, entries)
        assert report.ok and report.complete


def test_a_stream_whose_seed_is_public_takes_no_new_game(app):
    one = start(app, stream="cup-3")
    resign_first_seat(app, one)
    assert reveals(app, one)
    with pytest.raises(Rejected, match="already public"):
        start(app, players=OTHERS, stream="cup-3")


@pytest.mark.parametrize("name", ["has space", "x" * 65, "", "-lead"])
def test_stream_names_are_plain_words(app, name):
    with pytest.raises(Rejected, match="dice stream"):
        start(app, stream=name or " ")


def test_tick_reveals_once_a_stream_whose_games_all_ended_without_a_reveal(app, runner):
    one = start(app, stream="cup-4")
    two = start(app, players=OTHERS, stream="cup-4")
    svc = svc_of(app)

    def ended_without_reveal(s):
        # As a server that crashed between the end and the reveal would leave it.
        for public_id in (one, two):
            load(s, public_id).game.status = "aborted"

    svc.write(ended_without_reveal)
    assert reveals(app, one) == reveals(app, two) == []
    for _ in range(2):
        result = runner.invoke(args=["tick"])
        assert result.exit_code == 0, result.output
    for public_id in (one, two):
        assert len(reveals(app, public_id)) == 1
        header = export.header_for(public_id, "martian-frisby", 1, "cup-4")
        report = audit.verify(header, log(app, public_id))
        assert report.ok and report.complete
