"""A player's rating history in one pool as an accessible SVG chart, built as a string.

The line is the shown rating after each game (1000 + 25 (mu - 3 sigma), see `scale`). The
band around it is that rating give or take two standard deviations of skill: 2 sigma on
openskill's scale, 50 sigma points on the shown one, so it is wide while a rating is new
and narrows as it settles. Every game is a point linking to /games/<id>, with a tooltip
naming the game, its date and the change it made. The line goes through every point; past
MARKERS points only every k-th point (and the last) shows a dot, the others keep an
invisible one so that every game can still be pointed at and followed.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from urllib.parse import quote

from .axes import date_ticks, day_label, rating_ticks
from .games import OVERALL
from .scale import SCALE, display
from .state import Point

MARKERS = 300
BAND_SIGMAS = 2.0
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 12, 34
PAD = 8  # keeps the first and last points off the axis lines
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
NOT_ID = re.compile(r"[^A-Za-z0-9_-]")


def text(value: str) -> str:
    """Return text safe inside an XML element or a quoted attribute."""
    return html.escape(NOT_XML.sub("", value), quote=True)


def ordinal_place(rank: int) -> str:
    """Return 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st."""
    if rank % 100 in (11, 12, 13):
        return f"{rank}th"
    return f"{rank}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(rank % 10, 'th') }"


def tooltip(point: Point) -> str:
    """Return what hovering over a point says: the game, its date and the change it made."""
    sign = "+" if point.delta >= 0 else "\u2212"
    return (
        f"Game {point.game}, {day_label(point.at)}: "
        f"{point.before} \u2192 {point.after} ({sign}{abs(point.delta)}), "
        f"{ordinal_place(point.rank)} of {point.places}"
    )


def title_of(player: str, kind: str) -> str:
    """Return the chart's title, naming the player and the kind."""
    return f"Overall rating of {player}" if kind == OVERALL else f"Rating of {player} in {kind}"


def describe(points: Sequence[Point]) -> str:
    """Return the chart's long description for screen readers."""
    first, last = points[0], points[-1]
    high = max(points, key=lambda p: p.after)
    low = min(points, key=lambda p: p.after)
    games = "1 rated game" if len(points) == 1 else f"{len(points):,} rated games"
    return (
        f"{games} from {day_label(first.at)} to {day_label(last.at)}. "
        f"Rating now {last.after}, highest {high.after} ({day_label(high.at)}), "
        f"lowest {low.after} ({day_label(low.at)}). The line is the shown rating after each "
        f"game; the band is that rating give or take two standard deviations of skill. "
        f"Each point links to its game."
    )


def band(point: Point) -> tuple[float, float]:
    """Return the band's low and high edge at a point, in shown-rating points."""
    middle = float(display(point.mu, point.sigma))
    width = BAND_SIGMAS * SCALE * point.sigma
    return middle - width, middle + width


def chart(
    points: Sequence[Point],
    *,
    player: str,
    kind: str,
    width: int = 720,
    height: int = 300,
    ident: str = "rating-chart",
) -> str:
    """Return the SVG text of a player's rating history (oldest point first) in a pool."""
    ident = NOT_ID.sub("-", ident) or "rating-chart"
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" aria-labelledby="{ident}-title {ident}-desc"'
        f' font-family="sans-serif" font-size="11">'
        f'<title id="{ident}-title">{text(title_of(player, kind))}</title>'
    )
    if not points:
        return (
            f'{head}<desc id="{ident}-desc">No rated games yet.</desc>'
            f'<text x="{width / 2:.0f}" y="{height / 2:.0f}" text-anchor="middle"'
            f' fill="#555">No rated games yet</text></svg>'
        )
    parts = [head, f'<desc id="{ident}-desc">{text(describe(points))}</desc>']
    edges = [band(p) for p in points]
    bottom, top, ticks = rating_ticks(min(e[0] for e in edges), max(e[1] for e in edges))
    start, end = points[0].at, points[-1].at
    if end - start < timedelta(days=1):
        start, end = start - timedelta(hours=12), end + timedelta(hours=12)
    seconds = (end - start).total_seconds()
    inner_w, inner_h = width - LEFT - RIGHT, height - TOP - BOTTOM

    def x(moment: datetime) -> float:
        return LEFT + PAD + (inner_w - 2 * PAD) * (moment - start).total_seconds() / seconds

    def y(rating: float) -> float:
        return TOP + inner_h * (top - rating) / (top - bottom)

    parts.extend(axes(ticks, date_ticks(start, end), x, y, width, height))
    xs = [x(p.at) for p in points]
    # A lone point gets a band a few pixels wide, or it would have no area to show.
    outline = list(zip(xs, edges, strict=True)) if len(points) > 1 else [
        (xs[0] - 4, edges[0]), (xs[0] + 4, edges[0])
    ]
    highs = " ".join(f"{px:.1f},{y(e[1]):.1f}" for px, e in outline)
    lows = " ".join(f"{px:.1f},{y(e[0]):.1f}" for px, e in reversed(outline))
    parts.append(f'<polygon class="band" points="{highs} {lows}" fill="#4a7bd0" opacity="0.18"/>')
    line = " ".join(f"{px:.1f},{y(p.after):.1f}" for px, p in zip(xs, points, strict=True))
    parts.append(
        f'<polyline class="rating" points="{line}" fill="none" stroke="#1f4e9c"'
        f' stroke-width="1.5" stroke-linejoin="round"/>'
    )
    every = math.ceil(len(points) / MARKERS)
    radius = 3.0 if len(points) <= 60 else 2.2
    for index, (px, point) in enumerate(zip(xs, points, strict=True)):
        shown = index % every == 0 or index == len(points) - 1
        paint = 'fill="#1f4e9c"' if shown else 'fill="#1f4e9c" fill-opacity="0"'
        parts.append(
            f'<a href="/games/{text(quote(point.game, safe=""))}">'
            f"<title>{text(tooltip(point))}</title>"
            f'<circle cx="{px:.1f}" cy="{y(point.after):.1f}" r="{radius}" {paint}/></a>'
        )
    parts.append("</svg>")
    return "".join(parts)


def axes(
    ticks: Sequence[int],
    dates: Sequence[tuple[datetime, str]],
    x: Callable[[datetime], float],
    y: Callable[[float], float],
    width: int,
    height: int,
) -> list[str]:
    """Return the grid, the axis lines and their labels."""
    middle = TOP + (height - TOP - BOTTOM) / 2
    parts = [
        '<g class="axes" fill="#444">'
        f'<text transform="translate(12 {middle:.1f}) rotate(-90)" text-anchor="middle">'
        "Rating</text>"
    ]
    for rating in ticks:
        py = y(rating)
        parts.append(
            f'<line x1="{LEFT}" x2="{width - RIGHT}" y1="{py:.1f}" y2="{py:.1f}"'
            f' stroke="#ddd"/><text x="{LEFT - 6}" y="{py + 4:.1f}" text-anchor="end">'
            f"{rating}</text>"
        )
    base = height - BOTTOM
    for moment, label in dates:
        px = x(moment)
        parts.append(
            f'<line x1="{px:.1f}" x2="{px:.1f}" y1="{base}" y2="{base + 4}" stroke="#888"/>'
            f'<text x="{px:.1f}" y="{base + 16}" text-anchor="middle">{text(label)}</text>'
        )
    parts.append(
        f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{base}" stroke="#888"/>'
        f'<line x1="{LEFT}" x2="{width - RIGHT}" y1="{base}" y2="{base}" stroke="#888"/></g>'
    )
    return parts
