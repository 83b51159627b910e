"""A tournament's format, read from its `create` event and checked against the game's seats."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

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

SYSTEMS = ("round-robin", "swiss", "rolling-swiss", "knockout")
SCORINGS = ("places", "game-points")
TWO_PLAYER_TIEBREAKS = ("sonneborn-berger", "buchholz-cut-1", "direct-encounter", "wins")
TABLE_TIEBREAKS = ("neustadtl", "opponents-average", "average-rank")
TIEBREAKS = TWO_PLAYER_TIEBREAKS + TABLE_TIEBREAKS + ("buchholz",)
DEFAULT_DEADLINE_HOURS = 72.0

FIELDS = (
    "name", "system", "kind", "preset", "options", "table_sizes", "rounds",
    "games_per_player", "max_concurrent", "pair_min_free", "pair_max_wait_hours", "advance",
    "deadline_hours", "timeout_policy", "scoring", "tiebreaks", "rated",
    "registration_closes", "director", "commitment", "duplicate",
)
# What an event may ask for (docs/tournaments.md, "Limits"): enough for any real event, and
# few enough that a schedule, a pairing, a forecast or a page is worked out in a moment.
# Checked where an event is created, not when a log is folded: a log is never refused later.
MAX_ENTRANTS = 512
MAX_ROUND_ROBIN_ENTRANTS = 64  # every game of a round robin is started at once
WHOLE_LIMITS = {"rounds": (1, 30), "games_per_player": (1, 200), "max_concurrent": (1, 20),
                "pair_min_free": (2, MAX_ENTRANTS), "advance": (1, 7)}
HOUR_LIMITS = {"deadline_hours": (1.0, 2160.0), "pair_max_wait_hours": (1.0, 720.0)}
ONLY_FOR = {
    "games_per_player": "rolling-swiss",
    "max_concurrent": "rolling-swiss",
    "pair_min_free": "rolling-swiss",
    "pair_max_wait_hours": "rolling-swiss",
    "advance": "knockout",
}


@dataclass(frozen=True)
class Config:
    """What a `create` event sets up: the format, the game and the rules of the event."""

    name: str
    system: str
    kind: str
    preset: str | None
    options: Mapping[str, Any]
    table_sizes: tuple[int, ...]
    rounds: int | None
    games_per_player: int | None
    max_concurrent: int | None
    pair_min_free: int | None
    pair_max_wait_hours: float | None
    advance: int | None
    deadline_hours: float
    timeout_policy: str
    scoring: str
    tiebreaks: tuple[str, ...]
    rated: bool
    registration_closes: datetime | None
    director: str
    duplicate: bool = False  # every table of a round rolls the same addressed dice

    @property
    def two_player(self) -> bool:
        """Tell whether every table seats two players (pairing by matching, chess tie-breaks)."""
        return self.table_sizes == (2,)


def default_tiebreaks(table_sizes: tuple[int, ...]) -> tuple[str, ...]:
    """Return the tie-break order the design gives events of these table sizes."""
    return TWO_PLAYER_TIEBREAKS if table_sizes == (2,) else TABLE_TIEBREAKS


def parse_config(payload: Mapping[str, Any], where: str = "create") -> Config:
    """Read a `create` payload; raise InvalidEvent or BadFormat naming the problem."""
    unknown = sorted(set(payload) - set(FIELDS))
    if unknown:
        raise InvalidEvent(f"{where}: unknown fields {unknown}; the fields are {list(FIELDS)}")
    system = text(payload, "system", where)
    if system not in SYSTEMS:
        raise BadFormat(f"{where}: system {system!r} is not one of {list(SYSTEMS)}")
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
    for key, only in ONLY_FOR.items():
        if payload.get(key) is not None and system != only:
            raise BadFormat(f"{where}: {key!r} applies to {only} events only, not {system}")
    key_closes = "registration_closes"
    closes = payload.get(key_closes)
    deadline = optional_number(payload, "deadline_hours", where)
    config = Config(
        name=text(payload, "name", where),
        system=system,
        kind=text(payload, "kind", where),
        preset=optional_text(payload, "preset", where),
        options=dict(options),
        table_sizes=table_sizes,
        rounds=optional_whole(payload, "rounds", where, 1),
        games_per_player=optional_whole(payload, "games_per_player", where, 1),
        max_concurrent=optional_whole(payload, "max_concurrent", where, 1),
        pair_min_free=optional_whole(payload, "pair_min_free", where, 2),
        pair_max_wait_hours=optional_number(payload, "pair_max_wait_hours", where),
        advance=optional_whole(payload, "advance", where, 1),
        deadline_hours=DEFAULT_DEADLINE_HOURS if deadline is None else deadline,
        timeout_policy=optional_text(payload, "timeout_policy", where) or "forfeit",
        scoring=str(scoring["by"]),
        tiebreaks=tiebreaks,
        rated=bool(payload.get("rated", True)),
        registration_closes=None if closes is None else moment(payload, key_closes, where),
        director=text(payload, "director", where),
        duplicate=bool(payload.get("duplicate", False)),
    )
    check_system(config, where)
    return config


def check_system(config: Config, where: str = "create") -> None:
    """Raise BadFormat when the format's own settings contradict each other."""
    smallest = config.table_sizes[0]
    if config.deadline_hours <= 0:
        raise BadFormat(f"{where}: deadline_hours must be positive, got {config.deadline_hours}")
    if config.system == "round-robin" and config.two_player and config.rounds not in (None, 1, 2):
        raise BadFormat(f"{where}: a two-player round robin has rounds 1 (single) or 2 (double)")
    if config.system == "swiss" and config.rounds is None:
        raise BadFormat(f"{where}: a Swiss event needs 'rounds'")
    if config.system == "rolling-swiss":
        if config.games_per_player is None or config.max_concurrent is None:
            raise BadFormat(f"{where}: a rolling Swiss needs games_per_player and max_concurrent")
        if config.pair_min_free is not None and config.pair_min_free < smallest:
            raise BadFormat(
                f"{where}: pair_min_free {config.pair_min_free} is less than one table ({smallest})"
            )
        wait = config.pair_max_wait_hours
        if wait is not None and wait <= 0:
            raise BadFormat(f"{where}: pair_max_wait_hours must be positive, got {wait}")
    if config.duplicate and config.system not in ("round-robin", "swiss"):
        raise BadFormat(f"{where}: duplicate dice need rounds (round-robin or swiss), "
                        f"not {config.system}")
    if config.duplicate and len(config.table_sizes) != 1:
        raise BadFormat(f"{where}: duplicate tables must all seat the same number of players, "
                        f"not {list(config.table_sizes)}")
    if config.system in ("rolling-swiss", "knockout") and config.rounds is not None:
        raise BadFormat(f"{where}: 'rounds' does not apply to {config.system} events")
    if config.system == "knockout":
        if config.two_player and config.advance not in (None, 1):
            raise BadFormat(f"{where}: a two-player knockout advances the winner only")
        if not config.two_player and config.advance is None:
            raise BadFormat(f"{where}: a multiplayer knockout needs 'advance' (top k per table)")
        if config.advance is not None and config.advance >= smallest:
            raise BadFormat(f"{where}: advance {config.advance} must be less than the "
                            f"smallest table ({smallest})")


def check_limits(config: Config, where: str = "create") -> None:
    """Raise BadFormat naming the first number beyond what an event may ask for."""
    for key, (low, high) in {**WHOLE_LIMITS, **HOUR_LIMITS}.items():
        value = getattr(config, key)
        if value is not None and not low <= value <= high:
            raise BadFormat(f"{where}: {key} must be from {low:g} to {high:g}, not {value!r}")


def max_entrants(config: Config) -> int:
    """Return how many players an event may enter."""
    return MAX_ROUND_ROBIN_ENTRANTS if config.system == "round-robin" else MAX_ENTRANTS


def check_fits(config: Config, seat_counts: tuple[int, ...]) -> None:
    """Raise BadFormat unless every table size is a seat count the game allows."""
    misfits = [size for size in config.table_sizes if size not in seat_counts]
    if misfits:
        raise BadFormat(
            f"{config.kind} is played by {', '.join(map(str, sorted(seat_counts)))} players; "
            f"table sizes {misfits} do not fit"
        )
