"""Fold `pair` and `result` events: the games of a round and how they ended."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import formats
from .draft import Draft
from .errors import IllegalEvent, InvalidEvent, listed, moment, number, text, utc
from .model import ACTIVE, Bye, Event, Pairing, Result, Table


def on_pair(d: Draft, e: Event, where: str) -> None:
    """Record the games and byes of a round or a rolling tick."""
    assert d.config is not None
    if d.started_at is None:
        raise IllegalEvent(f"{where}: the tournament has not started")
    round_ = read_round(d, e.payload, where)
    active = {p for p, entrant in d.entrants.items() if entrant.status == ACTIVE}
    seen: set[str] = set()

    def take(players: list[Any]) -> tuple[str, ...]:
        # Checked as a batch: a 1,000-player tick seats thousands of players.
        if not active.issuperset(players) or not seen.isdisjoint(players) or len(
                set(players)) != len(players):
            for player in players:
                if not isinstance(player, str) or player not in d.entrants:
                    raise IllegalEvent(f"{where}: {player!r} is not an entrant")
                if player not in active:
                    raise IllegalEvent(f"{where}: {player!r} is {d.entrants[player].status}")
                if player in seen or players.count(player) > 1:
                    raise IllegalEvent(f"{where}: {player!r} is paired twice")
        seen.update(players)
        return tuple(players)

    tables: list[Table] = []
    games: set[str] = set()
    at, sizes = utc(e.at), d.config.table_sizes
    for raw in listed(e.payload, "tables", where):
        if not isinstance(raw, Mapping):
            raise InvalidEvent(f"{where}: a table must be an object, got {raw!r}")
        game = text(raw, "game", where)
        if game in d.tables or game in games:
            raise IllegalEvent(f"{where}: game {game!r} is already part of this tournament")
        games.add(game)
        seats = take(listed(raw, "seats", where))
        if len(seats) not in sizes:
            raise IllegalEvent(f"{where}: game {game!r} seats {len(seats)}; tables seat {sizes}")
        tables.append(Table(game, round_, seats, at, e.seq))
    byes = []
    for raw in listed(e.payload, "byes", where) if "byes" in e.payload else []:
        if not isinstance(raw, Mapping):
            raise InvalidEvent(f"{where}: a bye must be an object, got {raw!r}")
        (player,) = take([raw.get("player")])
        byes.append(Bye(player, round_, number(raw, "points", where), e.seq))
    away = listed(e.payload, "away", where) if e.payload.get("away") is not None else []
    if any(not isinstance(p, str) or p not in d.entrants for p in away):
        raise IllegalEvent(f"{where}: 'away' names players who are not entrants: {away}")
    formats.format_for(d.config.system).check_players(d, seen, where)
    d.tables.update((t.game, t) for t in tables)
    for table in tables:
        for player in table.seats:
            d.games.setdefault(player, []).append(table.game)
    d.byes.extend(byes)
    d.pairings.append(Pairing(
        e.seq, round_, utc(e.at), tuple(t.game for t in tables), tuple(away),
        text(e.payload, "inputs", where), text(e.payload, "algorithm", where),
    ))


def read_round(d: Draft, payload: Mapping[str, Any], where: str) -> int | None:
    """Read the round of a pair event and check that the format allows pairing it now."""
    assert d.config is not None
    fmt = formats.format_for(d.config.system)
    round_ = payload.get("round")
    if not fmt.has_rounds:
        if round_ is not None:
            raise InvalidEvent(f"{where}: a {fmt.title} event has no rounds, got round {round_!r}")
        return None
    if isinstance(round_, bool) or not isinstance(round_, int) or round_ < 1:
        raise InvalidEvent(f"{where}: 'round' must be an integer >= 1, got {round_!r}")
    fmt.check_round(d, round_, where)
    return round_


def on_result(d: Draft, e: Event, where: str) -> None:
    """Record how a game ended."""
    table = d.table(e.payload, where)
    if table.result is not None:
        raise IllegalEvent(
            f"{where}: game {table.game!r} already has a result (event {table.result.seq}); "
            "the director adjudicates or annuls it"
        )
    d.tables[table.game] = Table(table.game, table.round, table.seats, table.paired_at, table.seq,
                                 read_result(e.payload, table, e.seq, where), table.annulled,
                                 table.extra_hours)


def read_result(payload: Mapping[str, Any], table: Table, seq: int, where: str) -> Result:
    """Read a game's ranks, scores, flags and finishing time."""
    n = len(table.seats)
    ranks = read_ranks(payload, n, where)
    raw_scores = payload.get("scores")
    scores = None
    if raw_scores is not None:
        values = listed(payload, "scores", where)
        if len(values) != n or any(isinstance(v, bool) or not isinstance(v, int | float)
                                   for v in values):
            raise InvalidEvent(f"{where}: 'scores' must be {n} numbers or null, got {values}")
        scores = tuple(float(v) for v in values)
    flags = tuple(payload.get("flags") or ())
    if flags and not all(type(f) is str for f in flags):
        raise InvalidEvent(f"{where}: 'flags' must be strings, got {list(flags)}")
    if payload.get("timed_out") is not None:
        timed_out = tuple(listed(payload, "timed_out", where))
        if any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n for s in timed_out):
            raise InvalidEvent(f"{where}: 'timed_out' must list seats 0..{n - 1}, got {timed_out}")
    elif "timeout" in flags:
        timed_out = tuple(s for s, r in enumerate(ranks) if r == max(ranks))
    else:
        timed_out = ()
    return Result(
        ranks, scores, flags, moment(payload, "finished_at", where),
        text(payload, "head", where), timed_out, seq,
    )


def read_ranks(payload: Mapping[str, Any], n: int, where: str) -> tuple[int, ...]:
    """Read one rank per seat (1 is best, equal ranks share a place)."""
    ranks = listed(payload, "ranks", where)
    if len(ranks) != n or not all(type(r) is int and 1 <= r <= n for r in ranks):
        raise InvalidEvent(f"{where}: 'ranks' must be {n} integers from 1 to {n}, got {ranks}")
    return tuple(ranks)
