"""The server's errors: each one maps to one HTTP status and names the problem."""

from __future__ import annotations


class ConfigError(Exception):
    """A setting the server must not start with; the message says how to put it right."""


class PbemError(Exception):
    """Base class of every error the server shows to a person."""

    status = 400
    code = "bad-request"


class NotFound(PbemError):
    """No such game, player or page."""

    status = 404
    code = "not-found"


class BadLink(PbemError):
    """A link or token that was not made by this server (forged or damaged)."""

    status = 400
    code = "bad-link"


class ExpiredLink(PbemError):
    """A genuine link that is too old to use."""

    status = 410
    code = "expired-link"


class StaleTurn(PbemError):
    """The turn a link or form was for has been played, or another request won the race."""

    status = 409
    code = "stale"


class NotYet(PbemError):
    """Something shown only later: a game's luck once it ends, a board once its round is over."""

    status = 409
    code = "not-yet"


class SharedDice(PbemError):
    """A game whose dice other tables still roll: only its own players see it until they end."""

    status = 403
    code = "shared-dice"


class Rejected(PbemError):
    """A move that cannot be read or is not allowed now."""

    status = 422
    code = "illegal-action"


class Forbidden(PbemError):
    """Not signed in, or not allowed to do this."""

    status = 403
    code = "forbidden"


class UnknownRules(PbemError):
    """A game's rules version is not one this server has (a log from a newer server)."""

    status = 500
    code = "unknown-rules"


class TooMany(PbemError):
    """Rate limit reached."""

    status = 429
    code = "rate-limited"


class Busy(PbemError):
    """The database could not be written in time: another write holds it. Try again soon.

    What a person is told says only that and when to try again; who held the database (a
    process and its command line) is in `holder`, for the server's log and the operator's
    commands, never for an answer to a request.
    """

    status = 503
    code = "busy"
    retry_after = 5  # seconds, for the Retry-After header

    def __init__(self, holder: str = "") -> None:
        super().__init__(f"the server is busy; try again in {self.retry_after} seconds")
        self.holder = holder
