"""The rating chart: well-formed SVG, a link per game, readable axes, escaped text."""

from __future__ import annotations

import random
import time
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta, timezone

import pytest

from pbem.ratings.core import axes, chart, fold, queries
from pbem.ratings.core.games import OVERALL, RatedGame, Seat
from pbem.ratings.core.scale import display
from pbem.ratings.core.state import Point

SVG = "{http://www.w3.org/2000/svg}"
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def history(count: int, seed: int = 1, days: float = 2.0) -> list[Point]:
    """A made-up history of `count` games, about `days` apart."""
    rng = random.Random(seed)
    points, mu, sigma, at = [], 25.0, 25 / 3, T0
    for n in range(count):
        before = display(mu, sigma)
        mu, sigma = mu + rng.uniform(-1.5, 1.6), max(1.0, sigma * 0.98)
        at += timedelta(days=rng.uniform(0, 2 * days))
        points.append(Point(f"g{n}", at, mu, sigma, before, display(mu, sigma), 1 + n % 4, 4))
    return points


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


@pytest.mark.parametrize("count", [1, 2, 50, 299, 1200])
def test_the_chart_parses_as_xml_and_has_one_link_per_point(count):
    points = history(count)
    root = parse(chart.chart(points, player="Ann", kind="martian-dice"))
    links = root.findall(f".//{SVG}a")
    assert len(links) == count
    assert [a.get("href") for a in links] == [f"/games/{p.game}" for p in points]
    line = root.find(f".//{SVG}polyline")
    assert line is not None and len(line.get("points", "").split()) == count  # never thinned


def test_the_title_names_the_player_and_the_kind_and_the_chart_is_an_image():
    root = parse(chart.chart(history(5), player="Ann", kind="martian-dice"))
    assert root.get("role") == "img"
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title is not None and title.text == "Rating of Ann in martian-dice"
    assert desc is not None and desc.text and desc.text.startswith("5 rated games from")
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    overall = parse(chart.chart(history(5), player="Ann", kind=OVERALL)).find(f"{SVG}title")
    assert overall is not None and overall.text == "Overall rating of Ann"


def test_each_point_says_which_game_when_and_what_change():
    points = history(3)
    root = parse(chart.chart(points, player="Ann", kind="mars"))
    tips = [a.find(f"{SVG}title") for a in root.findall(f".//{SVG}a")]
    first = points[0]
    sign = "+" if first.delta >= 0 else "\u2212"
    assert tips[0] is not None and tips[0].text == (
        f"Game g0, {first.at.day} Jan 2026: {first.before} \u2192 {first.after} "
        f"({sign}{abs(first.delta)}), 1st of 4"
    )


def test_past_a_few_hundred_points_only_some_markers_show_but_every_game_links():
    root = parse(chart.chart(history(1200), player="Ann", kind="mars"))
    circles = [a.find(f"{SVG}circle") for a in root.findall(f".//{SVG}a")]
    shown = [c for c in circles if c is not None and c.get("fill-opacity") != "0"]
    assert len(circles) == 1200
    assert 200 <= len(shown) <= chart.MARKERS + 1
    assert circles[-1] in shown
    few = parse(chart.chart(history(100), player="Ann", kind="mars"))
    assert all(c.get("fill-opacity") is None for c in few.iter(f"{SVG}circle"))


def test_names_and_game_ids_are_escaped():
    points = [
        Point('a&b<"x">', T0, 26.0, 7.0, 1000, 1029, 1, 2),
        Point("q/1 2", T0 + timedelta(days=1), 27.0, 6.5, 1029, 1037, 1, 2),
    ]
    svg = chart.chart(points, player="O'Neil & <Sons>\x00\x07", kind='k"<>', ident='x"y')
    root = parse(svg)
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "Rating of O'Neil & <Sons> in k\"<>"
    hrefs = [a.get("href") for a in root.findall(f".//{SVG}a")]
    assert hrefs == ["/games/a%26b%3C%22x%22%3E", "/games/q%2F1%202"]
    assert title.get("id") == "x-y-title"


