"""The results export (TOURNAMENTS.md, "The results export"), the standings CSV, and a recount."""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from .errors import InvalidEvent, iso, utc
from .model import Bye, Entrant, Table, Tournament
from .plans import canonical_json
from .scoring import ANNULLED, score_game, scored_games
from .standings import Standing, rank, standings

# The export is one JSON object: format "pbem-tournament-results", version 1, the event's kind,
# system, scoring and tie-break order, the players in seeding order, every game (seats are 0-based;
# rank and score null until it ends; flags include "annulled" for every game that counts for
# nobody, a player's later timeout losses among them), the byes, and the standings the pages show.
# `standings_from_results` recomputes the standings from such an object alone, which is what lets
# anyone check them without pbem.

FORMAT = "pbem-tournament-results"
VERSION = 1


def number(value: float) -> int | float:
    """Return a number as the export writes it: rounded to 6 places, whole numbers as ints."""
    rounded = round(value, 6)
    return int(rounded) if rounded == int(rounded) else rounded


def standings_rows(rows: Sequence[Standing]) -> list[dict[str, Any]]:
    """Return the export's `standings` list."""
    return [
        {"player": r.player, "place": r.place, "points": number(r.points),
         "tiebreaks": {name: number(value) for name, value in r.tiebreaks}}
        for r in rows
    ]


def standings_hash(t: Tournament) -> str:
    """Return the hash a `close` event carries: sha256 of the canonical JSON of the standings."""
    return hashlib.sha256(canonical_json(standings_rows(standings(t))).encode()).hexdigest()


def results(
    t: Tournament, tournament: str | int, rows: Sequence[Standing] | None = None
) -> dict[str, Any]:
    """Return the results export of a tournament (`rows`: its standings, if known already)."""
    config = t.config
    flags = {game.game: game.flags for game in scored_games(t)}
    games = []
    for table in t.tables:
        result = table.result
        seats = [
            {"player": player, "seat": i,
             "rank": None if result is None else result.ranks[i],
             "score": None if result is None or result.scores is None
             else number(result.scores[i])}
            for i, player in enumerate(table.seats)
        ]
        shown = list(flags.get(table.game, ()))
        if table.annulled is not None and ANNULLED not in shown:
            shown.append(ANNULLED)
        games.append({
            "game": table.game, "round": table.round, "paired_at": iso(table.paired_at),
            "finished_at": None if result is None else iso(result.finished_at),
            "seats": seats, "flags": shown,
        })
    return {
        "format": FORMAT, "version": VERSION, "tournament": tournament,
        "kind": config.kind, "system": config.system, "scoring": {"by": config.scoring},
        "tiebreaks": list(config.tiebreaks),
        "players": [{"id": e.player, "name": e.name, "status": e.status} for e in t.entrants],
        "games": games,
        "byes": [{"player": b.player, "round": b.round, "points": number(b.points)}
                 for b in t.byes],
        "standings": standings_rows(standings(t) if rows is None else rows),
    }


def standings_csv(rows: Sequence[Standing]) -> str:
    """Return the standings as CSV text: place, player, name, status, points, tie-breaks."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    names = [name for name, _ in rows[0].tiebreaks] if rows else []
    writer.writerow(["place", "player", "name", "status", "points", *names])
    for r in rows:
        writer.writerow([r.place, r.player, r.name, r.status, number(r.points),
                         *(number(value) for _, value in r.tiebreaks)])
    return out.getvalue()


def standings_from_results(export: Mapping[str, Any]) -> tuple[Standing, ...]:
    """Recompute the standings from a results export alone."""
    if export.get("format") != FORMAT or export.get("version") != VERSION:
        raise InvalidEvent(f"not a {FORMAT} version {VERSION} object: "
                           f"{export.get('format')!r} version {export.get('version')!r}")
    scoring = export["scoring"]["by"]
    entrants = [Entrant(p["id"], p["name"], p["status"], None) for p in export["players"]]
    games = []
    for game in export["games"]:
        seats = game["seats"]
        if any(s["rank"] is None for s in seats):
            continue
        ordered = sorted(seats, key=lambda s: s["seat"])
        scores = [s["score"] for s in ordered]
        table = Table(game["game"], game["round"], tuple(s["player"] for s in ordered),
                      parse_time(game["paired_at"]), 0)
        flags = tuple(game["flags"])
        games.append(score_game(
            table, tuple(s["rank"] for s in ordered),
            None if None in scores else tuple(float(x) for x in scores), flags, scoring,
            "annulled in the export" if ANNULLED in flags else "",
            None if game["finished_at"] is None else parse_time(game["finished_at"]),
        ))
    byes = [Bye(b["player"], b["round"], float(b["points"]), 0) for b in export["byes"]]
    return rank(entrants, games, byes, export["tiebreaks"])


def parse_time(text: str) -> datetime:
    """Read an export's ISO 8601 time."""
    return utc(datetime.fromisoformat(text))
