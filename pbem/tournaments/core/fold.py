"""Fold a tournament's event log into a Tournament, checking each event as it comes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from . import director, entries, formats, tables
from .config import parse_config
from .draft import Draft
from .errors import IllegalEvent, InvalidEvent, listed, number, optional_whole, text, utc
from .model import ACTIVE, WITHDRAWN, Bye, Entrant, Event, Leaving, Tournament

# Raised whenever folding the same events gives a different state than before: folds
# stored under another version are then never read back (see log.STORED).
VERSION = 1


def apply(draft: Draft, event: Event) -> None:
    """Fold one event in; raise InvalidEvent or IllegalEvent naming its seq."""
    where = f"event {event.seq} ({event.kind})"
    if event.seq != draft.head + 1:
        raise InvalidEvent(f"{where}: expected seq {draft.head + 1}, events must be in order")
    handler = HANDLERS.get(event.kind)
    if handler is None:
        raise InvalidEvent(f"{where}: unknown event kind; the kinds are {sorted(HANDLERS)}")
    if (event.kind == "create") != (event.seq == 0):
        raise InvalidEvent(f"{where}: a log starts with one create event, at seq 0")
    if draft.closed_at is not None:
        raise IllegalEvent(f"{where}: the tournament is closed")
    handler(draft, event, where)
    draft.head = event.seq


def fold(events: Iterable[Event], after: Tournament | None = None) -> Tournament:
    """Return the tournament a log describes; raise a TournamentError naming the bad seq.

    With `after`, the state folded from the log's events up to `after.head`, `events` are
    the ones that follow it, and the result is the fold of the whole log: folding in steps
    gives exactly what one fold gives. `after` itself is not changed.
    """
    draft = Draft() if after is None else Draft.thaw(after)
    for event in events:
        apply(draft, event)
    return draft.freeze()


def on_create(d: Draft, e: Event, where: str) -> None:
    """Set the format up."""
    d.config = parse_config(e.payload, where)
    d.created_at = utc(e.at)
    d.directors = [d.config.director]


def on_register(d: Draft, e: Event, where: str) -> None:
    """Add a player while entries are open: before the start, or late where the format
    takes late entrants (who score the format's share of a bye for each round missed)."""
    assert d.config is not None
    player = text(e.payload, "player", where)
    name = text(e.payload, "name", where)
    known = d.entrants.get(player)
    if known is not None and known.status == ACTIVE:
        raise IllegalEvent(f"{where}: {name} is already registered")
    if player in d.former:
        raise IllegalEvent(f"{where}: {name} was replaced and cannot register again")
    if known is not None and d.started_at is not None:
        raise IllegalEvent(f"{where}: {name} has left the event ({known.status}) and cannot "
                           "enter it again")
    rating = e.payload.get("rating")
    rating = None if rating is None else number(e.payload, "rating", where)
    games = optional_whole(e.payload, "rated_games", where)
    last = max((p.round for p in d.pairings if p.round is not None), default=0)
    active = d.active_count()
    field = entries.Field(d.config, d.started_at is not None, last, d.entries_closed, active)
    entry = entries.Entry(name, rating, games, e.payload.get("by") is not None)
    why = entries.refusal(field, entry, utc(e.at), server_limit=False)
    if why is not None:
        raise IllegalEvent(f"{where}: {name} cannot enter: {why}")
    if e.payload.get("by") is not None:
        text(e.payload, "by", where)
    d.entrants.pop(player, None)
    late = d.started_at is not None
    d.entrants[player] = Entrant(player, name, ACTIVE, rating,
                                 entered_at=utc(e.at) if late else None)
    if late:
        d.games.setdefault(player, [])
        missed = formats.format_for(d.config.system).late_byes(d.config, last)
        d.byes.extend(Bye(player, r, points, e.seq, late=True) for r, points in missed)
    d.counted = (e.seq, active + 1)  # the player was absent or had left: one more is active


def on_withdraw(d: Draft, e: Event, where: str) -> None:
    """Mark a player withdrawn; after the start they keep the games they played."""
    entrant = d.entrant(e.payload, "player", where)
    reason = text(e.payload, "reason", where)
    if entrant.status != ACTIVE:
        raise IllegalEvent(f"{where}: {entrant.player!r} is already {entrant.status}")
    by = e.payload.get("by")
    left = Leaving(WITHDRAWN, by if isinstance(by, str) and by else None, reason, e.at)
    d.entrants[entrant.player] = replace(entrant, status=WITHDRAWN, left=left)


def on_replace(d: Draft, e: Event, where: str) -> None:
    """Put a new player in an entrant's place, history and standing."""
    old = d.entrant(e.payload, "player", where)
    new = text(e.payload, "by", where)
    if new in d.entrants or new in d.former:
        raise IllegalEvent(f"{where}: {new!r} already plays in this tournament")

    def swap(player: str) -> str:
        return new if player == old.player else player

    d.entrants = {
        swap(p): (
            replace(x, player=new, name=text(e.payload, "name", where), status=ACTIVE,
                    replaced=x.replaced + (old.player,))
            if p == old.player else x
        )
        for p, x in d.entrants.items()
    }
    d.former[old.player] = (new, e.seq)
    d.games[new] = d.games.pop(old.player, [])
    for game in d.games[new]:
        table = d.tables[game]
        d.tables[game] = replace(table, seats=tuple(map(swap, table.seats)))
    d.byes = [replace(b, player=swap(b.player)) for b in d.byes]
    d.forbidden = sorted((min(swap(a), swap(b)), max(swap(a), swap(b))) for a, b in d.forbidden)
    d.pairings = [replace(p, away=tuple(map(swap, p.away))) for p in d.pairings]


def on_start(d: Draft, e: Event, where: str) -> None:
    """Fix the entrants and their seeding; registered players left out drop out."""
    assert d.config is not None
    if d.started_at is not None:
        raise IllegalEvent(f"{where}: the tournament has already started")
    entrants = listed(e.payload, "entrants", where)
    if len(set(entrants)) != len(entrants):
        raise InvalidEvent(f"{where}: an entrant is listed twice: {entrants}")
    for player in entrants:
        found = d.entrants.get(player) if isinstance(player, str) else None
        if found is None or found.status != ACTIVE:
            raise IllegalEvent(f"{where}: {player!r} is not a registered, active player")
    least = formats.format_for(d.config.system).fewest_entrants(d.config)
    if len(entrants) < least:
        raise IllegalEvent(f"{where}: {len(entrants)} entrants; this format needs {least}")
    d.entrants = {p: d.entrants[p] for p in entrants}
    d.started_at = utc(e.at)


def on_director(d: Draft, e: Event, where: str) -> None:
    """Apply a director's action: who, why and what."""
    text(e.payload, "by", where)
    text(e.payload, "reason", where)
    action = text(e.payload, "action", where)
    handler = director.ACTIONS.get(action)
    if handler is None:
        known = sorted(director.ACTIONS)
        raise InvalidEvent(f"{where}: unknown action {action!r}; the actions are {known}")
    handler(d, e, f"{where[:-1]} {action})")


def on_close(d: Draft, e: Event, where: str) -> None:
    """Close the event with the hash of its final standings."""
    if d.started_at is None:
        raise IllegalEvent(f"{where}: the tournament has not started")
    d.standings_hash = text(e.payload, "standings", where)
    d.closed_at = utc(e.at)


HANDLERS: dict[str, Callable[[Draft, Event, str], None]] = {
    "create": on_create,
    "register": on_register,
    "withdraw": on_withdraw,
    "replace": on_replace,
    "start": on_start,
    "pair": tables.on_pair,
    "result": tables.on_result,
    "director": on_director,
    "close": on_close,
}
