"""Axis ticks for the rating chart: round rating steps and calendar dates with short labels."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
RATING_STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000)
DAY_STEPS = (1, 2, 7, 14)
MONTH_STEPS = (1, 2, 3, 6, 12, 24, 60, 120, 240)
DAYS_PER_MONTH = 30.44


def rating_ticks(low: float, high: float, most: int = 6) -> tuple[float, float, list[int]]:
    """Return the axis range widened to round numbers and the ratings to label on it."""
    step = next((s for s in RATING_STEPS if (high - low) / s <= most), RATING_STEPS[-1])
    bottom = math.floor(low / step) * step
    top = math.ceil(high / step) * step
    if top == bottom:
        top += step
    return float(bottom), float(top), list(range(bottom, top + 1, step))


def day_label(moment: datetime) -> str:
    """Return the UTC date of a moment as '3 Mar 2026', the same in every locale."""
    day = moment.astimezone(UTC)
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def date_ticks(start: datetime, end: datetime, most: int = 7) -> list[tuple[datetime, str]]:
    """Return calendar ticks between two moments (UTC), each with a short label.

    Days or weeks for a short span (labelled '3 Mar', with the year where it changes),
    months for a longer one ('Mar 2026'), years for a span of many years ('2026').
    """
    start, end = start.astimezone(UTC), end.astimezone(UTC)
    span = (end - start) / timedelta(days=1)
    for days in DAY_STEPS:
        if span / days <= most:
            return _day_ticks(start, end, days)
    for months in MONTH_STEPS:
        if span / (DAYS_PER_MONTH * months) <= most:
            return _month_ticks(start, end, months)
    return _month_ticks(start, end, MONTH_STEPS[-1])


def _day_ticks(start: datetime, end: datetime, days: int) -> list[tuple[datetime, str]]:
    moment = datetime(start.year, start.month, start.day, tzinfo=UTC)
    if moment < start:
        moment += timedelta(days=1)
    if days == 7:
        moment += timedelta(days=-moment.weekday() % 7)  # weeks start on Mondays
    ticks: list[tuple[datetime, str]] = []
    year = None
    while moment <= end:
        label = f"{moment.day} {MONTHS[moment.month - 1]}"
        if moment.year != year:
            label, year = f"{label} {moment.year}", moment.year
        ticks.append((moment, label))
        moment += timedelta(days=days)
    return ticks


def _month_ticks(start: datetime, end: datetime, months: int) -> list[tuple[datetime, str]]:
    index = start.year * 12 + start.month - 1
    if datetime(index // 12, index % 12 + 1, 1, tzinfo=UTC) < start:
        index += 1
    index += -index % months
    ticks: list[tuple[datetime, str]] = []
    while True:
        moment = datetime(index // 12, index % 12 + 1, 1, tzinfo=UTC)
        if moment > end:
            return ticks
        label = str(moment.year) if months >= 12 else f"{MONTHS[moment.month - 1]} {moment.year}"
        ticks.append((moment, label))
        index += months
