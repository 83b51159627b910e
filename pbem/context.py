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
class Context:
    """The base URL of links, the sender of mails, the link signer, and game-end hooks."""

    base_url: str
    mail_from: str
    signer: Signer
    on_game_end: tuple[GameEndHook, ...] = ()
