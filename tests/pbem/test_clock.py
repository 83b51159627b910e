"""Deadline and vacation arithmetic without a database: docs/architecture.md §8 in numbers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from pbem import clock
from pbem.models import Game, Player

OPENED = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


def game(hours: int = 48, extra: int | None = 0, since: datetime | None = OPENED) -> Game:
    return Game(deadline_hours=hours, extra_hours=extra, await_since=since)


def player(first: datetime | None = None, until: datetime | None = None) -> Player:
    return Player(email="p@example.org", away_from=first, away_until=until)


def test_now_is_timezone_aware_utc():
    now = clock.utcnow()
    assert now.tzinfo is UTC
    assert abs(now - datetime.now(UTC)) < timedelta(minutes=1)


def test_a_naive_time_from_sqlite_is_read_as_utc_and_an_aware_one_is_kept():
    assert clock.as_utc(datetime(2026, 1, 2, 3, 4)) == datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
    assert clock.as_utc(datetime(2026, 1, 2, 3, 4)).tzinfo is UTC
    paris = datetime(2026, 1, 2, 3, 4, tzinfo=timezone(timedelta(hours=1)))
    assert clock.as_utc(paris) is paris


@pytest.mark.parametrize(
    "first, until, away",
    [
        (None, None, timedelta(0)),
        (OPENED, None, timedelta(0)),
        (None, OPENED + DAY, timedelta(0)),
        (OPENED + HOUR, OPENED + 3 * HOUR, 2 * HOUR),  # ahead: all of it
        (OPENED - DAY, OPENED + 5 * HOUR, 5 * HOUR),  # under way: from the decision on
        (OPENED - 3 * DAY, OPENED - DAY, timedelta(0)),  # over before the decision opened
        (OPENED, OPENED + DAY, DAY),
    ],
)
def test_time_away_counts_only_the_part_after_the_decision_opened(first, until, away):
    assert clock.time_away(player(first, until), OPENED) == away


def test_time_away_reads_naive_dates_as_utc():
    naive = player(datetime(2026, 11, 23, 10, 0), datetime(2026, 11, 24, 12, 0))
    assert clock.time_away(naive, OPENED) == DAY


def test_a_deadline_is_the_opening_plus_the_hours_plus_any_extension():
    assert clock.deadline_of(game(48)) == OPENED + 48 * HOUR
    assert clock.deadline_of(game(48, extra=6)) == OPENED + 54 * HOUR
    assert clock.deadline_of(game(10, extra=None)) == OPENED + 10 * HOUR
    naive = game(10, since=OPENED.replace(tzinfo=None))
    assert clock.deadline_of(naive) == OPENED + 10 * HOUR


def test_no_open_decision_has_no_deadline():
    assert clock.deadline_of(game(since=None), [player(OPENED, OPENED + DAY)]) is None


def test_the_longest_time_away_of_the_awaited_players_pauses_the_deadline():
    short = player(OPENED + HOUR, OPENED + 3 * HOUR)
    long = player(OPENED - DAY, OPENED + 10 * HOUR)
    home = player()
    assert clock.deadline_of(game(48), [short, home]) == OPENED + 50 * HOUR
    assert clock.deadline_of(game(48), [short, long, home]) == OPENED + 58 * HOUR
    assert clock.deadline_of(game(48), [home]) == OPENED + 48 * HOUR


def test_away_means_from_the_first_moment_up_to_but_not_including_the_end():
    away = player(OPENED, OPENED + DAY)
    assert clock.is_away(away, OPENED)
    assert clock.is_away(away, OPENED + DAY - timedelta(microseconds=1))
    assert not clock.is_away(away, OPENED + DAY)
    assert not clock.is_away(away, OPENED - timedelta(microseconds=1))
    assert not clock.is_away(player(None, OPENED + DAY), OPENED)
    assert not clock.is_away(player(OPENED, None), OPENED)
    naive = player(OPENED.replace(tzinfo=None), (OPENED + DAY).replace(tzinfo=None))
    assert clock.is_away(naive, OPENED + HOUR)


def test_the_away_note_names_the_last_day_away_while_away_and_nothing_otherwise():
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    until = today + 3 * DAY  # away today and the next two days
    assert clock.away_note(player(today, until)) == f"away until {today + 2 * DAY:%d %b}"
    assert clock.away_note(player(today + DAY, until)) == ""
    assert clock.away_note(player(today - 3 * DAY, today)) == ""
    assert clock.away_note(player()) == ""
