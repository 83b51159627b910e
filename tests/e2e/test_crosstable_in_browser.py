"""The crosstable on a phone-sized screen: readable, scrolling inside its frame, printable."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.support import Server

pytestmark = pytest.mark.e2e

MARK = re.compile(r"^(\d+ s[12] (1|½|0|playing)|bye \S+)$")


def test_the_crosstable_is_readable_at_390_pixels_and_prints_without_the_site(
    server: Server, browser: Any
) -> None:
    made = server.cli("tournament", "simulate", "swiss", "martian-dice", "--players", "9",
                      "--rounds", "4", "--seed", "3", timeout=300)
    assert made.returncode == 0, made.stderr
    tournament = re.search(r"\((t[0-9a-f]{8})\)", made.stdout)
    assert tournament, made.stdout
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{server.url}/tournaments/{tournament.group(1)}/crosstable")
    frame = page.locator("div.wide[role=region]").first
    first = page.locator("table.xt tbody tr").first
    name, marks = first.locator("td.who"), first.locator("td.mark")

    page_width = page.evaluate("document.documentElement.scrollWidth")
    scrolls_inside = frame.evaluate("e => e.scrollWidth > e.clientWidth")
    before = name.bounding_box()
    font = marks.first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    texts = [marks.nth(n).inner_text().strip() for n in range(marks.count())]
    frame.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    after = name.bounding_box()
    points = first.locator("td").nth(2 + len(texts)).bounding_box()

    assert page_width <= 390  # the page itself never scrolls sideways
    assert scrolls_inside  # four rounds and the tie-breaks do not fit: the table scrolls
    assert before is not None and 0 <= before["x"] and before["x"] + before["width"] <= 390
    assert font >= 12
    assert len(texts) == 4 and all(MARK.match(t) for t in texts), texts
    assert after is not None and abs(after["x"] - before["x"]) < 1  # the name stays in place
    assert points is not None and points["x"] + points["width"] <= 391  # scrolled into view
    assert "Rank" in page.locator("table.xt thead").inner_text()

    page.emulate_media(media="print")
    assert not page.locator("header.top").is_visible()
    assert page.locator("table.xt").is_visible()
    context.close()
