"""What every service needs besides a session: where links point, who mails, who signs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from .links import Signer

# Called with the session, the context and the loaded game when a game ends, in the
# transaction of its last event: how a tournament records the result without the play
# layer knowing of tournaments.
GameEndHook = Callable[[Session, "Context", Any], None]


@dataclass(frozen=True)
class EventLabel:
    """What a tournament game's mails and page say of its event: its name, page and round."""

    name: str
    url: str
    round: int | None  # None in an event without rounds (a rolling Swiss)

    @property
    def text(self) -> str:
        """The game's place in its event, in words: "round 2 of Winter cup"."""
        return f"round {self.round} of {self.name}" if self.round is not None else self.name


# Called with the session, the context and a game: the event it belongs to, or None. How
# the play layer's mails name a tournament game's event without knowing of tournaments.
GameLabelHook = Callable[[Session, "Context", Any], EventLabel | None]


@dataclass(frozen=True)
class Context:
    """The base URL of links, the sender of mails, the link signer, and the hooks."""

    base_url: str
    mail_from: str
    signer: Signer
    on_game_end: tuple[GameEndHook, ...] = ()
    game_label: GameLabelHook | None = None
