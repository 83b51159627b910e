"""Every tournament format by its system name, and what the server asks of an event's format.

The registry holds the built-in formats (the modules of this package, each with a `FORMAT`)
and those of installed packages, which name a `contract.Format` (an instance, or a class
taking no arguments) under the entry-point group `pbem.formats`:

    [project.entry-points."pbem.formats"]
    ladder = "pbem_ladder:FORMAT"

It is filled on first use. A plug-in that cannot be loaded, is no Format, lacks a required
method or takes a name already taken is left out and listed by `problems()`, which the
contract test and `pbem tournament formats` show. `plan(t, now, away)` is a pure function
of the folded log, the time and who is away: it asks the event's format and stamps the
answer with the algorithm's name and the hash of its inputs. Game deadlines are
`deadline_hours` (plus extensions) after a game is paired.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import datetime, timedelta
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

from ..contract import Format, Setting
from ..errors import BadFormat, utc
from ..model import Table, Tournament
from ..plans import Plan, stamp

GROUP = "pbem.formats"
BUILT_IN = ("roundrobin", "swiss", "rolling", "knockout")  # modules, in the form's order
SYSTEM_NAME = re.compile(r"[a-z][a-z0-9-]{0,19}")  # it fits the tournaments.system column

_registry: dict[str, Format] = {}  # replaced whole, never emptied, so a reader sees one state
_problems: tuple[str, ...] = ()


def load_format(found: Any, source: str) -> Format | str:
    """Return a plug-in's Format (a class is instantiated), or what is wrong with it."""
    if isinstance(found, type) and issubclass(found, Format):
        missing = sorted(getattr(found, "__abstractmethods__", ()))
        if missing:
            return f"{source}: {found.__name__} lacks {', '.join(missing)}"
        found = found()
    if not isinstance(found, Format):
        return f"{source}: {found!r} is not a pbem.tournaments.core.contract.Format"
    lacking = [name for name in ("system", "title", "summary") if not getattr(found, name, "")]
    if lacking:
        return f"{source}: {type(found).__name__} lacks {', '.join(lacking)}"
    if not SYSTEM_NAME.fullmatch(found.system):
        return (f"{source}: system {found.system!r} must be 1 to 20 lower-case letters, "
                "digits or '-', starting with a letter")
    return found


def discover() -> None:
    """(Re)fill the registry: the built-in formats, then every installed plug-in by name."""
    found: dict[str, Format] = {}
    problems: list[str] = []
    for module in BUILT_IN:
        fmt = import_module(f"{__name__}.{module}").FORMAT
        found[fmt.system] = fmt
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        source = f"entry point {point.name!r} ({point.value})"
        try:
            loaded = load_format(point.load(), source)
        except Exception as e:  # noqa: BLE001 - one broken plug-in must not stop the others
            loaded = f"{source} does not load: {type(e).__name__}: {e}"
        if isinstance(loaded, str):
            problems.append(loaded)
        elif loaded.system in found:
            problems.append(f"{source}: system {loaded.system!r} is taken already")
        else:
            found[loaded.system] = loaded
    global _registry, _problems
    _registry, _problems = found, tuple(problems)


def _registry_now() -> dict[str, Format]:
    if not _registry:
        discover()
    return _registry


def formats() -> tuple[Format, ...]:
    """Return every registered format: the built-ins, then the plug-ins by name."""
    return tuple(_registry_now().values())


def problems() -> tuple[str, ...]:
    """Return why each plug-in that was found is not registered, in words."""
    formats()
    return _problems


def declared() -> dict[str, list[tuple[Format, Setting]]]:
    """Return every setting name any format reads, with each format and its declaration."""
    found: dict[str, list[tuple[Format, Setting]]] = {}
    for fmt in formats():
        for setting in fmt.settings:
            found.setdefault(setting.name, []).append((fmt, setting))
    return found


def format_for(system: str) -> Format:
    """Return the format of a system name; BadFormat lists the known ones."""
    known = _registry_now()
    if system not in known:
        raise BadFormat(f"system {system!r} is not one of {list(known)}")
    return known[system]


def format_of(t: Tournament) -> Format:
    """Return the format a tournament is played in."""
    return format_for(t.config.system)


def register(fmt: Format) -> None:
    """Add (or replace) a format by hand (tests, or an application's own formats)."""
    global _registry
    _registry = {**_registry_now(), fmt.system: fmt}


def unregister(system: str) -> None:
    """Forget a format (tests that registered one clean up with this)."""
    global _registry
    _registry = {k: v for k, v in _registry_now().items() if k != system}


def plan(t: Tournament, now: datetime, away: Collection[str] = frozenset(),
         algorithm: str | None = None) -> Plan | None:
    """Return what to pair now, stamped with its algorithm and inputs, or None.

    `verify` names the algorithm a pair event recorded: when it is an earlier version the
    format still derives, that version plans; otherwise (and by default) the current one.
    """
    if not t.started or t.closed:
        return None
    fmt = format_of(t)
    older = [v for v in fmt.derives if algorithm and fmt.algorithm(t.config, v) == algorithm]
    if older:
        proposed = fmt.plan_as(older[0], t, now, away)
        name = fmt.algorithm(t.config, older[0])
    else:
        proposed, name = fmt.plan(t, now, away), fmt.algorithm(t.config)
    return None if proposed is None else stamp(t, proposed, name)


def unfinished(t: Tournament) -> tuple[Table, ...]:
    """Return the games with no result that are not annulled."""
    return t.unfinished()


def is_over(t: Tournament) -> bool:
    """Tell whether nothing is left to pair or to play."""
    if t.closed:
        return True
    if not t.started or t.unfinished():
        return False
    return format_of(t).is_over(t)


def forecast_end(t: Tournament, now: datetime) -> datetime | None:
    """Return when the event should be over if every game takes its full deadline."""
    try:
        return _forecast_end(t, now)
    except OverflowError:  # beyond the calendar: an event made before its numbers were bounded
        return None


def _forecast_end(t: Tournament, now: datetime) -> datetime | None:
    if not t.started:
        return None
    now = utc(now)
    if is_over(t):
        finished = [tb.result.finished_at for tb in t.tables if tb.result is not None]
        return max(finished, default=t.started_at)
    step = timedelta(hours=t.config.game_hours)
    open_end = max([tb.deadline(t.config.game_hours) for tb in t.unfinished()] + [now])
    return format_of(t).forecast(t, now, open_end, step)
