"""The public form of a log: JSON lines with a header, read back, and imported as a game."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine

from ..errors import Rejected
from ..models import DiceSecret, Event, Game, GameSeat, Player
from ..text import json_storable
from . import dice, snapshots, store, tally
from .chain import canonical_json, now_text


def header_for(
    game_public_id: str,
    kind: str,
    rules_version: int,
    stream: str,
    version: int = store.LOG_FORMAT,
) -> dict[str, Any]:
    """The first line of an exported log; `version` is the game's log format."""
    return {
        "format": "pbem-log",
        "version": version,
        "game": game_public_id,
        "kind": kind,
        "rules_version": rules_version,
        "stream": stream,
    }


def header_of(game: Game, setup: store.Setup) -> dict[str, Any]:
    """The export header of a stored game."""
    return header_for(
        game.public_id, game.kind, setup.rules_version, game.stream, setup.log_format
    )


def export_lines(header: dict[str, Any], log: Iterable[store.LogEntry]) -> Iterable[str]:
    """The log as JSON lines: the header, then each event with its hash."""
    yield canonical_json(header)
    for entry in log:
        yield canonical_json(entry.to_json())


GAME_ID = re.compile(r"[0-9a-f]{4,32}")  # as this server makes them (and reply references)
# The server's own events, then the seats' acts, then a director's (docs/architecture.md).
EVENT_KINDS = ("setup", "roll", "shuffle", "reveal", "move", "resign", "timeout",
               "adjudicate", "abort", "extend", "replace")


def parse_export(text: str) -> tuple[dict[str, Any], list[store.LogEntry]]:
    """Read an exported log, trusting none of it; ValueError names the bad line and why."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ValueError("the file is empty")
    try:
        header = read_header(json.loads(lines[0]))
    except (json.JSONDecodeError, RecursionError, ValueError) as e:
        raise ValueError(f"line 1 is not a pbem-log header: {e}") from e
    log = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            log.append(entry_from_json(json.loads(line), header["version"]))
        except (json.JSONDecodeError, RecursionError, ValueError) as e:
            raise ValueError(f"line {number} is not an event: {e}") from e
    return header, log


def read_header(header: Any) -> dict[str, Any]:
    """An export's first line, checked: format, version, game id, kind, rules, stream."""
    if not isinstance(header, dict) or header.get("format") != "pbem-log":
        raise ValueError('it needs "format": "pbem-log"')
    version = header.get("version")
    if version not in store.LOG_FORMATS or isinstance(version, bool):
        raise ValueError(f"version {version!r} is not one of {store.LOG_FORMATS}")
    game = store.field(header, "game", str)
    if not GAME_ID.fullmatch(game):
        raise ValueError(f"the game id {game[:40]!r} is not 4 to 32 lower-case hex digits")
    stream = header.get("stream", game)
    if not isinstance(stream, str) or not (stream == game or dice.STREAM_NAME.fullmatch(stream)):
        raise ValueError(f"the dice stream {str(stream)[:80]!r} is not a stream name")
    if len(store.field(header, "kind", str)) > 40:
        raise ValueError("the game kind is too long to be one")
    store.field(header, "rules_version", int)
    if not json_storable(header):
        raise ValueError("it holds text that is not valid Unicode")
    return {**header, "stream": stream}


