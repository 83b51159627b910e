"""Round-robin schedules: Berger tables, resolvable designs and the search for other fields."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from pbem.tournaments.core.designs import KIRKMAN_15, affine_geometry, is_resolvable, resolvable
from pbem.tournaments.core.formats.roundrobin import Round, berger, schedule


def players(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(1, n + 1)]


def meetings(rounds: tuple[Round, ...]) -> Counter[frozenset[str]]:
    return Counter(frozenset(pair) for rd in rounds for table in rd.tables
                   for pair in itertools.combinations(table, 2))


def seat_counts(rounds: tuple[Round, ...]) -> dict[str, Counter[int]]:
    counts: dict[str, Counter[int]] = {}
    for rd in rounds:
        for table in rd.tables:
            for seat, player in enumerate(table):
                counts.setdefault(player, Counter())[seat] += 1
    return counts


def check_rounds(rounds: tuple[Round, ...], field: list[str]) -> None:
    """Every round seats every player exactly once or sits them out."""
    for rd in rounds:
        seated = [p for table in rd.tables for p in table] + list(rd.out)
        assert sorted(seated) == sorted(field)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 11, 12])
def test_a_two_player_round_robin_meets_every_pair_once_with_first_seats_balanced(n):
    field = players(n)
    rounds = berger(field)
    check_rounds(rounds, field)
    assert len(rounds) == (n if n % 2 else n - 1)
    assert set(meetings(rounds).values()) == {1}
    assert len(meetings(rounds)) == n * (n - 1) // 2
    for counts in seat_counts(rounds).values():
        assert abs(counts[0] - counts[1]) <= 1


@pytest.mark.parametrize("n", [5, 7])
def test_an_odd_field_gives_everyone_one_free_round(n):
    rounds = berger(players(n))
    assert sorted(p for rd in rounds for p in rd.out) == players(n)
    assert all(len(rd.out) == 1 for rd in rounds)


@pytest.mark.parametrize("n", [4, 6, 7])
def test_a_double_round_robin_meets_every_pair_twice_with_seats_swapped(n):
    rounds = berger(players(n), double=True)
    half = len(rounds) // 2
    assert set(meetings(rounds).values()) == {2}
    for first, second in zip(rounds[:half], rounds[half:], strict=True):
        assert second.tables == tuple((b, a) for a, b in first.tables)
    for counts in seat_counts(rounds).values():
        assert counts[0] == counts[1]


@pytest.mark.parametrize(("n", "size", "rounds"), [
    (9, 3, 4), (16, 4, 5), (15, 3, 7), (25, 5, 6), (27, 3, 13), (64, 4, 21),
])
def test_resolvable_designs_meet_every_pair_exactly_once(n, size, rounds):
    design = resolvable(n, size)
    assert design is not None and len(design) == rounds
    assert is_resolvable(design, n)


def test_the_kirkman_table_and_the_geometries_check_themselves():
    assert is_resolvable(KIRKMAN_15, 15)
    assert is_resolvable(affine_geometry(2, 4), 16)
    broken = ((KIRKMAN_15[0][1],) + KIRKMAN_15[0][1:],) + KIRKMAN_15[1:]
    assert not is_resolvable(broken, 15)


@pytest.mark.parametrize(("n", "size"), [(9, 3), (16, 4), (15, 3), (25, 5)])
def test_a_design_schedule_meets_every_pair_once_and_balances_seats(n, size):
    field = players(n)
    rounds = schedule(field, (size,), None)
    check_rounds(rounds, field)
    met = meetings(rounds)
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    for counts in seat_counts(rounds).values():
        per_seat = [counts[s] for s in range(size)]
        assert max(per_seat) - min(per_seat) <= 1


@pytest.mark.parametrize("n", [3, 4, 5])
def test_a_field_of_one_table_sits_in_every_seat_once(n):
    rounds = schedule(players(n), (n,), None)
    assert len(rounds) == n
    assert all(set(c.values()) == {1} and len(c) == n for c in seat_counts(rounds).values())


@pytest.mark.parametrize(("n", "allowed"), [(12, (4,)), (10, (3, 4)), (13, (4, 5)), (7, (4,)),
                                            (20, (4,))])
def test_other_fields_are_seated_by_the_search_as_evenly_as_it_can(n, allowed):
    field = players(n)
    rounds = schedule(field, allowed, None)
    check_rounds(rounds, field)
    met = meetings(rounds)
    # Enough rounds for every pair to meet once on average, and nobody meets anyone 3 times.
    slots = sum(len(t) * (len(t) - 1) // 2 for rd in rounds for t in rd.tables)
    assert slots >= n * (n - 1) // 2
    assert max(met.values()) <= 2
    sat_out = Counter(p for rd in rounds for p in rd.out)
    assert not sat_out or max(sat_out.values()) - min(sat_out.get(p, 0) for p in field) <= 1


def test_a_director_may_set_the_number_of_rounds_of_tables():
    rounds = schedule(players(9), (3,), 8)
    assert len(rounds) == 8
    assert max(meetings(rounds).values()) <= 3


def written(rounds: tuple[Round, ...]) -> list[str]:
    """A schedule as text: each round's tables in seat order, then who sits out."""
    return [" | ".join(" ".join(p[1:] for p in t) for t in rd.tables)
            + (" / " + " ".join(p[1:] for p in rd.out) if rd.out else "") for rd in rounds]


