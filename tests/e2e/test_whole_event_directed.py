"""A director runs a whole event in a real browser: the new-event form with a player limit
and an entry deadline, invitations from the dashboard, entries from the mailed links, the
start, a late entry, a withdrawal, an adjudication on the game's director page and the
close; every affected player's mailbox holds the notice of each action, with who and why."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

import pytest

from tests.conftest import empty_tables
from tests.e2e.support import Server, link_in, serving, text_of, wait_for_mail
from tests.e2e.test_pages_in_browser import sign_in
from tests.smtp_sink import SmtpSink

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The real server on each database, each with a mailbox of its own (a mail of the other
    run would link to a server that has stopped)."""
    root = tmp_path_factory.mktemp("pbem-e2e-whole")
    sink = SmtpSink().start()
    try:
        if request.param == "sqlite":
            with serving(sink, root) as running:
                yield running
            return
        # The run's own PostgreSQL database, emptied: a database made and dropped here would
        # cost a checkpoint of the whole server (DROP DATABASE forces one) while others write.
        url = request.getfixturevalue("migrated_postgres")
        empty_tables(url)
        with serving(sink, root, url) as running:
            yield running
    finally:
        sink.stop()


DIRECTOR = "tess@example.org"
EVENT = "Whole event cup"
FIRST = {"Ann Archer": "ann.w@example.org", "Bob Baker": "bob.w@example.org",
         "Cy Cole": "cy.w@example.org"}
LATE = ("Di Dunn", "di.w@example.org")
EVERYONE = FIRST | dict([LATE])


def mail_to(server: Server, address: str, subject: str, containing: str = "") -> EmailMessage:
    """The newest mail to the address whose subject and text hold the words (bounded wait)."""
    return wait_for_mail(
        server.sink,
        lambda m: address in str(m["To"]) and subject in str(m["Subject"])
        and containing in text_of(m),
        f"{subject!r} holding {containing!r} to {address}",
    )


def flat(text: str) -> str:
    """A mail's text with its lines joined, as a reader takes it in."""
    return " ".join(text.split())


def invite(server: Server, page: Any, tournament: str, people: dict[str, str]) -> None:
    """Mail the invitations from the dashboard's form."""
    page.goto(f"{server.url}/tournaments/{tournament}/director")
    page.get_by_label("Names and addresses, one a line").fill(
        "\n".join(f"{name} <{address}>" for name, address in people.items()))
    page.get_by_role("button", name="Mail the invitations").click()
    shown = page.inner_text("main")
    assert "Registration links mailed to " + ", ".join(people) in shown, shown


def enter(server: Server, context: Any, address: str, director: str) -> None:
    """Open the mailed invitation in a browser of the player's own and confirm the entry."""
    mail = mail_to(server, address, f"[{EVENT}] your registration link")
    assert f"{director}, the director, invites you to enter the tournament \"{EVENT}\"" in \
        flat(text_of(mail))
    page = context.new_page()
    page.goto(link_in(mail, "tournaments/register"))
    page.get_by_role("button", name="Confirm my entry").click()
    assert f"{address} is entered" in page.inner_text("main")
    page.close()


def dashboard(server: Server, page: Any, tournament: str) -> str:
    """The dashboard's text."""
    page.goto(f"{server.url}/tournaments/{tournament}/director")
    return str(page.inner_text("main"))


