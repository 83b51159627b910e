"""The tables, by capability; every model shares one metadata, so migrations see them all."""

from .base import Base
from .games import (
    DiceCount,
    DiceSecret,
    DiceStream,
    Event,
    Game,
    GameSeat,
    Player,
    Snapshot,
    Submission,
)
from .mail import Outbox
from .ratings import RatedGameRow
from .tournaments import Tournament, TournamentEntrant, TournamentEvent, TournamentSecret

__all__ = [
    "Base",
    "DiceCount",
    "DiceSecret",
    "DiceStream",
    "Event",
    "Game",
    "GameSeat",
    "Outbox",
    "Player",
    "RatedGameRow",
    "Snapshot",
    "Submission",
    "Tournament",
    "TournamentEntrant",
    "TournamentEvent",
    "TournamentSecret",
]
