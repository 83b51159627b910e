"""Point and click on the board: a piece shows where it can go, a button plays the move."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.support import Server, link_in, rebuild, turn_mail

pytestmark = pytest.mark.e2e

PLAYERS = ("clicker@example.org", "watcher@example.org")


def test_clicking_a_piece_shows_its_moves_and_lights_their_squares(
    browser: Any, server: Server
) -> None:
    game = server.new_game(*PLAYERS)
    _, events = server.log(game)
    rules, state = rebuild(events)
    (seat,) = rules.pending(state).seats
    mail = turn_mail(server, game, events, seat, PLAYERS[seat])
    expected: dict[str, set[str]] = {}
    for action in rules.legal(state, seat):
        where = rules.annotate(state, seat, action)
        expected.setdefault(where["from"], set()).update(where["to"])
    square, targets = sorted(expected.items())[0]

    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(link_in(mail, "play"))
        page.click(f'.board [data-square="{square}"]')
        shown = page.eval_on_selector_all(
            "#choices .group", "gs => gs.filter(g => !g.hidden).map(g => g.dataset.from)"
        )
        lit = page.eval_on_selector_all(".board .target", "els => els.map(e => e.dataset.square)")
        assert shown == [square]
        assert set(lit) == targets
        # A lit square narrows the choices to the moves that end there.
        landing = sorted(targets)[-1]
        page.click(f'.board [data-square="{landing}"]')
        visible = page.eval_on_selector_all(
            f'#choices .group[data-from="{square}"] button',
            "bs => bs.filter(b => !b.hidden).map(b => b.dataset.to)",
        )
        assert visible and all(landing in to.split(" ") for to in visible)
        button = page.locator(f'#choices .group[data-from="{square}"] button:visible').first
        action = str(button.get_attribute("value"))
        link = page.url
        button.click()
        page.wait_for_url(lambda url: url != link)
        _, events = server.log(game)
        assert [e["payload"]["action"] for e in events if e["kind"] == "move"] == [action]
    finally:
        context.close()
