"""The tournament core's errors, and readers that check an event payload's fields."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from math import isfinite
from typing import Any


class TournamentError(ValueError):
    """Base class of every error the tournament core raises."""


class InvalidEvent(TournamentError):
    """An event that cannot be read: unknown kind, out of order, a malformed payload."""


class IllegalEvent(TournamentError):
    """A well-formed event that is not allowed now (registering twice, pairing an open round)."""


class BadFormat(TournamentError):
    """A tournament format that does not fit the game or contradicts itself."""


def utc(moment: datetime) -> datetime:
    """Return `moment` as an aware UTC datetime (a naive one is taken to be UTC already)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def text(payload: Mapping[str, Any], key: str, where: str) -> str:
    """Read a non-empty string field."""
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidEvent(f"{where}: '{key}' must be a non-empty string, got {value!r}")
    return value


def optional_text(payload: Mapping[str, Any], key: str, where: str) -> str | None:
    """Read a string field that may be missing or null."""
    if payload.get(key) is None:
        return None
    return text(payload, key, where)


def whole(payload: Mapping[str, Any], key: str, where: str, least: int = 0) -> int:
    """Read an integer field of at least `least`."""
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise InvalidEvent(f"{where}: '{key}' must be an integer >= {least}, got {value!r}")
    return value


def optional_whole(payload: Mapping[str, Any], key: str, where: str, least: int = 0) -> int | None:
    """Read an integer field that may be missing or null."""
    if payload.get(key) is None:
        return None
    return whole(payload, key, where, least)


def number(payload: Mapping[str, Any], key: str, where: str) -> float:
    """Read a finite number field (JSON, and so a log, has no NaN nor Infinity)."""
    value = payload.get(key)
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            if isfinite(value):
                return float(value)
        except OverflowError:  # an integer too large for a float
            pass
    raise InvalidEvent(f"{where}: '{key}' must be a finite number, got {value!r}")


def optional_number(payload: Mapping[str, Any], key: str, where: str) -> float | None:
    """Read a number field that may be missing or null."""
    if payload.get(key) is None:
        return None
    return number(payload, key, where)


def moment(payload: Mapping[str, Any], key: str, where: str) -> datetime:
    """Read an ISO 8601 time field as aware UTC."""
    value = payload.get(key)
    if not isinstance(value, str):
        raise InvalidEvent(f"{where}: '{key}' must be an ISO 8601 time, got {value!r}")
    try:
        return utc(datetime.fromisoformat(value))
    except ValueError as e:
        raise InvalidEvent(f"{where}: '{key}' is not an ISO 8601 time: {value!r}") from e


def listed(payload: Mapping[str, Any], key: str, where: str) -> list[Any]:
    """Read a list field."""
    value = payload.get(key)
    if isinstance(value, list):
        return value
    if not isinstance(value, tuple):
        raise InvalidEvent(f"{where}: '{key}' must be a list, got {value!r}")
    return list(value)


def iso(when: datetime) -> str:
    """Write a time as ISO 8601 UTC, as the logs store times."""
    return utc(when).isoformat()