# Recorded schedules of tables, by version: `verify` derives every round robin's pair events
# again from the log with the version the event recorded, so neither version may ever change
# what it schedules. A design (9 in threes), the seating search with a table of each size (7 at
# three and four), players sitting out (8 at threes), a director's number of rounds (6), a field
# of one table (4 at four); and two players by the circle method, single (4, the last player's
# first seat alternating; 5, a free round each) and double (3, seats swapped), whatever the
# version.
RECORDED = {
    (5, (2,), None, 2): [
        "02 05 | 03 04 / 01", "03 01 | 04 05 / 02", "04 02 | 05 01 / 03", "05 03 | 01 02 / 04",
        "01 04 | 02 03 / 05",
    ],
    (4, (2,), None, 2): ["01 04 | 02 03", "04 02 | 03 01", "03 04 | 01 02"],
    (3, (2,), 2, 2): [
        "02 03 / 01", "03 01 / 02", "01 02 / 03", "03 02 / 01", "01 03 / 02", "02 01 / 03",
    ],
    (4, (4,), None, 2): ["01 02 03 04", "02 03 04 01", "03 04 01 02", "04 01 02 03"],
    (7, (3, 4), None, 1): [
        "04 01 02 03 | 05 06 07",
        "06 02 01 05 | 03 07 04",
        "01 03 05 07 | 02 04 06",
    ],
    (7, (3, 4), None, 2): [
        "01 03 02 04 | 06 05 07",
        "02 06 01 05 | 03 07 04",
        "05 01 03 07 | 04 02 06",
    ],
    (9, (3,), None, 1): [
        "01 02 03 | 04 05 06 | 07 08 09",
        "07 01 04 | 08 02 05 | 09 03 06",
        "05 09 01 | 06 07 02 | 03 04 08",
        "01 06 08 | 02 04 09 | 03 05 07",
    ],
    (9, (3,), None, 2): [
        "01 02 03 | 06 05 04 | 07 08 09",
        "04 07 01 | 05 08 02 | 03 09 06",
        "09 01 05 | 06 02 07 | 08 03 04",
        "01 06 08 | 02 04 09 | 05 03 07",
    ],
    (8, (3,), None, 1): [
        "03 01 02 | 06 05 04 / 07 08",
        "01 04 07 | 02 08 03 / 05 06",
        "07 02 05 | 08 06 01 / 03 04",
        "04 05 08 | 03 07 06 / 01 02",
        "05 03 01 | 02 04 06 / 07 08",
    ],
    (8, (3,), None, 2): [
        "01 03 02 | 04 05 06 / 07 08",
        "01 04 07 | 02 08 03 / 05 06",
        "07 02 05 | 08 06 01 / 03 04",
        "04 05 08 | 03 07 06 / 01 02",
        "05 01 03 | 06 02 04 / 07 08",
    ],
    (6, (3,), 2, 1): [
        "02 01 03 | 04 06 05",
        "01 02 04 | 03 05 06",
    ],
    (6, (3,), 2, 2): [
        "01 02 03 | 04 06 05",
        "02 01 04 | 03 05 06",
    ],
}


@pytest.mark.parametrize(("n", "allowed", "rounds", "version"), list(RECORDED))
def test_each_version_schedules_tables_exactly_as_it_always_did(n, allowed, rounds, version):
    assert written(schedule(players(n), allowed, rounds, version)) == RECORDED[
        n, allowed, rounds, version]
