"""A tables event's standings in Chromium, on a phone and on a desktop: every header word
stays whole, and every number reads as people write it (2/3 is 0.67), as the API's exact
figures round to."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from tests.e2e.support import Server

pytestmark = pytest.mark.e2e

SIZES = ({"width": 390, "height": 844}, {"width": 1280, "height": 800})
WRITTEN = re.compile(r"-?\d{1,3}(,\d{3})*(\.\d{1,2})?")

# Each header word (a run of letters or digits) and each number cell, with how many lines the
# browser laid it out on: a word broken inside ("P/oi/nt/s") takes more than one.
LAID_OUT = """() => {
  const lines = (node, start, end) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  };
  const words = [];
  for (const th of document.querySelectorAll('main th')) {
    const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.data.matchAll(/[\\p{L}\\p{N}']+/gu)) {
        words.push([m[0], lines(node, m.index, m.index + m[0].length)]);
      }
    }
  }
  const numbers = [...document.querySelectorAll('main td.num')].map((td) => {
    const node = td.firstChild;
    return [td.innerText, node ? lines(node, 0, node.data.length) : 1];
  });
  return {words, numbers};
}"""


def api(server: Server, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=20) as response:
        return json.loads(response.read())


def figure(value: float) -> str:
    """What the page must show for an exact figure of the API: at most two decimals."""
    return f"{round(value, 2) + 0.0:,.2f}".rstrip("0").rstrip(".")


def test_a_tables_events_standings_stay_readable_on_a_phone_and_a_desktop(
    server: Server, browser: Any
) -> None:
    made = server.cli("tournament", "simulate", "swiss", "martian-dice", "--players", "7",
                      "--tables", "3,4", "--rounds", "2")
    assert made.returncode == 0, made.stderr
    (event,) = [e for e in api(server, "/api/tournaments") if e["entrants"] == 7]
    exact = api(server, f"/api/tournaments/{event['id']}")["standings"]
    expected = [figure(row["points"]) for row in exact]
    fractions = [v for row in exact for v in (row["points"], *row["tiebreaks"].values())
                 if round(v, 2) != v]
    assert fractions, "a tables event has figures of more than two decimals to round"

    for size in SIZES:
        context = browser.new_context(viewport=size)
        page = context.new_page()
        try:
            page.goto(f"{server.url}/tournaments/{event['id']}/standings")
            found = page.evaluate(LAID_OUT)
            broken = [w for w, lines in found["words"] if lines > 1]
            assert not broken, f"{size['width']} px: header words broken: {broken}"
            assert "Points" in [w for w, _ in found["words"]]
            numbers = [text for text, _ in found["numbers"]]
            assert all(WRITTEN.fullmatch(n) for n in numbers), numbers
            assert not [n for n, lines in found["numbers"] if lines > 1], found["numbers"]
            columns = 2 + len(exact[0]["tiebreaks"])  # points, tie-breaks, games
            assert numbers[::columns] == expected
            rows = [numbers[i:i + columns] for i in range(0, len(numbers), columns)]
            # the API's JSON sorts the tie-breaks by name; the page keeps the event's order
            assert [sorted(r[1:-1]) for r in rows] == [
                sorted(figure(v) for v in row["tiebreaks"].values()) for row in exact]
            page.screenshot(path=str(server.instance / f"standings-{size['width']}.png"),
                            full_page=True)
            for other in ("", "/crosstable"):
                page.goto(f"{server.url}/tournaments/{event['id']}{other}")
                found = page.evaluate(LAID_OUT)
                assert not [w for w, lines in found["words"] if lines > 1], (other, found)
                assert all(WRITTEN.fullmatch(n) and lines == 1
                           for n, lines in found["numbers"]), (other, found["numbers"])
                assert found["numbers"] or other == "/crosstable", other  # tables: places
        finally:
            context.close()
