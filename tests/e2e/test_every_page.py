"""Every page on a phone and for axe-core: no sideways scrolling, big enough to tap, no
serious or critical accessibility finding."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

import engine
from tests.e2e.support import Server, busy_game
from tests.e2e.test_pages_in_browser import sign_in

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
TAP = 40  # px: the smallest button or field a thumb can hit
PLAYERS = tuple(f"phone{i}@example.org" for i in range(4))
SEATS = {"martian-race": 4, "mad-dog": 2}  # a crowded board for the game that has one


@pytest.fixture(scope="module")
def pages(server: Server) -> list[tuple[str, str]]:
    """Each page to check: (name, path), with a game of each kind and a tournament."""
    found = [
        ("lobby", "/"),
        ("new game", "/games/new"),
        ("my games", "/me"),
        ("rules index", "/rules"),
        ("ratings", "/ratings"),
        ("tournaments", "/tournaments/"),
        ("player", "/players/1"),
    ]
    for kind in engine.GAMES:
        players = PLAYERS[: SEATS.get(kind, 2)]
        game, link = busy_game(server, kind, players, 40 if kind in SEATS else 1)
        play = link.removeprefix(server.url)
        found += [
            (f"{kind} play", play),
            (f"{kind} game", f"/games/{game}"),
            (f"{kind} history", f"/games/{game}/history"),
            (f"{kind} audit", f"/games/{game}/audit"),
            (f"{kind} rules", f"/rules/{kind}"),
        ]
    made = server.cli(
        "tournament", "create", "Phone cup", "--system", "swiss", "--kind", "martian-dice",
        "--rounds", "1", "--director", "dee@example.org",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    tournament = made.stdout.split()[0]
    found += [
        ("tournament", f"/tournaments/{tournament}"),
        ("standings", f"/tournaments/{tournament}/standings"),
        ("cross table", f"/tournaments/{tournament}/crosstable"),
    ]
    return found


@pytest.fixture(scope="module")
def phone(browser: Any, server: Server) -> Iterator[Any]:
    """A phone-sized page, signed in."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    sign_in(server, page, PLAYERS[0])
    try:
        yield page
    finally:
        context.close()


WIDE = """(width) => {
  const wide = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node && wide.length < 3; node = walk.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.right > width + 1) wide.push(`${node.parentElement.tagName} ${node.data.slice(0, 9)}`);
  }
  return wide;
}"""


def small_targets(page: Any) -> list[str]:
    """The visible buttons and fields smaller than a thumb."""
    return list(
        page.evaluate(
            """(tap) => [...document.querySelectorAll(
                'button, input:not([type=hidden]), select, a.answer')]
              .filter((el) => el.offsetParent !== null)
              // A tick box is tapped through its label.
              .map((el) => [el, (['checkbox', 'radio'].includes(el.type) && el.closest('label')
                                 || el).getBoundingClientRect()])
              .filter(([el, box]) => box.height < tap || box.width < tap)
              .map(([el, box]) => `${el.outerHTML.slice(0, 80)} ${box.width}x${box.height}`)""",
            TAP,
        )
    )


def test_every_page_fits_a_phone_and_has_no_serious_accessibility_finding(
    phone: Any, server: Server, pages: list[tuple[str, str]]
) -> None:
    axe = Axe()
    problems: list[str] = []
    for name, path in pages:
        phone.goto(server.url + path)
        width = phone.evaluate("document.scrollingElement.scrollWidth")
        if width > PHONE["width"]:
            wide = phone.evaluate(WIDE, PHONE["width"])
            problems.append(f"{name}: the page scrolls sideways ({width} px): {wide}")
        problems += [f"{name}: too small to tap: {t}" for t in small_targets(phone)]
        found = axe.run(phone).response["violations"]
        for v in found:
            if v["impact"] in ("serious", "critical"):
                where = "; ".join(n["target"][0] for n in v["nodes"][:3])
                problems.append(f"{name}: axe {v['impact']} {v['id']}: {v['help']} ({where})")
        shot = server.instance / f"phone-{name.replace(' ', '-')}.png"
        phone.screenshot(path=str(shot), full_page=True)
        print(f"{name}: {len(found)} axe findings {sorted({v['id'] for v in found})}, {shot}")
    assert not problems, "\n".join(problems)
