"""A newcomer's path through the pages in a real browser, with and without JavaScript."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

import pytest

import engine
from tests.e2e.support import (
    Server,
    is_mail,
    last_actor,
    link_in,
    links_in,
    rebuild,
    text_of,
    turn_mail,
    wait_for_mail,
)

pytestmark = pytest.mark.e2e

HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


def sign_in(server: Server, page: Any, address: str) -> None:
    """Ask for a sign-in link, open it from the mail and press Sign in."""
    page.goto(f"{server.url}/signin")
    page.fill("input[name=email]", address)
    page.get_by_role("button", name="Mail me a sign-in link").click()
    page.get_by_role("heading", name="Check your mail").wait_for()
    mail = wait_for_mail(
        server.sink,
        lambda m: address in str(m["To"]) and m["Subject"] == "Your pbem sign-in link",
        f"sign-in mail to {address}",
    )
    page.goto(link_in(mail, "signin"))
    assert page.inner_text("h1") == f"Sign in as {address}?"
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.wait_for_url(f"{server.url}/")
    assert f"Signed in as {address}." in page.inner_text("main")


def follow(page: Any, selector: str) -> None:
    """Click a link and wait until its page is shown."""
    href = page.get_attribute(selector, "href")
    assert href, f"no link {selector}"
    page.click(selector)
    page.wait_for_url(urljoin(page.url, href))


def play_from_page(page: Any, link: str) -> str:
    """Open a move link and press its first button; return the action sent."""
    page.goto(link)
    button = page.locator("#move-form button[name=choice]").first
    action = str(button.get_attribute("value"))
    button.click()
    page.wait_for_url(lambda url: url != link)
    errors = page.locator(".error")
    assert errors.count() == 0, errors.all_inner_texts()
    return action


def test_a_newcomer_signs_in_starts_a_game_and_plays_without_javascript(
    browser: Any, server: Server
) -> None:
    players = newcomer, friend = "newcomer@example.org", "friend@example.org"
    with_js = browser.new_context()
    without_js = browser.new_context(java_script_enabled=False)
    try:
        page = with_js.new_page()
        sign_in(server, page, newcomer)

        page.goto(f"{server.url}/games/new")
        page.check("input[name=kind][value=martian-frisby]")
        assert page.input_value("input[name=email0]") == newcomer
        page.fill("input[name=email1]", friend)
        page.fill("input[name=name1]", "Friend")
        page.get_by_role("button", name="Create the game and mail the players").click()
        page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
        game = page.url.rsplit("/", 1)[-1]
        assert "Martian Frisby" in page.inner_text("h1")

        _, events = server.log(game)
        rules, state = rebuild(events)
        commitment = events[0]["payload"]["commitment"]
        for seat, address in enumerate((newcomer, friend)):
            invite = wait_for_mail(server.sink, is_mail(game, "invite", address), "an invitation")
            assert f"You are {rules.seat_name(state, seat)}" in text_of(invite)
            assert commitment in HEX64.findall(text_of(invite))
        (seat,) = rules.pending(state).seats
        first = turn_mail(server, game, events, seat, players[seat])

        # A player whose browser runs no JavaScript plays with the plain form.
        plain = without_js.new_page()
        action = play_from_page(plain, link_in(first, "play"))
        assert rules.describe(state, engine.Played(seat, action), seat) in plain.inner_text("main")
        _, events = server.log(game)
        moves = [e for e in events if e["kind"] == "move"]
        assert [(m["seat"], m["payload"]["action"]) for m in moves] == [(seat, action)]

        # The next decision, from a choice link in the mail: it asks to confirm, then acts.
        rules, state = rebuild(events)
        (seat,) = rules.pending(state).seats
        mail = turn_mail(server, game, events, seat, players[seat])
        choice_links = [url for url in links_in(mail, "play") if "?choice=" in url]
        if choice_links and last_actor(events) != seat:
            plain.goto(choice_links[-1])
            wanted = rules.legal(state, seat)[-1]
            assert "Confirm:" in plain.inner_text("#move-form")
            assert plain.locator("#move-form button[name=choice]").get_attribute("value") == wanted
            link = plain.url
            plain.get_by_role("button", name="Confirm").click()
            plain.wait_for_url(lambda url: url != link)
            _, events = server.log(game)
            assert [e["payload"]["action"] for e in events if e["kind"] == "move"][-1] == wanted
    finally:
        with_js.close()
        without_js.close()


def test_a_forged_play_link_shows_a_clear_error_page(browser: Any, server: Server) -> None:
    players = ("forger@example.org", "victim@example.org")
    game = server.new_game(*players)
    _, events = server.log(game)
    rules, state = rebuild(events)
    (seat,) = rules.pending(state).seats
    genuine = link_in(turn_mail(server, game, events, seat, players[seat]), "play")
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        cut = genuine[:-3] + ("AAA" if not genuine.endswith("AAA") else "BBB")
        for forged in (f"{server.url}/play/not-a-token", cut):
            response = page.goto(forged)
            assert response is not None and response.status == 400
            assert page.inner_text("h1").startswith("400")
            assert "this move link is not valid" in page.inner_text("[role=alert]")
            assert page.locator("#move-form").count() == 0
        response = page.goto(genuine)
        assert response is not None and response.status == 200
        assert page.locator("#move-form").count() == 1
    finally:
        context.close()


def test_the_history_page_steps_back_and_forth(browser: Any, server: Server) -> None:
    players = ("historian@example.org", "chronicler@example.org")
    game = server.new_game(*players)
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        for _ in range(2):
            _, events = server.log(game)
            rules, state = rebuild(events)
            (seat,) = rules.pending(state).seats
            mail = turn_mail(server, game, events, seat, players[seat])
            play_from_page(page, link_in(mail, "play"))
        _, events = server.log(game)
        head = events[-1]["seq"]
        assert head >= 4

        def at() -> int:
            found = re.search(r"after event (\d+) of (\d+)", page.inner_text(".steps"))
            assert found is not None and int(found[2]) == head
            return int(found[1])

        page.goto(f"{server.url}/games/{game}/history")
        assert at() == head
        assert page.locator("a[rel=next]").count() == 0
        follow(page, "a[rel=prev]")
        assert at() == head - 1
        follow(page, "a[rel=prev]")
        assert at() == head - 2
        follow(page, "a[rel=first]")
        assert at() == 0
        assert page.locator("a[rel=prev]").count() == 0
        follow(page, "a[rel=next]")
        assert at() == 1
        follow(page, "a[rel=last]")
        assert at() == head
        moves = [e for e in events if e["kind"] == "move"]
        follow(page, f"#e{moves[0]['seq']} a")
        assert at() == moves[0]["seq"]
        assert page.locator(f"#e{moves[0]['seq']}.current").count() == 1
    finally:
        context.close()


def test_the_audit_page_shows_the_check_results(browser: Any, server: Server) -> None:
    game = server.new_game("auditor@example.org", "skeptic@example.org")
    _, events = server.log(game)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{server.url}/games/{game}")
        page.get_by_role("link", name="Audit").click()
        page.wait_for_url(f"{server.url}/games/{game}/audit")
        main = page.inner_text("main")
        assert f"The log checks out: {len(events)} events, hash chain intact" in main
        assert events[0]["payload"]["commitment"] in main
        assert "not yet: it is published when the game ends" in main
        rows = page.locator("table").nth(1).locator("tr")
        assert rows.count() == len(events) + 1
        checks = rows.locator("td:nth-child(3)").all_inner_texts()
        assert all(text.startswith("✔") for text in checks), checks
    finally:
        context.close()
