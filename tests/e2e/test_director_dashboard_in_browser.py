"""The director's dashboard on a phone: readable at 390 px, every control labeled and big
enough to tap, and its actions work from the row they act on."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from tests.e2e.support import Server
from tests.e2e.test_pages_in_browser import sign_in

pytestmark = pytest.mark.e2e

DIRECTOR = "dee@example.org"
ENTRANTS = ("Ann Archer <ann@example.org>", "Bob Baker <bob@example.org>",
            "Cy Cole <cy@example.org>", "Di Dunn <di@example.org>")
UNLABELED = """() => [...document.querySelectorAll('main input, main select, main textarea')]
  .filter(el => el.type !== 'hidden' && el.offsetParent !== null)
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label'))
  .map(el => el.outerHTML)"""
SMALL = """() => [...document.querySelectorAll(
  'main button, main summary, main select, main input:not([type=hidden])')]
  .filter(el => el.offsetParent !== null)
  .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect()])
  .filter(([_, r]) => r.height < 24 || r.width < 24 || r.right > window.innerWidth + 1)
  .map(([html, r]) => html + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""


def games_of(server: Server, tournament: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{server.url}/api/tournaments/{tournament}/games",
                                timeout=20) as response:
        return list(json.loads(response.read()))


def test_the_dashboard_reads_and_works_on_a_phone(server: Server, browser: Any) -> None:
    made = server.cli("tournament", "create", "Phone cup", "--system", "swiss",
                      "--kind", "martian-frisby", "--rounds", "2", "--director", DIRECTOR)
    assert made.returncode == 0, made.stderr
    tournament = made.stdout.split()[0]
    entered = server.cli("tournament", "register", tournament, *ENTRANTS)
    assert entered.returncode == 0, entered.stderr
    started = server.cli("tournament", "start", tournament)
    assert started.returncode == 0, started.stderr
    game = games_of(server, tournament)[0]["game"]

    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    sign_in(server, page, DIRECTOR)
    page.goto(f"{server.url}/tournaments/{tournament}/director")
    main = page.inner_text("main")
    assert "Round 1 of 2" in main and "4 active of 4 entrants" in main
    assert "2 games in play" in main and "Waiting for" in main
    for summary in page.locator("details > summary").all():
        summary.click()  # open every row's actions: all of them must be labeled and tappable
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(UNLABELED) == []
    assert page.evaluate(SMALL) == []

    page.get_by_label(f"Extra hours for game {game}").fill("36")
    row = page.locator(f"#game-{game}")
    row.locator("form", has=page.get_by_role("button", name=f"Extend game {game}")) \
        .get_by_label("Reason (logged and mailed)").fill("the server was down")
    row.get_by_role("button", name=f"Extend game {game}").tap()
    page.get_by_role("heading", name="Actions taken (1)").wait_for()
    assert f"gave game {game} 36 more hours: “the server was down”" in page.inner_text("main")

    ann = page.locator("li[id^=entrant-]", has_text="Ann Archer")
    ann.get_by_text("Act on Ann Archer").click()
    withdraw = ann.locator("form", has=page.get_by_role("button", name="Withdraw Ann Archer"))
    withdraw.get_by_label("Reason (logged and mailed)").fill("moved to Mars")
    withdraw.get_by_role("button", name="Withdraw Ann Archer").tap()
    assert page.get_by_role("heading", name="Actions taken (1)").is_visible()  # not confirmed
    withdraw.get_by_label("I confirm: withdraw Ann Archer").check()
    withdraw.get_by_role("button", name="Withdraw Ann Archer").tap()
    page.get_by_role("heading", name="Actions taken (2)").wait_for()
    main = page.inner_text("main")
    assert "withdrew Ann Archer: “moved to Mars”" in main and "Ann Archer (withdrawn)" in main
    page.screenshot(path=str(server.instance / "director-dashboard.png"), full_page=True)
    context.close()


def test_the_new_event_form_shows_only_the_chosen_formats_settings(
        server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  java_script_enabled=False)  # no script is needed
    page = context.new_page()
    sign_in(server, page, "ed@example.org")  # another address: each sign-in link works once
    page.goto(f"{server.url}/tournaments/new")
    rounds = page.get_by_label("Rounds", exact=True)
    games = page.get_by_label("Games per player")

    assert page.locator("input[name=system][value=swiss]").is_checked()
    assert rounds.is_visible() and not games.is_visible()
    page.locator("input[name=system][value=rolling-swiss]").check()
    assert games.is_visible() and not rounds.is_visible()
    assert page.get_by_label("First tie-break").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(UNLABELED) == []

    page.get_by_label("Name", exact=True).fill("Rolling cup")
    games.fill("4")
    page.get_by_label("Games at once").fill("1")
    page.get_by_label("First tie-break").select_option(label="Wins")
    page.get_by_role("button", name="Create and open registration").click()
    main = page.inner_text("main")
    assert "Rolling Swiss" in main and "Tie-breaks: Wins." in main
    context.close()


def test_the_director_starts_the_next_round_before_the_last_game_ends(
        server: Server, browser: Any) -> None:
    made = server.cli("tournament", "create", "Early cup", "--system", "swiss",
                      "--kind", "martian-frisby", "--rounds", "2",
                      "--director", "Fay <fay@example.org>")
    assert made.returncode == 0, made.stderr
    tournament = made.stdout.split()[0]
    assert server.cli("tournament", "register", tournament, *ENTRANTS).returncode == 0
    assert server.cli("tournament", "start", tournament).returncode == 0
    first, second = (g["game"] for g in games_of(server, tournament))
    ended = server.cli("director", "adjudicate", first, "--ranks", "1,2", "--reason", "agreed")
    assert ended.returncode == 0, ended.stderr

    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    sign_in(server, page, "fay@example.org")
    page.goto(f"{server.url}/tournaments/{tournament}/director")
    assert page.evaluate(UNLABELED) == [] and page.evaluate(SMALL) == []
    form = page.locator("#start-round-2")
    assert f"Unfinished in round 1: {second}" in form.inner_text()
    form.get_by_label("are carried", exact=False).check()
    form.get_by_label("Reason (logged and mailed)").fill("a long weekend")
    form.get_by_role("button", name="Start round 2 now").tap()
    assert page.locator("#start-round-2").is_visible()  # not confirmed: nothing done
    page.locator("#start-round-2").get_by_label("are carried", exact=False).check()
    page.locator("#start-round-2").get_by_label("Reason (logged and mailed)") \
        .fill("a long weekend")
    page.locator("#start-round-2").get_by_label("I confirm: start round 2 now").check()
    page.locator("#start-round-2").get_by_role("button", name="Start round 2 now").tap()
    page.get_by_text("Round 2 of 2").wait_for()
    main = page.inner_text("main")
    assert f"started round 2 early, carrying game {second}: “a long weekend”" in main
    page.goto(f"{server.url}/tournaments/{tournament}")
    assert "early: Fay started it before round 1 was over (a long weekend)" in \
        page.inner_text("main")
    context.close()
