"""Martian Dice for 2 to 8 players: push your luck abducting earthlings past tanks."""

from __future__ import annotations

from .bot import bot_choice, roll_value
from .dice import counts_of, turn_points
from .rules import RULES, MartianDice
from .state import DiceState

__all__ = [
    "RULES",
    "DiceState",
    "MartianDice",
    "bot_choice",
    "counts_of",
    "roll_value",
    "turn_points",
]
