"""The registry of games: kind -> the rules of each version, the newest by default.

A game keeps the rules version it was created with (its setup event says which), so every
version that ever ran a game stays registered. A module may list its old versions in
`VERSIONS`; its `RULES` is the newest.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..core import Rules
from ..errors import UnknownGame

# Modules are imported on first use so that one game's import cost is not every game's.
_MODULES: dict[str, str] = {
    "martian-frisby": "frisby",
    "martian-race": "martian_race",
    "mad-dog": "mad_dog",
    "martian-dice": "martian_dice",
    "martianopolis-500": "martianopolis",
}

GAMES: tuple[str, ...] = tuple(_MODULES)

_versions: dict[str, dict[int, Rules[Any]]] = {}


def _registered(kind: str) -> dict[int, Rules[Any]]:
    if kind not in _MODULES:
        raise UnknownGame(f"unknown game {kind!r}; games: {', '.join(GAMES)}")
    if kind not in _versions:
        module = import_module(f"{__name__}.{_MODULES[kind]}")
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
