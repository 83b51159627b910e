"""A tournament in a real browser: players enter from the mailed link, and the standings
page shows the result of a game played to its end through the move links."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from tests.e2e.support import Server, link_in, links_in, wait_for_mail

pytestmark = pytest.mark.e2e

PLAYERS = ("ann@example.org", "bob@example.org")
MAX_DECISIONS = 3000


def api(server: Server, path: str, body: dict[str, Any] | None = None) -> Any:
    """GET (or POST a JSON body to) the server's API."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path, data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())


def enter(server: Server, page: Any, tournament: str, address: str) -> None:
    """Ask for a registration link on the tournament's page, open it and confirm."""
    page.goto(f"{server.url}/tournaments/{tournament}")
    page.fill("input[name=email]", address)
    page.get_by_role("button", name="Mail me a registration link").click()
    assert f"A registration link went to {address}" in page.inner_text("main")
    mail = wait_for_mail(server.sink, lambda m: address in str(m["To"])
                         and "registration link" in str(m["Subject"]), "a registration link")
    page.goto(link_in(mail, "tournaments/register"))
    page.get_by_label("Your name, as the other players will see it").fill(
        address.split("@")[0].title())
    button = page.get_by_role("button", name="Confirm my entry")
    assert button.is_visible()
    button.click()
    assert f"{address} is entered" in page.inner_text("main")


def play_to_the_end(server: Server, game: str) -> None:
    """Both seats play their first choice through the API, from their mailed links."""
    tokens: dict[str, str] = {}
    for _ in range(MAX_DECISIONS):
        if api(server, f"/api/games/{game}")["status"] != "active":
            return
        for address in PLAYERS:
            if address not in tokens:
                found = [m for m in list(server.sink.messages) if address in str(m["To"])
                         and str(m["Subject"]).endswith(f" {game}") and links_in(m, "play")]
                if not found:
                    continue
                tokens[address] = links_in(found[-1], "play")[0].rsplit("/", 1)[-1]
            seat = api(server, f"/api/play/{tokens[address]}")
            if seat["your_turn"]:
                played = api(server, f"/api/play/{seat['token']}",
                             {"action": seat["choices"][0]["action"]})
                tokens[address] = played["token"]
    raise AssertionError(f"game {game} did not end within {MAX_DECISIONS} decisions")


def test_players_enter_from_the_mailed_link_and_see_their_result_in_the_standings(
    server: Server, browser: Any
) -> None:
    made = server.cli("tournament", "create", "Browser cup", "--system", "swiss",
                      "--kind", "martian-frisby", "--rounds", "1",
                      "--director", "dee@example.org")
    assert made.returncode == 0, made.stderr
    tournament = made.stdout.split()[0]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    for address in PLAYERS:
        enter(server, page, tournament, address)

    started = server.cli("tournament", "start", tournament)
    assert started.returncode == 0, started.stderr
    (game,) = [g["game"] for g in api(server, f"/api/tournaments/{tournament}/games")]
    play_to_the_end(server, game)

    page.goto(f"{server.url}/tournaments/{tournament}/standings")
    rows = page.locator("table tr")
    assert rows.count() == 3
    first = rows.nth(1).inner_text()
    second = rows.nth(2).inner_text()
    points = sorted(float(line.split("\t")[2]) for line in (first, second))
    assert points in ([0.0, 1.0], [0.5, 0.5])
    assert page.get_by_text("Order: points, then Sonneborn-Berger").is_visible()
    page.screenshot(path=str(server.instance / "tournament-standings.png"), full_page=True)
    context.close()