def test_a_player_without_rated_games_gets_a_chart_that_says_so():
    root = parse(chart.chart([], player="Ann", kind="mars"))
    desc = root.find(f"{SVG}desc")
    assert desc is not None and desc.text == "No rated games yet."
    assert root.findall(f".//{SVG}a") == []


def test_the_axes_label_ratings_and_dates_inside_the_chart():
    points = history(40, days=9)
    root = parse(chart.chart(points, player="Ann", kind="mars", width=600, height=250))
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "Rating" in labels
    assert any(label and label.endswith("2026") for label in labels)
    numbers = [int(label) for label in labels if label and label.isdigit()]
    assert len(numbers) >= 3 and numbers == sorted(numbers)


def test_a_chart_from_a_rebuild_links_every_rated_game_of_the_player():
    seats = [(Seat("a", 1 + n % 2), Seat("b", 2 - n % 2)) for n in range(12)]
    games = [RatedGame(f"g{n}", "mars", T0 + timedelta(days=n), s) for n, s in enumerate(seats)]
    points = queries.history(fold.rebuild(games), "a", "mars")
    root = parse(chart.chart(points, player="A", kind="mars"))
    hrefs = [a.get("href") for a in root.findall(f".//{SVG}a")]
    assert hrefs == [f"/games/g{n}" for n in range(12)]


@pytest.mark.parametrize(
    "days, labels",
    [
        (3, ["2 Jan 2026", "3 Jan", "4 Jan"]),
        (30, ["5 Jan 2026", "12 Jan", "19 Jan", "26 Jan"]),
        (200, ["Feb 2026", "Mar 2026", "Apr 2026", "May 2026", "Jun 2026", "Jul 2026"]),
        (800, ["Jul 2026", "Jan 2027", "Jul 2027", "Jan 2028"]),
        (3000, ["2028", "2030", "2032", "2034"]),
    ],
)
def test_date_ticks_fit_the_span(days, labels):
    start = T0 + timedelta(hours=5)
    ticks = axes.date_ticks(start, start + timedelta(days=days))
    assert [label for _, label in ticks] == labels
    assert all(start <= moment <= start + timedelta(days=days) for moment, _ in ticks)


def test_rating_ticks_are_round_and_cover_the_range():
    bottom, top, ticks = axes.rating_ticks(583.4, 1417.2)
    assert (bottom, top, ticks) == (400.0, 1600.0, [400, 600, 800, 1000, 1200, 1400, 1600])
    assert axes.rating_ticks(1000, 1000)[2] == [1000, 1005]


def test_dates_are_shown_in_utc():
    late_in_new_york = datetime(2026, 1, 1, 22, tzinfo=timezone(timedelta(hours=-5)))
    point = Point("g9", late_in_new_york, 26.0, 7.0, 1000, 1029, 1, 2)
    assert chart.tooltip(point).startswith("Game g9, 2 Jan 2026: 1000 \u2192 1029 (+29)")


@pytest.mark.parametrize(
    "low, high, expected",
    [
        # a span of 30 is 6 steps of 5, the most allowed: still steps of 5
        (1000, 1030, (1000.0, 1030.0, [1000, 1005, 1010, 1015, 1020, 1025, 1030])),
        # 35 would be 7 steps of 5: steps of 10, the range widened to 1040
        (1000, 1035, (1000.0, 1040.0, [1000, 1010, 1020, 1030, 1040])),
        # no step fits 60,000 in 6: the largest, 5000, is taken anyway
        (0, 60_000, (0.0, 60_000.0, list(range(0, 60_001, 5000)))),
    ],
)
def test_rating_ticks_take_the_smallest_step_that_fits_six(low, high, expected):
    assert axes.rating_ticks(low, high) == expected


