"""The registry of games: kind -> the rules of each version, the newest by default.

A game is one registration: its kind, the module of its rules (`RULES`, the newest, and
`VERSIONS`, the older ones still needed) and the server-side companion that shows it
(boards, help, rulings). The built-in games are listed here; an installed package adds one
with an entry point in the group `pbem.games` whose object is a `Registration` (reading
the installed packages' metadata is the one place the engine looks outside itself; rules
never do). A game keeps the rules version it was created with (its setup event says which),
so every version that ever ran a game stays registered.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, overload

from ..core import Rules
from ..errors import UnknownGame

GROUP = "pbem.games"


@dataclass(frozen=True)
class Registration:
    """One game: its kind, the module holding its rules, and its server-side companion.

    `rules` names a module with `RULES` (and optionally `VERSIONS`); `site` names the
    companion as "module:attribute". Both are imported on first use, so one game's import
    cost is not every game's, and the engine never imports the server.
    """

    kind: str
    rules: str
    site: str | None = None


BUILT_IN: tuple[Registration, ...] = (
    Registration("martian-frisby", "engine.games.frisby", "pbem.games.frisby:SITE"),
    Registration("martian-race", "engine.games.martian_race", "pbem.games.mars:MARTIAN_RACE"),
    Registration("mad-dog", "engine.games.mad_dog", "pbem.games.mars:MAD_DOG"),
    Registration("martian-dice", "engine.games.martian_dice", "pbem.games.martian_dice:SITE"),
    Registration(
        "martianopolis-500", "engine.games.martianopolis", "pbem.games.martianopolis:SITE"
    ),
)

_BUILT_IN = {r.kind: r for r in BUILT_IN}
_registrations: dict[str, Registration] | None = None
_problems: dict[str, str] = {}
_versions: dict[str, dict[int, Rules[Any]]] = {}


def _installed() -> Iterator[tuple[str, Registration | str]]:
    """Each entry point of the group: its name and its registration, or why it has none."""
    from importlib import metadata  # only when the list is asked for: a built-in game needs none

    for point in metadata.entry_points(group=GROUP):
        try:
            found = point.load()
        except Exception as e:  # a broken plug-in must not take the built-in games down
            yield point.name, f"its entry point {point.value!r} does not load: {e}"
            continue
        if not isinstance(found, Registration):
            yield point.name, f"its entry point {point.value!r} is not an engine Registration"
        elif found.kind != point.name:
            yield point.name, f"its entry point {point.name!r} registers {found.kind!r}"
        else:
            yield point.name, found


def registrations() -> dict[str, Registration]:
    """Every game: the built-in ones, then those of installed packages, by kind."""
    global _registrations
    if _registrations is None:
        found = dict(_BUILT_IN)
        _problems.clear()
        for name, entry in _installed():
            if name in found:
                _problems[name] = f"{name} is built in; an installed package registers it too"
            elif isinstance(entry, str):
                _problems[name] = entry
            else:
                found[name] = entry
        _registrations = found
    return _registrations


def refresh() -> None:
    """Read the installed packages' entry points again (after one was installed or removed)."""
    global _registrations
    _registrations = None
    for kind in [k for k in _versions if k not in _BUILT_IN]:
        del _versions[kind]


def problems() -> dict[str, str]:
    """Installed games that could not be registered, with the reason for each."""
    registrations()
    return dict(_problems)


class _Kinds(Sequence[str]):
    """The kinds of every registered game, read when asked (installed games can come later)."""

    def _kinds(self) -> tuple[str, ...]:
        return tuple(registrations())

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._kinds()[index]

    def __len__(self) -> int:
        return len(registrations())

    def __contains__(self, kind: object) -> bool:
        return kind in registrations()

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds())

    def __repr__(self) -> str:
        return repr(self._kinds())


GAMES: Sequence[str] = _Kinds()


def registration(kind: str) -> Registration:
    """The registration of a game kind; UnknownGame names the known kinds."""
    if kind in _BUILT_IN:
        return _BUILT_IN[kind]
    found = registrations()
    if kind not in found:
        why = f" ({_problems[kind]})" if kind in _problems else ""
        raise UnknownGame(f"unknown game {kind!r}{why}; games: {', '.join(found)}")
    return found[kind]


def _registered(kind: str) -> dict[int, Rules[Any]]:
    if kind not in _versions:
        entry = registration(kind)
        module = import_module(entry.rules)
        listed: tuple[Rules[Any], ...] = (*getattr(module, "VERSIONS", ()), module.RULES)
        _versions[kind] = {rules.version: rules for rules in listed}
    return _versions[kind]


def rules_for(kind: str, version: int | None = None) -> Rules[Any]:
    """Return the rules of a game kind at a version (the newest if None).

    UnknownGame names the known kinds, or the versions of a known kind.
    """
    found = _registered(kind)
    if version is None:
        return found[max(found)]
    if version not in found:
        known = ", ".join(str(v) for v in sorted(found))
        raise UnknownGame(
            f"{kind} has no rules version {version!r}; this server knows versions {known}"
        )
    return found[version]


def rules_versions(kind: str) -> tuple[int, ...]:
    """Every registered rules version of a game kind, oldest first."""
    return tuple(sorted(_registered(kind)))


def register(rules: Rules[Any]) -> None:
    """Add (or replace) the rules of one version of a known kind."""
    _registered(rules.kind)[rules.version] = rules


def unregister(kind: str, version: int) -> None:
    """Forget one version of a kind (tests that registered one clean up with this)."""
    _registered(kind).pop(version, None)
