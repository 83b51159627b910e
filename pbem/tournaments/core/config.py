"""A tournament's setup, read from its `create` event, checked by its format and the game."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from engine.figures import figure

from . import entries, formats
from .errors import (
    BadFormat,
    InvalidEvent,
    listed,
    moment,
    optional_number,
    optional_text,
    optional_whole,
    text,
)
from .model import Config

SCORINGS = ("places", "game-points")
TWO_PLAYER_TIEBREAKS = ("sonneborn-berger", "buchholz-cut-1", "direct-encounter", "wins")
TABLE_TIEBREAKS = ("neustadtl", "opponents-average", "average-rank")
TIEBREAKS = TWO_PLAYER_TIEBREAKS + TABLE_TIEBREAKS + ("buchholz",)
DEFAULT_DEADLINE_HOURS = 72.0
# What a new event may ask for (docs/tournaments.md, "Limits"): enough for any real event, and
# few enough that a schedule, a pairing, a forecast or a page is worked out in a moment. Each
# format bounds its own settings (contract.Setting.most). Checked where an event is created,
# not when a log is folded: a log is never refused later.
DEADLINE_HOURS = (1.0, 2160.0)
DESCRIPTION_CHARS = 2000  # the director's notes: a few paragraphs
RATINGS = (0.0, 4000.0)  # rating bounds an event may set
RATED_GAMES = 10000  # the most rated games an event may ask an entrant to have played
TIMETABLE_GAP = timedelta(days=366)  # the longest a timetable leaves between two rounds
UNFINISHED = ("adjudicate", "carry")  # what a round's date does to the last round's games

# Every event's fields; each format adds its own settings (see contract.Setting).
COMMON = (
    "name", "system", "kind", "preset", "options", "table_sizes", "deadline_hours",
    "timeout_policy", "scoring", "tiebreaks", "rated", "registration_closes", "director",
    "commitment", "duplicate", "description", "max_players", "starts_at", "private",
    "rating_min", "rating_max", "min_rated_games", "round_starts", "unfinished_games",
)


def default_tiebreaks(table_sizes: tuple[int, ...]) -> tuple[str, ...]:
    """Return the tie-break order the design gives events of these table sizes."""
    return TWO_PLAYER_TIEBREAKS if table_sizes == (2,) else TABLE_TIEBREAKS


def parse_config(payload: Mapping[str, Any], where: str = "create") -> Config:
    """Read a `create` payload; raise InvalidEvent or BadFormat naming the problem."""
    known = formats.formats()
    declared = {name: [f.system for f, _ in users] for name, users in formats.declared().items()}
    unknown = sorted(set(payload) - set(COMMON) - set(declared))
    if unknown:
        fields = [*COMMON, *declared]
        raise InvalidEvent(f"{where}: unknown fields {unknown}; the fields are {fields}")
    system = text(payload, "system", where)
    if system not in {f.system for f in known}:
        systems = [f.system for f in known]
        raise BadFormat(f"{where}: system {system!r} is not one of {systems}; a format of "
                        "another package needs that package installed")
    fmt = formats.format_for(system)
    sizes = listed(payload, "table_sizes", where)
    if not sizes or any(isinstance(s, bool) or not isinstance(s, int) or s < 2 for s in sizes):
        raise BadFormat(f"{where}: table_sizes must list seat counts of 2 or more, got {sizes}")
    if len(set(sizes)) != len(sizes):
        raise BadFormat(f"{where}: table_sizes lists a seat count twice: {sizes}")
    options = payload.get("options") or {}
    if not isinstance(options, Mapping):
        raise InvalidEvent(f"{where}: 'options' must be an object, got {options!r}")
    scoring = payload.get("scoring") or {"by": "places"}
    if not isinstance(scoring, Mapping) or scoring.get("by") not in SCORINGS:
        choices = list(SCORINGS)
        raise BadFormat(f"{where}: scoring must be {{'by': one of {choices}}}, got {scoring!r}")
    table_sizes = tuple(sorted(sizes))
    given = payload.get("tiebreaks")
    tiebreaks = tuple(listed(payload, "tiebreaks", where) if given else
                      default_tiebreaks(table_sizes))
    bad = [name for name in tiebreaks if name not in TIEBREAKS]
    if bad:
        raise BadFormat(f"{where}: unknown tie-breaks {bad}; the known ones are {list(TIEBREAKS)}")
    own = {setting.name for setting in fmt.settings}
    for key, users in declared.items():
        if payload.get(key) is not None and key not in own:
            if len(users) == 1:
                raise BadFormat(f"{where}: {key!r} applies to {users[0]} events only, "
                                f"not {system}")
            raise BadFormat(f"{where}: {key!r} does not apply to {system} events "
                            f"(it applies to {' and '.join(users)})")
    settings = {s.name: value for s in fmt.settings
                if (value := s.read(payload, where)) is not None}
    key_closes = "registration_closes"
    closes = payload.get(key_closes)
    starts = payload.get("starts_at")
    description = payload.get("description") or ""
    if not isinstance(description, str):
        raise InvalidEvent(f"{where}: 'description' must be text, got {description!r}")
    deadline = optional_number(payload, "deadline_hours", where)
    config = Config(
        name=text(payload, "name", where),
        system=system,
        kind=text(payload, "kind", where),
        preset=optional_text(payload, "preset", where),
        options=dict(options),
        table_sizes=table_sizes,
        settings=settings,
        deadline_hours=DEFAULT_DEADLINE_HOURS if deadline is None else deadline,
        timeout_policy=optional_text(payload, "timeout_policy", where) or "forfeit",
        scoring=str(scoring["by"]),
        tiebreaks=tiebreaks,
        rated=bool(payload.get("rated", True)),
        registration_closes=None if closes is None else moment(payload, key_closes, where),
        director=text(payload, "director", where),
        duplicate=bool(payload.get("duplicate", False)),
        description=description,
        max_players=optional_whole(payload, "max_players", where, 1),
        starts_at=None if starts is None else moment(payload, "starts_at", where),
        private=bool(payload.get("private", False)),
        rating_min=optional_number(payload, "rating_min", where),
        rating_max=optional_number(payload, "rating_max", where),
        min_rated_games=optional_whole(payload, "min_rated_games", where),
        round_starts=round_starts(payload, where),
        unfinished_games=optional_text(payload, "unfinished_games", where),
    )
    check_system(config, where)
    return config


def round_starts(payload: Mapping[str, Any], where: str) -> tuple[datetime, ...]:
    """Read a Swiss's timetable: the time by which each round from 2 on starts."""
    given = payload.get("round_starts")
    if given is None:
        return ()
    return tuple(moment({"round_starts": value}, "round_starts", where)
                 for value in listed(payload, "round_starts", where))


