"""What the server does on its own for an event, done as an attempt that may fail alone.

A game's end, a late entry, a withdrawal and `pbem tick` carry an event on (record a
result, pair, start games, close). That work runs in a savepoint of the caller's
transaction: when it fails, nothing of it is written, what the person did stands, and the
problem is kept on the event's row, shown to its directors and mailed to them once
(docs/tournaments.md, "The tournament log").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import datetime

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ..context import Context
from ..errors import PbemError, StaleTurn
from . import log, mails
from .core.errors import TournamentError
from .core.model import Tournament as State
from .log import Held

LOG = logging.getLogger(__name__)


def in_words(message: str, state: State | None) -> str:
    """A refusal of the fold as a director reads it: no event number, names for player ids."""
    text = re.sub(r"^event \d+ \([^)]*\): ", "", message)
    for entrant in state.entrants if state is not None else ():
        text = text.replace(repr(entrant.player), entrant.name)
    return text


NESTED = "pbem.tournament-attempts"  # session.info: how many attempts are under way


def attempt(session: Session, ctx: Context, held: Held, now: datetime,
            step: Callable[[Held], Held]) -> Held:
    """Do what the server does on its own for an event in a savepoint of the caller's
    transaction; when it fails, nothing of it is written and the rest of the transaction
    stands (a game's last move is not refused because the next round cannot be paired).

    The problem, in words, is kept on the event's row for the dashboard, and its directors
    are told when it is new; the next tick tries again (`tick` clears it). A lost race or a
    database failure is not a problem of the event: it goes up, so that the whole
    transaction is retried or refused. Within another attempt (a game that an early round
    start adjudicates ends, and its hook ticks), the outermost one keeps the problem.
    """
    depth = session.info.get(NESTED, 0)
    session.info[NESTED] = depth + 1
    try:
        with session.begin_nested():
            return step(held)
    except (StaleTurn, SQLAlchemyError):
        raise
    except Exception as e:
        if depth:
            raise
        if isinstance(e, PbemError | TournamentError):
            problem = in_words(str(e), held.state)
        else:
            LOG.exception("tournament %s: the server could not carry it on", held.public_id)
            problem = "an error in the server itself (the operator's log has the details)"
    finally:
        session.info[NESTED] = depth
    # The savepoint's rollback may have let go of the event's row: take it again.
    held = log.load(session, held.public_id, for_update=True)
    if held.row.problem != problem:
        held.row.problem, held.row.problem_at = problem, now
        mails.queue_problem(session, ctx, held, problem)
    return held


def settled(held: Held) -> Held:
    """The event carries on: forget the problem that stopped it, if any."""
    if held.row.problem is not None:
        held.row.problem = held.row.problem_at = None
    return held
