"""The tables, by capability; every model shares one metadata, so migrations see them all."""

from .base import Base
from .games import (
    DEPARTING,
    DIRECTED,
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
from .mail import Bounce, InboundMail, MailCommand, Outbox
from .ratings import RatedGameRow
from .signins import UsedSignin
from .tournaments import (
    Tournament,
    TournamentEntrant,
    TournamentEvent,
    TournamentFold,
    TournamentSecret,
)

__all__ = [
    "DEPARTING",
    "DIRECTED",
    "Base",
    "Bounce",
    "DiceCount",
    "DiceSecret",
    "DiceStream",
    "Event",
    "Game",
    "GameSeat",
    "InboundMail",
    "MailCommand",
    "Outbox",
    "Player",
    "RatedGameRow",
    "Snapshot",
    "Submission",
    "Tournament",
    "TournamentEntrant",
    "TournamentEvent",
    "TournamentFold",
    "TournamentSecret",
    "UsedSignin",
]
