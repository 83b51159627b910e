"""The tournament's verify recomputes every result from its game's log, on both databases."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select, update

from pbem.log.chain import GENESIS, canonical_json, chain_hash
from pbem.models import Event, Game, Tournament, TournamentEvent
from pbem.tournaments import exports, simulate
from pbem.tournaments.core.export import standings_hash
from pbem.tournaments.core.fold import fold
from pbem.tournaments.log import core_events, entries
from pbem.tournaments.log import load as load_tournament

from ..pipe import svc_of
from .test_service import new_event, started


def reverse_places(payload):
    payload["ranks"] = [1, 2] if payload["ranks"] == [2, 1] else [2, 1]


def played_event(app, rounds=1):
    """A closed two-player Swiss of four, played out by the house bots: its id."""
    return simulate.run(svc_of(app), "swiss", "martian-frisby", 4, None, 3,
                        {"rounds": rounds}).public_id


def verified(app, public_id):
    with svc_of(app).db.read() as s:
        return exports.verify_held(s, load_tournament(s, public_id))


def forge(app, public_id, kind, change):
    """Change the last event of a kind, then re-hash the log from there as a forger would
    (a close after it gets the standings of the forged log): the changed event's seq."""
    with svc_of(app).db.write() as s:
        row = s.scalars(select(Tournament).where(Tournament.public_id == public_id)).one()
        log = entries(s, row)
        target = [e for e in log if e.kind == kind][-1].seq
        previous = GENESIS if target == 0 else log[target - 1].hash
        for i in range(target, len(log)):
            entry = log[i]
            payload = dict(entry.payload)
            if i == target:
                change(payload)
            if entry.kind == "close":
                forged = [*log[:i]]
                payload["standings"] = standings_hash(fold(core_events(forged)))
            digest = chain_hash(previous, entry.seq, entry.kind, None, payload, entry.at)
            log[i] = type(entry)(entry.seq, entry.kind, None, payload, entry.at, digest)
            s.execute(update(TournamentEvent)
                      .where(TournamentEvent.tournament_id == row.id,
                             TournamentEvent.seq == entry.seq)
                      .values(payload=canonical_json(payload), hash=digest))
            previous = digest
        row.head_hash = previous
    return target


@pytest.mark.parametrize("closed", [True, False], ids=["with-close", "without-close"])
def test_a_result_with_its_places_reversed_and_rehashed_is_named_at_the_result(app, closed):
    public_id = played_event(app)
    if not closed:
        with svc_of(app).db.write() as s:
            row = s.scalars(select(Tournament).where(Tournament.public_id == public_id)).one()
            close = s.scalars(select(TournamentEvent).where(
                TournamentEvent.tournament_id == row.id, TournamentEvent.kind == "close")).one()
            s.delete(close)
            row.head_seq, row.head_hash = close.seq - 1, entries(s, row)[-2].hash
    assert verified(app, public_id).problem is None

    seq = forge(app, public_id, "result", reverse_places)

    report = verified(app, public_id)
    assert report.seq == seq, report
    assert "places" in report.problem and "the result says" in report.problem


def test_an_edited_game_log_fails_the_tournaments_verify_at_that_games_result(app):
    public_id = played_event(app)
    svc = svc_of(app)
    with svc.db.write() as s:
        game = s.scalars(select(Game).join(Tournament, Game.tournament_id == Tournament.id)
                         .where(Tournament.public_id == public_id).order_by(Game.id)).first()
        move = s.scalars(select(Event).where(Event.game_id == game.id, Event.kind == "move")
                         .order_by(Event.seq)).first()
        payload = json.loads(move.payload)
        payload["action"] = payload["action"] + " "
        s.execute(update(Event).where(Event.game_id == game.id, Event.seq == move.seq)
                  .values(payload=canonical_json(payload)))
        name, edited = game.public_id, move.seq
    with svc.db.read() as s:
        row = s.scalars(select(Tournament).where(Tournament.public_id == public_id)).one()
        result = next(e for e in entries(s, row)
                      if e.kind == "result" and e.payload["game"] == name)

    report = verified(app, public_id)
    assert report.seq == result.seq
    assert f"game {name}'s own log fails its check at its event {edited}" in report.problem


def test_an_honest_event_says_every_result_was_recomputed(app, runner, tmp_path):
    public_id = played_event(app)
    report = verified(app, public_id)
    assert report.problem is None and report.recounted == report.results == 2

    exported = runner.invoke(args=["tournament", "export", public_id, "--what", "log"])
    path = tmp_path / "spring cup (final)"  # any name at all, no .jsonl
    path.write_text(exported.output)
    checked = runner.invoke(args=["tournament", "verify", str(path)])
    assert checked.exit_code == 0, checked.output
    assert "2 of 2 results recomputed alike from their games" in checked.output


def test_a_missing_file_is_named_as_a_file_not_as_a_tournament(runner, tmp_path):
    result = runner.invoke(args=["tournament", "verify", str(tmp_path / "gone.log")])
    assert result.exit_code != 0
    assert "there is no file" in result.output and "no tournament" not in result.output


def test_a_forged_result_of_a_game_whose_dice_are_still_shared_is_named_without_its_places(app):
    public_id, _ = new_event(app, kind="martian-dice", rounds=1, duplicate=True)
    held = started(app, public_id)
    done, _playing = (t.game for t in held.state.tables)
    simulate.play_out(svc_of(app), done)
    result = load_tournament_now(app, public_id).state.by_game[done].result
    if result is None:  # the result waits for the stream's last game: verify says so
        report = verified(app, public_id)
        assert report.problem is None and report.withheld == (done,)
        return
    seq = forge(app, public_id, "result", reverse_places)

    report = verified(app, public_id)
    assert report.seq == seq
    assert "stay with its players" in report.problem and "[" not in report.problem


def load_tournament_now(app, public_id):
    with svc_of(app).db.read() as s:
        return load_tournament(s, public_id)
