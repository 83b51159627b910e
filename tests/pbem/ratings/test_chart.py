"""The rating chart: well-formed SVG, a link per game, readable axes, escaped text."""

from __future__ import annotations

import random
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
