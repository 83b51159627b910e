"""Numbers as people write them, for every page, mail and report: 3, 2.5, 0.67, 2,160.

It sits in the engine, below everything else, so that the pure cores (which import nothing
of the server) and the server's pages and mails write a number the same way.
"""

from __future__ import annotations

PLACES = 2  # 2/3 is written 0.67, 1/12 is written 0.08


def figure(value: float) -> str:
    """Write a number as a person would: at most two decimals, thousands with commas."""
    rounded = round(value, PLACES) + 0.0  # -0.0 is written 0
    text = f"{rounded:,.{PLACES}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def counted(value: float, word: str, plural: str | None = None) -> str:
    """A number with its noun, agreeing: 1 point, 2 points, 0.5 points, 1 game, 3 games."""
    text = figure(value)
    return f"{text} {word if text == '1' else plural or word + 's'}"
