"""The format of a `create` event: read, defaulted, and checked against the game's seats."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.tournaments.core.config import (
    TABLE_TIEBREAKS,
    TWO_PLAYER_TIEBREAKS,
    check_fits,
    parse_config,
)
from pbem.tournaments.core.errors import BadFormat, InvalidEvent, TournamentError


def create(**fields: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "name": "Open", "system": "swiss", "kind": "martian-dice", "table_sizes": [2],
        "rounds": 5, "director": "dee",
    }
    payload.update(fields)
    return {k: v for k, v in payload.items() if v is not None}


def test_a_two_player_event_gets_the_chess_tiebreaks_by_default():
    config = parse_config(create())
    assert config.two_player
    assert config.tiebreaks == TWO_PLAYER_TIEBREAKS
    assert config.scoring == "places"
    assert config.deadline_hours == 72


def test_an_event_of_tables_gets_the_table_tiebreaks_by_default():
    config = parse_config(create(table_sizes=[5, 4]))
    assert config.table_sizes == (4, 5)
    assert config.tiebreaks == TABLE_TIEBREAKS


def test_a_director_may_choose_the_tiebreak_order():
    config = parse_config(create(tiebreaks=["wins", "buchholz"]))
    assert config.tiebreaks == ("wins", "buchholz")


@pytest.mark.parametrize(("fields", "error", "words"), [
    ({"system": "league"}, BadFormat, "system 'league'"),
    ({"table_sizes": []}, BadFormat, "table_sizes"),
    ({"table_sizes": [1]}, BadFormat, "table_sizes"),
    ({"table_sizes": [4, 4]}, BadFormat, "twice"),
    ({"rounds": None}, BadFormat, "needs 'rounds'"),
    ({"tiebreaks": ["coin-toss"]}, BadFormat, "unknown tie-breaks ['coin-toss']"),
    ({"scoring": {"by": "luck"}}, BadFormat, "scoring"),
    ({"colour": "red"}, InvalidEvent, "unknown fields ['colour']"),
    ({"name": ""}, InvalidEvent, "'name'"),
    ({"games_per_player": 4}, BadFormat, "'games_per_player' applies to rolling-swiss"),
    ({"system": "round-robin", "rounds": 3}, BadFormat, "1 (single) or 2 (double)"),
    ({"system": "rolling-swiss", "rounds": None, "max_concurrent": 2}, BadFormat,
     "needs games_per_player"),
    ({"system": "rolling-swiss", "rounds": None, "games_per_player": 4, "max_concurrent": 1,
      "table_sizes": [4], "pair_min_free": 3}, BadFormat, "less than one table"),
    ({"system": "knockout", "rounds": None, "table_sizes": [4]}, BadFormat, "needs 'advance'"),
    ({"system": "knockout", "rounds": None, "table_sizes": [3, 4], "advance": 3}, BadFormat,
     "less than the smallest table (3)"),
    ({"system": "knockout", "rounds": 2}, BadFormat, "'rounds' does not apply"),
    ({"deadline_hours": 0}, BadFormat, "deadline_hours"),
    ({"registration_closes": "next tuesday"}, InvalidEvent, "ISO 8601"),
])
def test_a_bad_format_is_refused_with_the_reason(fields, error, words):
    with pytest.raises(error) as caught:
        parse_config(create(**fields))
    assert words in str(caught.value)
    assert isinstance(caught.value, TournamentError) and isinstance(caught.value, ValueError)


def test_a_format_that_does_not_fit_the_game_names_the_seat_counts():
    config = parse_config(create(kind="martianopolis-500", table_sizes=[4, 5]))
    with pytest.raises(BadFormat, match=r"martianopolis-500 is played by 2, 3, 4 players; "
                                        r"table sizes \[5\] do not fit"):
        check_fits(config, (2, 3, 4))


def test_a_format_that_fits_the_game_passes():
    check_fits(parse_config(create(table_sizes=[3, 4, 5])), (2, 3, 4, 5, 6, 7, 8))
