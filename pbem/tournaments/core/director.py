"""Fold the director's actions: forbid, bye, disqualify, undo, annul, adjudicate, extend,
co-directors, messages, close entries and starting a round early (or on the timetable)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from . import entries, formats
from .config import UNFINISHED
from .draft import Draft
from .errors import IllegalEvent, InvalidEvent, listed, moment, number, text, utc, whole
from .model import DISQUALIFIED, Bye, Event, Leaving, Message, Result, RoundStart, Undone
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


def check_lead(d: Draft, e: Event, where: str) -> str:
    """The player named, when the lead director (or the operator) acts; IllegalEvent if not."""
    by = e.payload.get("by_player")
    if by is not None and str(by) != d.directors[0]:
        raise IllegalEvent(f"{where}: only the lead director adds directors or hands over")
    text(e.payload, "name", where)
    return text(e.payload, "player", where)


def add_director(d: Draft, e: Event, where: str) -> None:
    """Add a co-director: they may do everything the lead does but add or hand over."""
    player = check_lead(d, e, where)
    if player in d.directors:
        raise IllegalEvent(f"{where}: {player!r} already directs this tournament")
    d.directors.append(player)


def hand_over(d: Draft, e: Event, where: str) -> None:
    """Make another player the lead director; the one handing over stops directing."""
    player = check_lead(d, e, where)
    if player == d.directors[0]:
        raise IllegalEvent(f"{where}: {player!r} already leads this tournament")
    d.directors = [player, *(p for p in d.directors[1:] if p != player)]


def message(d: Draft, e: Event, where: str) -> None:
    """Keep a director's message to every entrant."""
    body = text(e.payload, "text", where)
    if not body.strip():
        raise InvalidEvent(f"{where}: a message needs a text")
    d.messages.append(Message(e.seq, utc(e.at), text(e.payload, "by", where),
                              text(e.payload, "reason", where), body))


def close_entries(d: Draft, e: Event, where: str) -> None:
    """Take no more entries, late ones included."""
    if d.entries_closed is not None:
        raise IllegalEvent(f"{where}: the entries are closed already")
    d.entries_closed = utc(e.at)


def start_round(d: Draft, e: Event, where: str) -> None:
    """Start a Swiss round before the last one is over: its unfinished games (listed, and
    exactly those) are adjudicated or carried. On the timetable, not before the round's date."""
    assert d.config is not None
    if d.started_at is None:
        raise IllegalEvent(f"{where}: the event has not started")
    if not formats.format_for(d.config.system).takes_timetable:
        raise IllegalEvent(f"{where}: only a Swiss event in rounds starts a round early")
    round_ = whole(e.payload, "round", where, 2)
    last = max((p.round for p in d.pairings if p.round is not None), default=0)
    rounds = d.config.whole("rounds") or 0
    if round_ != last + 1 or round_ > rounds:
        raise IllegalEvent(f"{where}: round {round_} cannot start now (round {last} of "
                           f"{rounds} is the last paired)")
    unfinished = text(e.payload, "unfinished", where)
    if unfinished not in UNFINISHED:
        raise InvalidEvent(f"{where}: 'unfinished' must be one of {list(UNFINISHED)}, "
                           f"got {unfinished!r}")
    games = sorted(str(g) for g in listed(e.payload, "games", where))
    paired = (g for p in d.pairings if p.round == last for g in p.games)
    still = sorted(g for g in paired if g in d.tables and d.is_open(d.tables[g]))
    if not still:
        raise IllegalEvent(f"{where}: round {last} is over: round {round_} is paired as usual")
    if games != still:
        raise IllegalEvent(f"{where}: the unfinished games of round {last} are {still}, "
                           f"not {games}")
    timetable = e.payload.get("timetable") is True
    if timetable:
        due = d.config.round_due(round_)
        if due is None:
            raise IllegalEvent(f"{where}: the timetable gives no date for round {round_}")
        # The clock the server acted on: the log's time, or the time a test instance's
        # `pbem tick --at` acted as of (written in the event).
        as_of = moment(e.payload, "as_of", where) if "as_of" in e.payload else utc(e.at)
        if as_of < due:
            raise IllegalEvent(f"{where}: round {round_} starts by {entries.when(due)} on the "
                               f"timetable, not before ({entries.when(as_of)})")
        if unfinished != d.config.unfinished_games:
            raise IllegalEvent(f"{where}: the timetable says to {d.config.unfinished_games} "
                               f"unfinished games, not to {unfinished} them")
    d.round_starts.append(RoundStart(e.seq, round_, utc(e.at), text(e.payload, "by", where),
                                     text(e.payload, "reason", where), unfinished,
                                     tuple(games), timetable))


ACTIONS: dict[str, Callable[[Draft, Event, str], None]] = {
    "add-director": add_director,
    "hand-over": hand_over,
    "message": message,
    "forbid": forbid,
    "bye": bye,
    "disqualify": disqualify,
    "undo": undo,
    "annul": annul,
    "adjudicate": adjudicate,
    "extend": extend,
    "close_entries": close_entries,
    "start-round": start_round,
}
