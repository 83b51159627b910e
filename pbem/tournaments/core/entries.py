"""Who may enter an event, and when: the director's entry rules, in the director's words.

One function answers for the fold (which refuses a `register` event breaking a rule, so a
log never holds one) and for the server (which refuses the entry before logging anything,
with the same words). An entry after the start is a late entry: the format says whether it
takes one (`Format.late_entry`) and what a late entrant scores for the rounds missed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from . import formats
from .model import Config


@dataclass(frozen=True)
class Entry:
    """A would-be entrant, as the `register` event tells of them."""

    name: str
    rating: float | None
    rated_games: int | None
    invited: bool  # entered or invited by the director (or the operator)


@dataclass(frozen=True)
class Field:
    """The event as an entry finds it."""

    config: Config
    started: bool
    last_round: int
    closed_by_director: datetime | None
    entered: int  # active entrants


def when(moment: datetime) -> str:
    """Write a moment as people read it: 'Thursday 26 November 2026, 06:00 UTC'."""
    return f"{moment:%A} {moment.day} {moment:%B %Y, %H:%M} UTC"  # the day unpadded only


def closed(field: Field, now: datetime) -> str | None:
    """Say why entries are closed to everyone now, or None while they are open."""
    config = field.config
    if field.closed_by_director is not None:
        return f"the director closed the entries on {when(field.closed_by_director)}"
    if config.registration_closes is not None and now > config.registration_closes:
        return f"entries closed on {when(config.registration_closes)}"
    if field.started:
        return formats.format_for(config.system).late_entry(config, field.last_round)
    return None


def refusal(field: Field, entry: Entry, now: datetime, *, server_limit: bool = True
            ) -> str | None:
    """Say why this entry is refused now, or None when it is taken.

    The server's own bound on a format's entrants is checked at the edge (`server_limit`);
    a log folded later keeps only the event's rules, so a bound changed since (or a log
    written elsewhere) still folds.
    """
    config = field.config
    why = closed(field, now)
    if why is not None:
        return why
    most = formats.format_for(config.system).most_entrants(config) if server_limit else None
    if config.max_players is not None:
        most = config.max_players if most is None else min(most, config.max_players)
    if most is not None and field.entered >= most:
        return f"the event is full: it takes at most {most} players"
    if config.private and not entry.invited:
        return "entry is by the director's invitation only"
    low, high = config.rating_min, config.rating_max
    if (low is not None or high is not None) and entry.rating is None:
        return f"{entry.name} has no rating in this game yet, and the event asks for one"
    rating = entry.rating
    if low is not None and rating is not None and rating < low:
        return f"{entry.name}'s rating, {rating:g}, is below the event's least ({low:g})"
    if high is not None and rating is not None and rating > high:
        return f"{entry.name}'s rating, {rating:g}, is above the event's most ({high:g})"
    least = config.min_rated_games
    if least and (entry.rated_games or 0) < least:
        played = entry.rated_games or 0
        return (f"{entry.name} has played {played} rated game{'' if played == 1 else 's'} "
                f"of this game; the event asks for {least}")
    return None
