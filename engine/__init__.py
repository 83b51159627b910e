"""Pure rules of the Martian dice games: no I/O, no clock, no randomness."""

from __future__ import annotations

from .core import (
    Await,
    Event,
    Finished,
    Menu,
    Option,
    Outcome,
    Pending,
    Played,
    Question,
    Resigned,
    Roll,
    Rolled,
    Rules,
    Shuffle,
    Shuffled,
    awaited_text,
    replay,
    split_actions,
    step,
)
from .errors import IllegalAction, InvalidAction, RulesError, SetupError, UnknownGame
from .games import GAMES, register, rules_for, rules_versions, unregister
from .rulings import Ruling, rulings_for

__all__ = [
    "GAMES",
    "Await",
    "Event",
    "Finished",
    "Menu",
    "IllegalAction",
    "InvalidAction",
    "Option",
    "Outcome",
    "Pending",
    "Played",
    "Question",
    "Resigned",
    "Roll",
    "Rolled",
    "Ruling",
    "Rules",
    "RulesError",
    "SetupError",
    "Shuffle",
    "Shuffled",
    "UnknownGame",
    "awaited_text",
    "register",
    "replay",
    "rules_for",
    "rules_versions",
    "rulings_for",
    "split_actions",
    "step",
    "unregister",
]
