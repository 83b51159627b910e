"""Point and click on the board: a piece shows where it can go, a button plays the move."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.support import Server, link_in, rebuild, turn_mail

pytestmark = pytest.mark.e2e

PLAYERS = ("clicker@example.org", "watcher@example.org")


def on_screen(page: Any, selector: str, attribute: str) -> list[str]:
    """An attribute of each element a person can see (Playwright's visibility: a box)."""
    seen = page.locator(f"{selector} >> visible=true").all()
    return [str(element.get_attribute(attribute)) for element in seen]


def test_clicking_a_piece_shows_its_moves_and_lights_their_squares(
    browser: Any, server: Server
) -> None:
    # A piece and a lit square that keeps some of the piece's moves and hides the others;
    # some rolls (a double, say) have none, and a new game brings a new roll.
    for _ in range(8):
        game = server.new_game(*PLAYERS)
        _, events = server.log(game)
        rules, state = rebuild(events)
        (seat,) = rules.pending(state).seats
        landings: dict[str, dict[str, set[str]]] = {}  # from square: action: where it lands
        for action in rules.legal(state, seat):
            where = rules.annotate(state, seat, action)
            landings.setdefault(where["from"], {})[action] = set(where["to"])
        found = [
            (square, to)
            for square, moves in sorted(landings.items())
            for to in sorted(set().union(*moves.values()))
            if 0 < sum(to in lands for lands in moves.values()) < len(moves)
        ]
        if found:
            break
    else:
        raise AssertionError("no roll in 8 games lets a lit square narrow a piece's moves")
    square, landing = found[0]
    mail = turn_mail(server, game, events, seat, PLAYERS[seat])
    moves = landings[square]

    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(link_in(mail, "play"))
        assert len(on_screen(page, "#choices .group", "data-from")) == len(landings)
        page.click(f'.board [data-square="{square}"]')
        shown = on_screen(page, "#choices .group", "data-from")
        lit = page.eval_on_selector_all(".board .target", "els => els.map(e => e.dataset.square)")
        assert shown == [square]
        assert set(lit) == set().union(*moves.values())
        assert sorted(on_screen(page, "#choices button[data-to]", "value")) == sorted(moves)
        # A lit square narrows the choices to the moves that end there: the others go.
        page.click(f'.board [data-square="{landing}"]')
        visible = on_screen(page, "#choices button[data-to]", "value")
        assert sorted(visible) == sorted(a for a, lands in moves.items() if landing in lands)
        gone = next(a for a, lands in moves.items() if landing not in lands)
        hidden = page.locator(f'#choices button[value="{gone}"]')
        assert hidden.bounding_box() is None and not hidden.is_visible()
        button = page.locator(f'#choices button[value="{visible[0]}"]')
        action = str(button.get_attribute("value"))
        link = page.url
        button.click()
        page.wait_for_url(lambda url: url != link)
        _, events = server.log(game)
        assert [e["payload"]["action"] for e in events if e["kind"] == "move"] == [action]
    finally:
        context.close()
