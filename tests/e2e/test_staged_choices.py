"""A busy Martian Race turn in stages: few buttons at a time, a short page, a legal move."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.support import Server, busy_game, rebuild

pytestmark = pytest.mark.e2e

PLAYERS = tuple(f"racer{i}@example.org" for i in range(4))
PHONE = {"width": 390, "height": 844}
MOST_BUTTONS = 48  # a stage shows a few dozen choices at most


@pytest.fixture(scope="module")
def busy(server: Server) -> tuple[str, str]:
    """A Martian Race game at a turn with hundreds of legal actions, and its move link."""
    return busy_game(server, "martian-race", PLAYERS, 300)


def tappable(page: Any) -> list[dict[str, float]]:
    """The boxes of the choice links and buttons a person can see."""
    found = [
        *page.locator("#answers a >> visible=true").all(),
        *page.locator("#choices button >> visible=true").all(),
    ]
    return [box for box in (element.bounding_box() for element in found) if box]


def test_without_javascript_the_answers_are_links_that_end_in_legal_moves(
    browser: Any, server: Server, busy: tuple[str, str]
) -> None:
    game, busy_link = busy
    rules, state = rebuild(server.log(game)[1])
    (seat,) = rules.pending(state).seats
    legal = set(rules.legal(state, seat))
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(busy_link)
        stages = 0
        while page.locator("#answers").count():
            answers = page.locator("#answers a")
            assert 1 < answers.count() <= MOST_BUTTONS
            answers.last.click()
            page.wait_for_load_state()
            stages += 1
        shown = [str(b.get_attribute("value")) for b in page.locator("#choices button").all()]
        assert stages >= 2 and shown and set(shown) <= legal
        assert all(page.locator(f'#choices button[value="{a}"]').is_visible() for a in shown)
    finally:
        context.close()


def test_a_busy_turn_is_chosen_a_question_at_a_time_on_a_phone(
    browser: Any, server: Server, busy: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    _, busy_link = busy
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(busy_link)
        figures = []
        while page.locator("#answers").count():
            boxes = tappable(page)
            height = page.evaluate("document.scrollingElement.scrollHeight")
            figures.append((page.locator("h2.question").inner_text(), len(boxes), height))
            assert 1 < len(boxes) <= MOST_BUTTONS
            assert all(b["height"] >= 40 and b["width"] >= 40 for b in boxes), boxes
            link = page.url
            squares = page.locator(".board .movable, .board .target")
            # A piece or a square is chosen on the board; a die with its link.
            if squares.count():
                squares.first.click()
            else:
                page.locator("#answers a").first.click()
            page.wait_for_url(lambda url, link=link: url != link)
        buttons = page.locator("#choices button[data-to] >> visible=true")
        shown = [str(b.get_attribute("value")) for b in buttons.all()]
        height = page.evaluate("document.scrollingElement.scrollHeight")
        figures.append(("the moves", len(shown), height))
        shot = tmp_path_factory.mktemp("staged") / "race-moves-390.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"\nscreenshot: {shot}")
        print("\nstages of a busy Martian Race turn (question, choices, page height at 390 px):")
        for figure in figures:
            print("  ", figure)
        assert 0 < len(shown) <= MOST_BUTTONS
        assert all(height <= 4000 for _, _, height in figures)
        # The lit squares narrow the moves to those ending there, visibly.
        lit = page.locator(".board .target")
        assert lit.count() >= 1
        landing = str(lit.first.get_attribute("data-square"))
        lit.first.click()
        kept = [str(b.get_attribute("value")) for b in buttons.all()]
        ends = {
            str(b.get_attribute("value")): str(b.get_attribute("data-to")).split()
            for b in page.locator("#choices button[data-to]").all()
        }
        assert kept and set(kept) == {a for a in shown if landing in ends[a]}
        for action in set(shown) - set(kept):
            gone = page.locator(f'#choices button[value="{action}"]')
            assert gone.bounding_box() is None
        link = page.url
        page.locator(f'#choices button[value="{kept[0]}"]').click()
        page.wait_for_url(lambda url: url != link)
        assert page.locator(".flash").count() == 1
        assert page.locator(".error").count() == 0
    finally:
        context.close()