def month(year: int, number: int) -> datetime:
    return datetime(year, number, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    "start, end, labels",
    [
        # 7 days are 7 ticks of one day, the most allowed; both ends are midnights and count
        (T0, T0 + timedelta(days=7), ["1 Jan 2026", "2 Jan", "3 Jan", "4 Jan", "5 Jan",
                                      "6 Jan", "7 Jan", "8 Jan"]),
        # 8 days would be 8 ticks of one day: every other day
        (T0, T0 + timedelta(days=8), ["1 Jan 2026", "3 Jan", "5 Jan", "7 Jan", "9 Jan"]),
        # 181 days: monthly, from the first of January (the start) to the first of July (the end)
        (T0, month(2026, 7), ["Jan 2026", "Feb 2026", "Mar 2026", "Apr 2026", "May 2026",
                              "Jun 2026", "Jul 2026"]),
        # 213.08 days are 7.0 months of 30.44 days: still monthly
        (T0, T0 + timedelta(days=213.08), ["Jan 2026", "Feb 2026", "Mar 2026", "Apr 2026",
                                           "May 2026", "Jun 2026", "Jul 2026", "Aug 2026"]),
        # six years: yearly ticks, labelled by the year alone
        (month(2020, 1), month(2026, 1), ["2020", "2021", "2022", "2023", "2024", "2025", "2026"]),
        # 400 years: beyond every step, one tick in 20 years
        (month(1900, 1), month(2300, 1), [str(y) for y in range(1900, 2301, 20)]),
    ],
)
def test_date_ticks_include_both_ends_and_fall_on_firsts_of_months(start, end, labels):
    ticks = axes.date_ticks(start, end)
    assert [label for _, label in ticks] == labels
    assert ticks[0][0] == start
    assert ticks[-1][0] <= end
    monthly = " " not in labels[0] or labels[0][0].isalpha()  # "2020" or "Jan 2026"
    if monthly:
        assert all(moment.day == 1 and moment.hour == 0 for moment, _ in ticks)


@pytest.fixture
def ten_hours_behind_utc(monkeypatch):
    """The server's local time zone is UTC-10 (POSIX writes the offset west of UTC)."""
    monkeypatch.setenv("TZ", "HST+10")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_days_are_utc_days_whatever_the_servers_time_zone(ten_hours_behind_utc):
    # 2 Jan 05:00 UTC is 1 Jan 19:00 at UTC-10: the first tick is the next UTC midnight.
    start = T0 + timedelta(days=1, hours=5)
    assert axes.day_label(start) == "2 Jan 2026"
    ticks = axes.date_ticks(start, start + timedelta(days=3))
    assert [label for _, label in ticks] == ["3 Jan 2026", "4 Jan", "5 Jan"]


# Two games a day apart. display = round(25 * (mu - 3 sigma) + 1000): 1475 and 1500; the band
# is that +-2 * 25 * sigma = +-100: 1375 to 1575, then 1400 to 1600. The axis takes steps of
# 50 (225 / 25 = 9 steps is too many, 225 / 50 = 4.5 is not): 1350 to 1600.
# The default 720 x 300 chart has an inner area of 720 - 56 - 16 = 648 by 300 - 12 - 34 = 254;
# x runs from 56 + 8 = 64 to 64 + (648 - 16) = 696, y(r) = 12 + 254 * (1600 - r) / 250.
TWO_GAMES = [
    Point("g1", T0, 25.0, 2.0, 1450, 1475, 1, 2),
    Point("g2", T0 + timedelta(days=1), 26.0, 2.0, 1475, 1500, 1, 2),
]


