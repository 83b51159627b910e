"""Numbers from outside (forms, JSON bodies, query strings, the command line), read strictly.

A number a person gives is taken only if it is finite and within the limits of what it
counts; anything else is refused with a message naming the field, what was given and what
is allowed. Text is read as people write numbers: ASCII digits, an optional sign, a decimal
point and an exponent, never "inf", "nan", "1_000" or other scripts' digits.
"""

from __future__ import annotations

import json
import math
import re

from engine import figures

from .errors import Rejected

MAX_SEATS = 8  # the most seats any game has (Martian Dice)
MAX_ID = 2**63 - 1  # the largest key either database stores: asking for more is a 500 there
_WHOLE = re.compile(r"[+-]?[0-9]{1,18}")
_DECIMAL = re.compile(r"[+-]?([0-9]{1,18}(\.[0-9]{0,18})?|\.[0-9]{1,18})([eE][+-]?[0-9]{1,3})?")


def refused(must: str, low: float, high: float, value: object) -> Rejected:
    """The error for a number out of bounds: what it must be, and what was given."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return Rejected(f"{must} from {figure(low)} to {figure(high)}; none was given")
    return Rejected(f"{must} from {figure(low)} to {figure(high)}, not {shown(value)}")


def figure(value: float) -> str:
    """A limit as people write it: 2,160 and 0.5 (as every page and mail writes numbers)."""
    return figures.figure(value)


def shown(value: object) -> str:
    """A value as a message quotes it: text in quotes, anything else as JSON writes it."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**40:
        return f"a number of {len(str(abs(value)))} digits"
    text = repr(value) if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= 42 else text[:40] + "…"


def whole(value: object, what: str, low: int, high: int) -> int:
    """A whole number from low to high, given as text or as a JSON number; Rejected if not."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        number = int(value.strip())
    if number is None or not low <= number <= high:
        raise refused(f"{what} must be a whole number", low, high, value)
    return number


def number(value: object, what: str, low: float, high: float) -> float:
    """A finite number from low to high, given as text or as a JSON number; Rejected if not."""
    found: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        found = float(value) if abs(value) < 1e300 else math.inf
    elif isinstance(value, str) and _DECIMAL.fullmatch(value.strip()):
        found = float(value.strip())
    if found is None or not math.isfinite(found) or not low <= found <= high:
        raise refused(f"{what} must be a number", low, high, value)
    return found + 0.0  # -0.0 is written as 0


def numbers(text: str, what: str, low: float, high: float) -> list[float]:
    """Numbers typed in one field, separated by commas or spaces."""
    return [number(part, what, low, high) for part in text.replace(",", " ").split()]


def wholes(text: str, what: str, low: int, high: int) -> list[int]:
    """Whole numbers typed in one field, separated by commas or spaces."""
    return [whole(part, what, low, high) for part in text.replace(",", " ").split()]


def is_row_id(value: int) -> bool:
    """Whether an id from a URL could name a row (a larger one cannot, and is not found)."""
    return 0 < value <= MAX_ID


def non_finite(data: object) -> str | None:
    """Where a JSON value holds a number that is not finite ("options.x", "[2]"), or None.

    JSON has no NaN nor Infinity, but Python's reader takes them, and 1e400 as infinity.
    """
    stack: list[tuple[str, object]] = [("", data)]
    while stack:  # not recursive: a value nested a thousand deep must not overflow the stack
        path, value = stack.pop()
        if isinstance(value, dict):
            stack += [(f"{path}.{key}" if path else str(key), v) for key, v in value.items()]
        elif isinstance(value, list):
            stack += [(f"{path}[{i}]", v) for i, v in enumerate(value)]
        elif isinstance(value, float) and not math.isfinite(value):
            return path or "the body"
    return None