def test_a_director_runs_a_whole_event_and_every_player_is_told(
        server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    sign_in(server, page, DIRECTOR)
    page.goto(f"{server.url}/tournaments/new")
    page.get_by_label("Name", exact=True).fill(EVENT)
    page.get_by_label("Player limit").fill("4")
    closes = (datetime.now(UTC) + timedelta(days=3)).replace(second=0, microsecond=0)
    page.get_by_label("Entries close").fill(closes.strftime("%Y-%m-%dT%H:%M"))
    page.locator("input[name=system][value=rolling-swiss]").check()
    page.get_by_label("Games per player").fill("1")
    page.get_by_label("Games at once").fill("1")
    page.get_by_role("button", name="Create and open registration").click()
    home = page.inner_text("main")
    assert "Rolling Swiss of Martian Frisby" in home and "Entry: 4 players at most." in home
    assert f"Entries close on {closes:%A} {closes.day} {closes:%B %Y}" in home
    director = re.search(r"Directed by (.+?)\.", home)
    assert director, home
    tournament = page.url.rstrip("/").rsplit("/", 1)[-1]

    invite(server, page, tournament, FIRST)
    players = browser.new_context()
    for address in FIRST.values():
        enter(server, players, address, director[1])
    main = dashboard(server, page, tournament)
    assert "Open for registration" in main and "3 active of 3 entrants" in main, main
    page.get_by_role("button", name="Start: pair the entrants (late entries stay open)").click()
    main = page.inner_text("main")
    assert "Running" in main and "1 game in play" in main, main  # three players: one waits
    assert "Round 0" not in main  # a rolling event has no rounds

    invite(server, page, tournament, dict([LATE]))
    enter(server, players, LATE[1], director[1])  # after the start: a late entry
    main = dashboard(server, page, tournament)
    assert "4 active of 4 entrants" in main and "2 games in play" in main
    tables = {game: (a, b) for game, a, b in re.findall(r"(\w+): (.+?) v (.+)", main)}
    assert sorted(n for seats in tables.values() for n in seats) == sorted(EVERYONE), main
    late_game = next(g for g, seats in tables.items() if LATE[0] in seats)
    (leaver,) = [n for n in tables[late_game] if n != LATE[0]]
    (other_game,) = [g for g in tables if g != late_game]
    winner, loser = tables[other_game]
    paired = flat(text_of(mail_to(server, LATE[1], f"game {late_game}", "in a new game of")))
    assert f"{EVENT}: this game is against {leaver}." in paired, paired
    late_seat = re.search(r"You are (South|North) in a new game", paired)
    assert late_seat, paired

    invite(server, page, tournament, {"Eve Eden": "eve.w@example.org"})
    mail = mail_to(server, "eve.w@example.org", f"[{EVENT}] your registration link")
    eve = players.new_page()
    eve.goto(link_in(mail, "tournaments/register"))
    eve.get_by_role("button", name="Confirm my entry").click()
    assert "Eve Eden cannot enter Whole event cup: the event is full: it takes at most 4 " \
        "players" in eve.inner_text("main")

    page.goto(f"{server.url}/tournaments/{tournament}/director")
    close = page.locator("form", has=page.get_by_role("button", name="Close the entries"))
    close.get_by_label("Reason (logged)").fill("the field is full")
    close.get_by_role("button", name="Close the entries").click()
    assert "closed the entries: “the field is full”" in page.inner_text("main")

    row = page.locator("li[id^=entrant-]", has_text=leaver)
    row.get_by_text(f"Act on {leaver}").click()
    withdraw = row.locator("form", has=page.get_by_role("button", name=f"Withdraw {leaver}"))
    withdraw.get_by_label("Reason (logged and mailed)").fill("moved to Mars")
    withdraw.get_by_label(f"I confirm: withdraw {leaver}").check()
    withdraw.get_by_role("button", name=f"Withdraw {leaver}").click()
    main = page.inner_text("main")
    assert f"withdrew {leaver}: “moved to Mars”" in main and f"{leaver} (withdrawn)" in main
    assert "3 active of 4 entrants" in main and "1 game in play" in main, main  # Eve is out

    page.goto(f"{server.url}/games/{other_game}/director")
    ruling = page.locator("form", has=page.get_by_role("heading", name="Adjudicate"))
    ruling.get_by_label("Places").fill("1, 2")
    ruling.get_by_label("Reason").fill("the server lost a week of mail")
    ruling.get_by_role("button", name="Adjudicate and end the game").click()
    shown = page.inner_text("main")
    assert f"Game over. South won, adjudicated by {director[1]}: the server lost a week of " \
        "mail." in shown, shown

    main = dashboard(server, page, tournament)
    assert "Over" in main and "The event is over." in main and "No game is in play." in main
    assert f"adjudicated game {other_game}: “the server lost a week of mail”" in main

    def game_over(address: str, game: str) -> str:
        return flat(text_of(mail_to(server, address, f"game {game}", " is over: ")))

    notice = flat(text_of(mail_to(server, EVERYONE[leaver], f"[{EVENT}] you are withdrawn")))
    assert f"{director[1]} withdrew you from {EVENT} (moved to Mars). Your unfinished games " \
        "there are lost" in notice, notice
    for address in (EVERYONE[leaver], LATE[1]):  # the late entrant wins the abandoned game
        said = game_over(address, late_game)
        assert f"left the event ({director[1]}: moved to Mars)" in said, said
        assert f"; {late_seat[1]} wins" in said, said
    for address in (EVERYONE[winner], EVERYONE[loser]):
        said = game_over(address, other_game)
        assert f"is over: South won, adjudicated by {director[1]}: the server lost a week of " \
            "mail." in said, said
    places = {winner: "1st", LATE[0]: "1st", loser: "3rd", leaver: "3rd"}
    for name, place in places.items():
        final = flat(text_of(mail_to(server, EVERYONE[name], f"[{EVENT}] the final standings")))
        assert f"Hello {name}, {EVENT}: the final standings. You are {place} with " in final, \
            final
    page.goto(f"{server.url}/tournaments/{tournament}")
    assert "Over. Directed by" in page.inner_text("main")
    context.close()
    players.close()