def check_timetable(config: Config, where: str = "create") -> None:
    """Raise BadFormat when a round timetable does not fit the event, in the director's words."""
    dates, unfinished = config.round_starts, config.unfinished_games
    if not dates and unfinished is None:
        return
    fmt = formats.format_for(config.system)
    if not fmt.takes_timetable:
        raise BadFormat(f"{where}: a round timetable is for Swiss events in rounds, not for a "
                        f"{fmt.title} event")
    if not dates:
        raise BadFormat(f"{where}: give the date by which each round from 2 on starts, or "
                        "leave out what becomes of unfinished games")
    if unfinished not in UNFINISHED:
        raise BadFormat(f"{where}: say what becomes of a game still unfinished when the next "
                        "round's date comes: adjudicate (the server ends it on the scores so "
                        "far) or carry (it goes on and counts for its own round)")
    rounds = config.whole("rounds") or 0
    if len(dates) != rounds - 1:
        raise BadFormat(f"{where}: the timetable needs a date for each round from 2 to "
                        f"{rounds}: {rounds - 1} date{'' if rounds == 2 else 's'}, not "
                        f"{len(dates)}")
    before, after = config.starts_at, "the start"
    for round_, at in enumerate(dates, start=2):
        if before is not None and at <= before:
            raise BadFormat(f"{where}: round {round_} starts by {entries.when(at)}, which is "
                            f"not after {after} ({entries.when(before)})")
        before, after = at, f"round {round_}'s date"


