"""The registry of games: kind -> the module that defines its rules."""

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

_cache: dict[str, Rules[Any]] = {}


def rules_for(kind: str) -> Rules[Any]:
    """Return the rules of a game kind; UnknownGame names the known kinds."""
    if kind not in _MODULES:
        raise UnknownGame(f"unknown game {kind!r}; games: {', '.join(GAMES)}")
    if kind not in _cache:
        module = import_module(f"{__name__}.{_MODULES[kind]}")
        _cache[kind] = module.RULES
    return _cache[kind]
