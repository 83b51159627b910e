"""What a tournament gives out: results JSON, standings CSV, an ICS of deadlines, its log.

And `verify`: the hash chain, the fold, every pairing re-derived from the log before it,
every result recomputed from its game's log here (`recount`), in the order of the log, and
the seeding against the revealed seed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock
from ..log.chain import canonical_json, check_chain
from ..log.games import dice_held, load
from ..log.store import LogEntry
from ..models import Game
from .core import formats
from .core.crosstable import crosstable_csv, crosstable_json
from .core.export import results, standings_csv
from .core.fold import fold
from .core.verify import verify
from .log import Held, core_events, entries
from .recount import Witness
from .service import seeding_order

FORMAT = "pbem-tournament-log"


def export_text(session: Session, base_url: str, held: Held, what: str) -> str:
    """One export of a tournament as text: results, csv, ics or log."""
    if what == "results":
        export = results(held.state, held.public_id, held.standings)
        return json.dumps(export, indent=2, ensure_ascii=False) + "\n"
    if what == "csv":
        return standings_csv(held.standings)
    if what == "crosstable-csv":
        return crosstable_csv(held.fold.crosstable)
    if what == "crosstable-json":
        export = crosstable_json(held.fold.crosstable, held.public_id)
        return json.dumps(export, indent=1, ensure_ascii=False) + "\n"
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


def ics_folded(line: str) -> str:
    """A content line folded at 75 octets, as RFC 5545 asks (never inside a character)."""
    out: list[str] = []
    part, size = "", 0
    for char in line:
        width = len(char.encode())
        if size + width > (75 if not out else 74):  # a continuation starts with a space
            out.append(part)
            part, size = "", 0
        part += char
        size += width
    return "\r\n ".join([*out, part])


def ics_event(uid: str, stamp: str, fields: Sequence[str]) -> list[str]:
    """One VEVENT: its UID, when the calendar was written, and its own fields."""
    return ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{stamp}", *fields, "END:VEVENT"]


DEADLINE_SLOT = timedelta(hours=1)  # a deadline is shown as the hour that ends at it


def calendar(session: Session, base_url: str, held: Held) -> str:
    """Every open decision's deadline in the tournament's games, the dates by which the
    rounds to come start (a Swiss's timetable), and its forecast end.

    Valid for strict clients: every event has an end, a game keeps one UID whatever its
    decision (its SEQUENCE counts the game's events, so a subscribed calendar moves it), and
    a calendar always has one component: a closed event's is the day it closed.
    """
    now = clock.utcnow()
    stamp = ics_time(now)
    host = urlsplit(base_url).hostname or "pbem"
    home = f"{base_url}/tournaments/{held.public_id}"
    name = held.row.name
    events: list[str] = []
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
        round_ = f", round {table.round}" if table.round is not None else ""
        events += ics_event(f"{table.game}.deadline@{host}", stamp, [
            f"SEQUENCE:{max(loaded.game.head_seq, 0)}",
            f"DTSTART:{ics_time(deadline - DEADLINE_SLOT)}", f"DTEND:{ics_time(deadline)}",
            f"SUMMARY:{ics_text(f'{name}{round_}: {who} to move in game {table.game}')}",
            f"DESCRIPTION:{ics_text(f'Move by {ics_human(deadline)}, the end of this hour.')}",
            f"URL:{base_url}/games/{table.game}",
        ])
    if not held.state.closed:
        last = held.state.last_round()
        for coming, due in enumerate(held.state.config.round_starts, start=2):
            if coming <= last:
                continue  # paired: its games' deadlines stand for it
            said = (f"Round {coming} starts by {ics_human(due)} at the latest, or as soon as "
                    "the round before it is over.")
            events += ics_event(f"{held.public_id}.round{coming}@{host}", stamp, [
                f"DTSTART:{ics_time(due)}", "DURATION:PT1H",
                f"SUMMARY:{ics_text(f'{name}: round {coming} starts by now')}",
                f"DESCRIPTION:{ics_text(said)}", f"URL:{home}",
            ])
    if held.state.closed_at is not None:
        day = clock.as_utc(held.state.closed_at).date()
        events += ics_event(f"{held.public_id}.end@{host}", stamp, [
            f"DTSTART;VALUE=DATE:{day:%Y%m%d}",
            f"DTEND;VALUE=DATE:{day + timedelta(days=1):%Y%m%d}",
            f"SUMMARY:{ics_text(f'{name}: over, final standings')}", f"URL:{home}/standings",
        ])
    elif (end := formats.forecast_end(held.state, now)) is not None:
        events += ics_event(f"{held.public_id}.end@{host}", stamp, [
            f"DTSTART:{ics_time(end)}", "DURATION:PT1H",
            f"SUMMARY:{ics_text(f'{name}: forecast end')}", f"URL:{home}",
        ])
    if not events:  # not started: the calendar still needs a component
        day = clock.as_utc(held.state.config.registration_closes or now).date()
        events += ics_event(f"{held.public_id}.entries@{host}", stamp, [
            f"DTSTART;VALUE=DATE:{day:%Y%m%d}",
            f"DTEND;VALUE=DATE:{day + timedelta(days=1):%Y%m%d}",
            f"SUMMARY:{ics_text(f'{name}: open for entries')}", f"URL:{home}",
        ])
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//pbem//tournament deadlines//EN",
             "CALSCALE:GREGORIAN", f"X-WR-CALNAME:{ics_text(name)}", *events, "END:VCALENDAR"]
    return "".join(ics_folded(line) + "\r\n" for line in lines)


def ics_human(moment: datetime) -> str:
    """A deadline in words, in UTC."""
    return clock.as_utc(moment).strftime("%A %d %B %Y, %H:%M UTC")


@dataclass(frozen=True)
class Verified:
    """What verify found: counts, and the first problem with its seq."""

    events: int
    pairings: int
    results: int
    seq: int | None = None
    problem: str | None = None
    recounted: int = 0  # results recomputed from their games here
    elsewhere: tuple[str, ...] = ()  # games not on this server: their results are unchecked
    withheld: tuple[str, ...] = ()  # ended games whose results wait for their dice stream


def verify_log(session: Session, log: Sequence[LogEntry]) -> Verified:
    """Check a tournament log; name the first bad seq and why."""
    pairings = sum(1 for e in log if e.kind == "pair")
    counts = (len(log), pairings, sum(1 for e in log if e.kind == "result"))
    chained = check_chain(log)
    if chained is not None:
        return Verified(*counts, chained.seq, chained.reason)
    witness = Witness(session)
    mismatch = verify(core_events(log), witness)
    found = (witness.checked, tuple(witness.elsewhere), waiting_for_dice(session, log))
    if mismatch is not None:
        return Verified(*counts, mismatch.seq, mismatch.problem, *found)
    problem = check_seeding(log)
    if problem is not None:
        return Verified(*counts, problem[0], problem[1], *found)
    return Verified(*counts, None, None, *found)


def waiting_for_dice(session: Session, log: Sequence[LogEntry]) -> tuple[str, ...]:
    """Return the event's ended games with no result yet because their dice stream plays on."""
    paired = {str(t.get("game")) for e in log if e.kind == "pair"
              for t in e.payload.get("tables") or () if isinstance(t, dict)}
    settled = {str(e.payload.get("game")) for e in log
               if e.kind == "result" or e.payload.get("action") in ("annul", "undo")}
    pending = sorted(paired - settled)
    if not pending:
        return ()
    ended = session.scalars(select(Game).where(Game.public_id.in_(pending),
                                               Game.status != "active"))
    return tuple(sorted(g.public_id for g in ended if dice_held(session, g)))


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


def verified_lines(report: Verified) -> list[str]:
    """Say what a verify that found no problem checked, and what it could not."""
    lines = [f"OK: {report.events} events, hash chain intact, {report.pairings} pairings "
             f"re-derived alike, {report.recounted} of {report.results} results recomputed "
             "alike from their games"]
    if report.elsewhere:
        shown = ", ".join(report.elsewhere[:5]) + (", ..." if len(report.elsewhere) > 5 else "")
        lines.append(f"{len(report.elsewhere)} results not checked: their games are not on "
                     f"this server ({shown}); import the games' logs to check them")
    if report.withheld:
        lines.append(f"{len(report.withheld)} ended games have no result yet: it is logged when "
                     f"the last table of their dice stream ends ({', '.join(report.withheld)})")
    return lines
