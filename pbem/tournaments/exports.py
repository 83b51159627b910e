"""What a tournament gives out: results JSON, standings CSV, an ICS of deadlines, its log.

And `verify`: the hash chain, the fold, every pairing re-derived from the log before it,
every result against its game's log here, and the seeding against the revealed seed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from .. import clock
from ..log.chain import canonical_json, check_chain
from ..log.games import dice_held, load
from ..log.store import LogEntry
from ..models import Event, Game
from .core import formats
from .core.export import results, standings_csv
from .core.fold import fold
from .core.standings import standings
from .core.verify import verify
from .log import Held, core_events, entries
from .service import seeding_order

FORMAT = "pbem-tournament-log"


def export_text(session: Session, base_url: str, held: Held, what: str) -> str:
    """One export of a tournament as text: results, csv, ics or log."""
    if what == "results":
        return json.dumps(results(held.state, held.public_id), indent=2, ensure_ascii=False) + "\n"
    if what == "csv":
        return standings_csv(standings(held.state))
    if what == "ics":
        return calendar(session, base_url, held)
    header = {"format": FORMAT, "version": 1, "tournament": held.public_id,
              "name": held.row.name, "kind": held.row.kind}
    lines = [canonical_json(header)]
    lines += [canonical_json(entry.to_json()) for entry in entries(session, held.row)]
    return "\n".join(lines) + "\n"


def ics_time(moment: datetime) -> str:
    """A UTC time as iCalendar writes it."""
    return clock.as_utc(moment).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def ics_text(value: str) -> str:
    """Escape text for an iCalendar property."""
    return value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", " ")


def calendar(session: Session, base_url: str, held: Held) -> str:
    """Every open decision's deadline in the tournament's games, and its forecast end."""
    stamp = ics_time(clock.utcnow())
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//pbem//tournament deadlines//EN",
             f"X-WR-CALNAME:{ics_text(held.row.name)}"]
    for table in formats.unfinished(held.state):
        loaded = load(session, table.game)
        if dice_held(session, loaded.game):
            continue  # whose turn it is, or that it is over, would tell of the shared dice
        awaited = loaded.awaited()
        deadline = clock.deadline_of(loaded.game, [loaded.player(s) for s in awaited])
        if deadline is None:
            continue
        who = ", ".join(f"{loaded.rules.seat_name(loaded.state, s)} ({loaded.player(s).name})"
                        for s in awaited)
        lines += ["BEGIN:VEVENT", f"UID:{table.game}.{loaded.game.head_seq}@pbem",
                  f"DTSTAMP:{stamp}", f"DTSTART:{ics_time(deadline)}",
                  f"SUMMARY:{ics_text(f'{held.row.name}: game {table.game}, {who} to move')}",
                  f"URL:{base_url}/games/{table.game}", "END:VEVENT"]
    end = formats.forecast_end(held.state, clock.utcnow())
    if end is not None and not held.state.closed:
        lines += ["BEGIN:VEVENT", f"UID:{held.public_id}.end@pbem", f"DTSTAMP:{stamp}",
                  f"DTSTART:{ics_time(end)}",
                  f"SUMMARY:{ics_text(f'{held.row.name}: forecast end')}",
                  f"URL:{base_url}/tournaments/{held.public_id}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"


@dataclass(frozen=True)
class Verified:
    """What verify found: counts, and the first problem with its seq."""

    events: int
    pairings: int
    results: int
    seq: int | None = None
    problem: str | None = None


def verify_log(session: Session, log: Sequence[LogEntry]) -> Verified:
    """Check a tournament log; name the first bad seq and why."""
    pairings = sum(1 for e in log if e.kind == "pair")
    results_logged = [e for e in log if e.kind == "result"]
    counts = (len(log), pairings, len(results_logged))
    chained = check_chain(log)
    if chained is not None:
        return Verified(*counts, chained.seq, chained.reason)
    mismatch = verify(core_events(log))
    if mismatch is not None:
        return Verified(*counts, mismatch.seq, mismatch.problem)
    for entry in results_logged:
        game = session.scalars(
            select(Game).where(Game.public_id == str(entry.payload["game"]))
        ).first()
        if game is None:
            continue  # another server's game: its own export verifies it
        witnessed = select(exists().where(Event.game_id == game.id,
                                          Event.hash == entry.payload["head"]))
        if not session.scalar(witnessed):
            return Verified(*counts, entry.seq,
                            f"game {game.public_id}'s log has no event with hash "
                            f"{str(entry.payload['head'])[:16]}: the result does not match it")
    problem = check_seeding(log)
    if problem is not None:
        return Verified(*counts, problem[0], problem[1])
    return Verified(*counts)


def check_seeding(log: Sequence[LogEntry]) -> tuple[int, str] | None:
    """Once closed, the revealed seed must match the commitment and give the seeding."""
    close = next((e for e in log if e.kind == "close"), None)
    start = next((e for e in log if e.kind == "start"), None)
    seed = close.payload.get("seed") if close else None
    if close is None or start is None or not isinstance(seed, str):
        return None
    commitment = log[0].payload.get("commitment")
    if hashlib.sha256(bytes.fromhex(seed)).hexdigest() != commitment:
        return close.seq, "the revealed seed does not match the commitment in the create event"
    before = fold(core_events([e for e in log if e.seq < start.seq]))
    if start.payload.get("entrants") != seeding_order(before, seed):
        return start.seq, "the seeding does not follow from the ratings and the revealed seed"
    return None


def verify_held(session: Session, held: Held) -> Verified:
    """Verify a tournament stored here."""
    return verify_log(session, entries(session, held.row))


def verify_text(session: Session, text: str) -> Verified:
    """Verify an exported tournament log; ValueError names a line that cannot be read."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ValueError("the file is empty")
    try:
        header = json.loads(lines[0])
        log = [
            LogEntry(int(d["seq"]), str(d["kind"]), None, dict(d["payload"]), str(d["at"]),
                     str(d["hash"]))
            for d in map(json.loads, lines[1:])
        ]
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
        raise ValueError(f"the file is not a tournament log: {e}") from e
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"line 1 is not a {FORMAT} header")
    return verify_log(session, log)
