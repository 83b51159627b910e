"""The finished-game record: who it rates, in what order, and which records are refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pbem.ratings.core.games import InvalidGame, RatedGame, Seat, Status

AT = datetime(2026, 3, 1, 12, tzinfo=UTC)


def game(*seats: Seat, status: Status = Status.RATED, game_id: str = "g7") -> RatedGame:
    return RatedGame(game_id, "martian-dice", AT, seats, status)


def test_places_are_the_ranks_when_nobody_timed_out_and_no_bot_sits():
    assert game(Seat("a", 2), Seat("b", 1), Seat("c", 2), Seat("d", 4)).places == (2, 1, 2, 4)


def test_a_seat_that_timed_out_ranks_below_every_seat_that_did_not():
    record = game(Seat("a", 1, timed_out=True), Seat("b", 3), Seat("c", 2), Seat("d", 4))
    assert record.places == (4, 2, 1, 3)


def test_several_seats_that_timed_out_share_the_last_place():
    record = game(
        Seat("a", 1, timed_out=True), Seat("b", 3), Seat("c", 2, timed_out=True), Seat("d", 4)
    )
    assert record.places == (3, 1, 3, 2)


def test_bot_seats_drop_out_and_the_others_keep_their_order():
    record = game(Seat(None, 1), Seat("b", 3), Seat(None, 2), Seat("d", 3), Seat("e", 5))
    assert record.places == (None, 1, None, 1, 3)
    assert record.outcome is Status.RATED


def test_a_game_with_fewer_than_two_rated_players_counts_as_unrated():
    record = game(Seat(None, 1), Seat("b", 2), Seat(None, 3))
    assert record.outcome is Status.TOO_FEW
    assert record.outcome.value == "fewer than two rated players"


@pytest.mark.parametrize(
    "status", [Status.ABORTED, Status.NEVER_MOVED, Status.ANNULLED], ids=lambda s: s.name
)
def test_the_servers_unrated_statuses_count_as_given(status):
    assert game(Seat("a", 1), Seat("b", 2), status=status).outcome is status


def test_an_aborted_game_may_give_no_ranks():
    record = game(Seat("a", None), Seat("b", None), status=Status.ABORTED)
    assert record.places == (None, None)


def test_the_fold_order_is_finish_time_then_game_id():
    assert game(Seat("a", 1), Seat("b", 2)).key == (AT, "g7")


def test_seats_given_as_a_list_are_kept_as_a_tuple():
    record = RatedGame("g7", "martian-dice", AT, [Seat("a", 1), Seat("b", 2)])
    assert record.seats == (Seat("a", 1), Seat("b", 2))


@pytest.mark.parametrize(
    "seats, status, message",
    [
        ((Seat("a", 1), Seat("b", 3)), Status.RATED, "ranks [1, 3] must run from 1"),
        ((Seat("a", 2), Seat("b", 2)), Status.RATED, "ranks [2, 2] must run from 1"),
        ((Seat("a", 0), Seat("b", 1)), Status.RATED, "ranks [0, 1] must run from 1"),
        ((Seat("a", 1), Seat("b", None)), Status.RATED, "numbers, or all None in an unrated game"),
        ((Seat("a", 1), Seat("b", None)), Status.ANNULLED, "must all be whole numbers"),
        ((Seat("a", 1), Seat("b", 1.5)), Status.RATED, "ranks [1, 1.5] must all be whole numbers"),
        ((Seat("a", None), Seat("b", None)), Status.RATED, "ranks [None, None] must all be whole"),
        ((Seat("a", 1), Seat("a", 2)), Status.RATED, "player(s) a hold more than one seat"),
        (
            (Seat("b", 1), Seat("c", 2), Seat("a", 3), Seat("b", 4), Seat("a", 5)),
            Status.RATED,
            "player(s) a, b hold more than one seat",
        ),
        ((Seat("", 1), Seat("b", 2)), Status.RATED, "a player id must be a non-empty string"),
        ((), Status.RATED, "expected one Seat per seat"),
        ((("a", 1), ("b", 2)), Status.RATED, "expected one Seat per seat"),
        ((Seat("a", 1), Seat("b", 2)), Status.TOO_FEW, "TOO_FEW cannot be given, only derived"),
        ((Seat("a", 1), Seat("b", 2)), "rated", "status 'rated' is not a Status"),
    ],
)
def test_an_inconsistent_record_is_refused_with_an_error_naming_the_game(seats, status, message):
    with pytest.raises(InvalidGame) as error:
        RatedGame("x-42", "martian-dice", AT, seats, status)
    assert str(error.value).startswith("game 'x-42': ")
    assert message in str(error.value)
    if None not in [getattr(s, "rank", 0) for s in seats]:
        assert "all None" not in str(error.value)  # the hint is for a missing rank only


def test_a_naive_finish_time_is_refused():
    with pytest.raises(InvalidGame, match="game 'x-1': finished_at must be a timezone-aware"):
        RatedGame("x-1", "martian-dice", datetime(2026, 1, 1), (Seat("a", 1), Seat("b", 2)))


@pytest.mark.parametrize("kind", ["", "overall"])
def test_a_kind_that_is_not_a_game_kind_is_refused(kind):
    with pytest.raises(InvalidGame, match="game 'x-1': kind"):
        RatedGame("x-1", kind, AT, (Seat("a", 1), Seat("b", 2)))


def test_an_empty_game_id_is_refused():
    with pytest.raises(InvalidGame, match="game id must be a non-empty string"):
        RatedGame("", "martian-dice", AT, (Seat("a", 1), Seat("b", 2)))


def test_an_unrated_game_without_ranks_rates_nobody():
    record = RatedGame("x-43", "martian-dice", AT, (Seat("a", None), Seat("b", None)),
                       Status.ABORTED)
    assert record.places == (None, None)
    assert record.rated == ()
    assert record.outcome is Status.ABORTED


def test_a_rank_that_is_no_whole_number_is_named_without_the_hint_for_missing_ones():
    with pytest.raises(InvalidGame) as error:
        RatedGame("x-44", "martian-dice", AT, (Seat("a", 1), Seat("b", 1.5)))
    assert str(error.value) == "game 'x-44': ranks [1, 1.5] must all be whole numbers"
