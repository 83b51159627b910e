"""Fold the director's actions: forbid, bye, disqualify, undo, annul, adjudicate, extend,
close entries."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .draft import Draft
from .errors import IllegalEvent, InvalidEvent, listed, number, text, utc
from .model import DISQUALIFIED, Bye, Event, Leaving, Result, Undone
from .tables import read_ranks


def forbid(d: Draft, e: Event, where: str) -> None:
    """Keep two players apart in every later pairing."""
    players = listed(e.payload, "players", where)
    if len(players) != 2:
        raise InvalidEvent(f"{where}: 'players' must name two players, got {players}")
    a, b = (d.entrant({"player": p}, "player", where).player for p in players)
    if a == b:
        raise InvalidEvent(f"{where}: a player cannot be kept apart from themselves ({a!r})")
    pair = (min(a, b), max(a, b))
    if pair not in d.forbidden:
        d.forbidden.append(pair)


def bye(d: Draft, e: Event, where: str) -> None:
    """Give a player points without a game."""
    if d.started_at is None:
        raise IllegalEvent(f"{where}: byes are given after the start")
    entrant = d.entrant(e.payload, "player", where)
    round_ = e.payload.get("round")
    if round_ is not None and (isinstance(round_, bool) or not isinstance(round_, int)):
        raise InvalidEvent(f"{where}: 'round' must be an integer or null, got {round_!r}")
    points = number(e.payload, "points", where)
    d.byes.append(Bye(entrant.player, round_, points, e.seq, text(e.payload, "by", where)))


def disqualify(d: Draft, e: Event, where: str) -> None:
    """Stop pairing a player; their played games stay."""
    entrant = d.entrant(e.payload, "player", where)
    if entrant.status == DISQUALIFIED:
        raise IllegalEvent(f"{where}: {entrant.player!r} is already disqualified")
    left = Leaving(DISQUALIFIED, text(e.payload, "by", where), text(e.payload, "reason", where),
                   e.at)
    d.entrants[entrant.player] = replace(entrant, status=DISQUALIFIED, left=left)


def undo(d: Draft, e: Event, where: str) -> None:
    """Take back a pairing whose game has not ended."""
    table = d.table(e.payload, where)
    if table.result is not None:
        raise IllegalEvent(f"{where}: game {table.game!r} has a result; annul it instead")
    del d.tables[table.game]
    for player in table.seats:
        d.games[player].remove(table.game)
    d.undone.append(Undone(table, text(e.payload, "by", where), text(e.payload, "reason", where),
                           e.seq, utc(e.at)))


def annul(d: Draft, e: Event, where: str) -> None:
    """Make a game count for nobody."""
    table = d.table(e.payload, where)
    if table.annulled is not None:
        raise IllegalEvent(f"{where}: game {table.game!r} is already annulled")
    d.tables[table.game] = replace(table, annulled=text(e.payload, "reason", where))


def adjudicate(d: Draft, e: Event, where: str) -> None:
    """Set a game's result by the director's decision."""
    table = d.table(e.payload, where)
    ranks = read_ranks(e.payload, len(table.seats), where)
    raw = e.payload.get("scores")
    if raw is not None and (
        not isinstance(raw, list) or len(raw) != len(ranks)
        or any(isinstance(v, bool) or not isinstance(v, int | float) for v in raw)
    ):
        raise InvalidEvent(f"{where}: 'scores' must be {len(ranks)} numbers or null, got {raw!r}")
    scores = None if raw is None else tuple(float(v) for v in raw)
    head = e.payload.get("head")
    result = Result(ranks, scores, ("adjudicated",), utc(e.at),
                    head if isinstance(head, str) else "", (), e.seq)
    d.tables[table.game] = replace(table, result=result)


def extend(d: Draft, e: Event, where: str) -> None:
    """Give one game, or every game of a round, more time."""
    hours = number(e.payload, "hours", where)
    if hours <= 0:
        raise InvalidEvent(f"{where}: 'hours' must be positive, got {hours}")
    if e.payload.get("game") is not None:
        games = [d.table(e.payload, where).game]
    else:
        round_ = e.payload.get("round")
        games = [g for g, t in d.tables.items() if t.round is not None and t.round == round_]
        if not games:
            raise IllegalEvent(f"{where}: name a game, or a round with games (got {round_!r})")
    for game in games:
        table = d.tables[game]
        d.tables[game] = replace(table, extra_hours=table.extra_hours + hours)


def close_entries(d: Draft, e: Event, where: str) -> None:
    """Take no more entries, late ones included."""
    if d.entries_closed is not None:
        raise IllegalEvent(f"{where}: the entries are closed already")
    d.entries_closed = utc(e.at)


ACTIONS: dict[str, Callable[[Draft, Event, str], None]] = {
    "forbid": forbid,
    "bye": bye,
    "disqualify": disqualify,
    "undo": undo,
    "annul": annul,
    "adjudicate": adjudicate,
    "extend": extend,
    "close_entries": close_entries,
}