def check_system(config: Config, where: str = "create") -> None:
    """Raise BadFormat when the event's settings contradict each other or its format."""
    if config.deadline_hours <= 0:
        raise BadFormat(f"{where}: deadline_hours must be positive, got {config.deadline_hours}")
    fmt = formats.format_for(config.system)
    fmt.check(config, where)
    check_timetable(config, where)
    if config.duplicate and not fmt.allows_duplicate:
        allowed = " or ".join(f.system for f in formats.formats() if f.allows_duplicate)
        raise BadFormat(f"{where}: duplicate dice need rounds ({allowed}), not {config.system}")
    if config.duplicate and len(config.table_sizes) != 1:
        raise BadFormat(f"{where}: duplicate tables must all seat the same number of players, "
                        f"not {list(config.table_sizes)}")


def check_limits(config: Config, where: str = "create") -> None:
    """Raise BadFormat naming the first number beyond what a new event may ask for."""
    low, high = DEADLINE_HOURS
    hours = config.deadline_hours
    if not (low <= hours <= high and float(hours).is_integer()):
        raise BadFormat(f"{where}: deadline_hours must be a whole number of hours from "
                        f"{figure(low)} to {figure(high)} (a game's deadline is counted in "
                        f"whole hours), not {hours!r}")
    for setting in formats.format_for(config.system).settings:
        value = config.settings.get(setting.name)
        if value is not None and not setting.least <= value <= setting.most:
            raise BadFormat(f"{where}: {setting.name} must be from {setting.least:g} to "
                            f"{setting.most:g}, not {value!r}")
    check_entry_limits(config, where)
    dates = config.round_starts
    for round_, (before, at) in enumerate(zip(dates, dates[1:], strict=False), start=3):
        if at - before > TIMETABLE_GAP:
            raise BadFormat(f"{where}: round {round_} starts more than a year after round "
                            f"{round_ - 1} ({entries.when(at)}); a timetable leaves at most "
                            f"{TIMETABLE_GAP.days} days between two rounds")


def check_entry_limits(config: Config, where: str = "create") -> None:
    """Raise BadFormat naming the first entry rule beyond what a new event may ask for."""
    if len(config.description) > DESCRIPTION_CHARS:
        raise BadFormat(f"{where}: the description may have at most {DESCRIPTION_CHARS:,} "
                        f"characters, not {len(config.description):,}")
    fmt = formats.format_for(config.system)
    least, most = fmt.fewest_entrants(config), fmt.most_entrants(config)
    if config.max_players is not None and not least <= config.max_players <= most:
        raise BadFormat(f"{where}: max_players must be from {least} to {most} for this "
                        f"format, not {config.max_players}")
    low, high = RATINGS
    for key, value in (("rating_min", config.rating_min), ("rating_max", config.rating_max)):
        if value is not None and not low <= value <= high:
            raise BadFormat(f"{where}: {key} must be from {low:g} to {high:g}, not {value:g}")
    if (config.rating_min is not None and config.rating_max is not None
            and config.rating_min > config.rating_max):
        raise BadFormat(f"{where}: rating_min {config.rating_min:g} is above rating_max "
                        f"{config.rating_max:g}")
    if config.min_rated_games is not None and config.min_rated_games > RATED_GAMES:
        raise BadFormat(f"{where}: min_rated_games must be from 0 to {RATED_GAMES:,}, "
                        f"not {config.min_rated_games:,}")
    if (config.starts_at is not None and config.registration_closes is not None
            and config.registration_closes > config.starts_at
            and not fmt.takes_late_entries(config)):
        raise BadFormat(f"{where}: entries close after the start ({config.starts_at.isoformat()}),"
                        " but this event takes no entries once it has started")


def max_entrants(config: Config) -> int:
    """Return how many players an event may enter: the format's limit or the director's."""
    most = formats.format_for(config.system).most_entrants(config)
    return most if config.max_players is None else min(most, config.max_players)


def check_fits(config: Config, seat_counts: tuple[int, ...]) -> None:
    """Raise BadFormat unless every table size is a seat count the game allows."""
    misfits = [size for size in config.table_sizes if size not in seat_counts]
    if misfits:
        raise BadFormat(
            f"{config.kind} is played by {', '.join(map(str, sorted(seat_counts)))} players; "
            f"table sizes {misfits} do not fit"
        )