def entry_from_json(data: Any, version: int) -> store.LogEntry:
    """One exported event; in format 2 a secret shows its commitment, and its salt once revealed."""
    if not isinstance(data, dict):
        raise ValueError("an event is a JSON object")
    seq, kind, at = store.field(data, "seq", int), store.field(data, "kind", str), data.get("at")
    if seq < 0 or kind not in EVENT_KINDS:
        raise ValueError(f"seq {seq} of kind {kind[:20]!r}: not an event this log can hold")
    seat = data.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise ValueError(f"seq {seq}: the seat {seat!r} is not a seat number or null")
    if not is_timestamp(at):
        raise ValueError(f"seq {seq}: the time {str(at)[:60]!r} is not an ISO 8601 UTC time")
    salt, commit = data.get("salt"), data.get("commit")
    if not store.is_hex(data.get("hash"), 64):
        raise ValueError(f"seq {seq}: the hash is not 64 lower-case hex digits")
    if version < 2 and (salt is not None or commit is not None):
        raise ValueError(f"seq {seq}: a version 1 log has no commitments")
    if any(v is not None and not store.is_hex(v, 64) for v in (salt, commit)):
        raise ValueError(f"seq {seq}: a salt or commitment is 64 lower-case hex digits")
    if salt is not None and commit is None:
        raise ValueError(f"seq {seq}: a salt comes with the commitment it opens")
    hidden = commit is not None and salt is None
    if hidden and "payload" in data:
        raise ValueError(f"seq {seq}: a secret shown with its payload needs its salt")
    payload = {} if hidden else store.field(data, "payload", dict)
    if not json_storable(data):
        raise ValueError(f"seq {seq}: it holds text that is not valid Unicode")
    return store.LogEntry(seq, kind, seat, payload, str(at), data["hash"], salt, commit)


def is_timestamp(at: Any) -> bool:
    """Whether a value is an event time as stored: ISO 8601, in UTC, at most 40 characters."""
    if not isinstance(at, str) or len(at) > 40:
        return False
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return False
    return moment.utcoffset() == timedelta(0)


def import_game(
    session: Session,
    header: dict[str, Any],
    log: Sequence[store.LogEntry],
    seed: str,
    players: Sequence[Player],
) -> Game:
    """Store a verified, finished game's log as it was exported, with its players in seat order.

    The game is marked imported: its dice seed was drawn by another server.
    """
    setup = store.Setup.from_payload(log[0].payload)
    public_id = str(header["game"])
    stream = str(header.get("stream", public_id))
    if session.scalars(select(Game.id).where(Game.public_id == public_id)).first():
        raise Rejected(f"a game {public_id!r} already exists here")
    if session.scalars(select(Game.id).where(Game.stream.in_((public_id, stream)))).first():
        raise Rejected(f"the dice stream {stream!r} is in use here; it cannot be imported")
    if len(players) != setup.seats or len({p.id for p in players}) != len(players):
        raise Rejected(f"the game needs {setup.seats} different players, one per seat")
    hidden = next((e.seq for e in log if e.hidden), None)
    if hidden is not None:
        raise Rejected(f"event {hidden} is still secret; only finished games are imported")
    rules = setup.rules()
    # A director ended it: the game keeps the ruling, as a game ruled here does.
    ruling = next((e.kind for e in reversed(log) if e.kind in ("adjudicate", "abort")), None)
    ruled = ruling is not None
    kept, end = snapshots.checkpoints(rules, setup, log)
    if not ruled and not isinstance(rules.pending(end), engine.Finished):
        raise Rejected("the game in this log has not ended; only finished games are imported")
    game = Game(
        public_id=public_id,
        kind=setup.kind,
        status="aborted" if ruling == "abort" else "finished",
        ruled=ruled,
        head_seq=log[-1].seq,
        head_hash=log[-1].hash,
        stream=stream,
        chances=sum(1 for e in log if e.kind in ("roll", "shuffle")),
        deadline_hours=72,
        imported=True,
        created_at=datetime.fromisoformat(log[0].at),
        updated_at=datetime.fromisoformat(now_text()),
    )
    session.add(game)
    session.flush()
    for seat, player in enumerate(players):
        session.add(GameSeat(game_id=game.id, seat=seat, player_id=player.id))
    session.add(DiceSecret(game_id=game.id, seed=seed))
    for e in log:
        payload = canonical_json(e.payload)
        session.add(Event(game_id=game.id, seq=e.seq, kind=e.kind, seat=e.seat, payload=payload,
                          at=e.at, hash=e.hash, salt=e.salt))
    for seq, state in kept:  # as if it had been played here: its history pages stay quick
        snapshots.keep(session, game, seq, rules, state)
    if any(e.kind == "reveal" for e in log):  # its dice join the totals as a reveal here does
        tally.add(session, tally.counts_of((e.kind, e.payload) for e in log))
    return game
