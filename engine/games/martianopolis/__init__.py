"""Martianopolis 500 v1.0: race three pyramids round a ring track, moved by secret cards."""

from __future__ import annotations

from .cards import DECK, FACE_CARDS, SUITS, card_name, rank, value
from .notation import parse_clauses
from .paths import Paths
from .rules import RULES, VERSIONS, Martianopolis500
from .state import DOWN, UP, MartianopolisState, Racer, distance
from .track import LANES, column, laps_done, movement_points
from .views import is_revealed, is_secret

__all__ = [
    "DECK",
    "DOWN",
    "FACE_CARDS",
    "LANES",
    "RULES",
    "SUITS",
    "UP",
    "VERSIONS",
    "Martianopolis500",
    "MartianopolisState",
    "Paths",
    "Racer",
    "card_name",
    "column",
    "distance",
    "is_revealed",
    "is_secret",
    "laps_done",
    "movement_points",
    "parse_clauses",
    "rank",
    "value",
]