def test_a_two_game_chart_puts_everything_where_the_arithmetic_says():
    root = parse(chart.chart(TWO_GAMES, player="Ann", kind="mars"))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("720", "300",
                                                                          "0 0 720 300")
    assert root.get("aria-labelledby") == "rating-chart-title rating-chart-desc"
    assert root.text is None and all(child.tail is None for child in root)  # nothing stray
    # band: highs left to right (y(1575) = 37.4, y(1600) = 12), then lows right to left
    # (y(1400) = 215.2, y(1375) = 240.6)
    band = root.find(f"{SVG}polygon")
    assert band is not None and band.get("points") == "64.0,37.4 696.0,12.0 696.0,215.2 64.0,240.6"
    line = root.find(f"{SVG}polyline")
    assert line is not None and line.get("points") == "64.0,139.0 696.0,113.6"
    circles = [(c.get("cx"), c.get("cy"), c.get("r"), c.get("fill"), c.get("fill-opacity"))
               for c in root.iter(f"{SVG}circle")]
    assert circles == [("64.0", "139.0", "3.0", "#1f4e9c", None),
                       ("696.0", "113.6", "3.0", "#1f4e9c", None)]
    group = root.find(f"{SVG}g")
    assert group is not None and group.text is None
    lines = [(e.get("x1"), e.get("x2"), e.get("y1"), e.get("y2")) for e in group.iter(f"{SVG}line")]
    heights = [f"{12 + 254 * (1600 - r) / 250:.1f}" for r in range(1350, 1601, 50)]
    grid = [("56", "704", py, py) for py in heights]
    # the date ticks hang 4 below the base line at 300 - 34 = 266; then the two axis lines
    assert lines == grid + [("64.0", "64.0", "266", "270"), ("696.0", "696.0", "266", "270"),
                            ("56", "56", "12", "266"), ("56", "704", "266", "266")]
    texts = [(t.get("x"), t.get("y"), t.get("transform"), t.text) for t in group.iter(f"{SVG}text")]
    assert texts[0] == (None, None, "translate(12 139.0) rotate(-90)", "Rating")  # 12 + 254 / 2
    assert texts[1] == ("50", "270.0", None, "1350")  # 6 left of the axis, 4 below the line
    assert texts[-1] == ("696.0", "282", None, "2 Jan")  # 16 below the base line


def test_a_lone_game_is_centred_in_a_day_with_a_band_eight_wide():
    # the day runs from 12 hours before to 12 after: x = 64 + 632 / 2 = 380
    root = parse(chart.chart(TWO_GAMES[:1], player="Ann", kind="mars"))
    band = root.find(f"{SVG}polygon")
    assert band is not None
    assert band.get("points") == "376.0,37.4 384.0,37.4 384.0,240.6 376.0,240.6"
    circle = root.find(f".//{SVG}circle")
    assert circle is not None and (circle.get("cx"), circle.get("cy")) == ("380.0", "139.0")
    desc = root.find(f"{SVG}desc")
    assert desc is not None and desc.text and desc.text.startswith("1 rated game from 1 Jan 2026")


def test_markers_are_smaller_past_sixty_games():
    for count, radius in [(60, "3.0"), (61, "2.2")]:
        root = parse(chart.chart(history(count), player="Ann", kind="mars"))
        assert {c.get("r") for c in root.iter(f"{SVG}circle")} == {radius}


def test_an_empty_chart_says_so_in_its_middle_and_a_blank_id_falls_back():
    root = parse(chart.chart([], player="Ann", kind="mars", width=400, height=200, ident="   "))
    note = root.find(f"{SVG}text")
    assert note is not None and (note.get("x"), note.get("y")) == ("200", "100")
    assert root.get("aria-labelledby") == "----title ----desc"  # each space a hyphen
    blank = parse(chart.chart([], player="Ann", kind="mars", ident=""))
    assert blank.get("aria-labelledby") == "rating-chart-title rating-chart-desc"


def test_text_escapes_both_quotes():
    assert chart.text("say \"hi\" & 'bye' <now>") == (
        "say &quot;hi&quot; &amp; &#x27;bye&#x27; &lt;now&gt;"
    )


@pytest.mark.parametrize(
    "rank, word",
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (10, "10th"), (11, "11th"), (12, "12th"),
     (13, "13th"), (14, "14th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"),
     (111, "111th"), (112, "112th"), (113, "113th"), (212, "212th")],
)
def test_places_are_written_as_people_write_them(rank, word):
    assert chart.ordinal_place(rank) == word


def test_a_game_that_left_the_rating_unchanged_shows_plus_nothing():
    point = Point("g3", T0, 26.0, 7.0, 1000, 1000, 2, 2)
    assert chart.tooltip(point) == "Game g3, 1 Jan 2026: 1000 \u2192 1000 (+0), 2nd of 2"
