"""A whole game of Martian Frisby played from the mailed links alone, in a real browser."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

import engine
from tests.e2e.support import (
    Server,
    is_mail,
    last_actor,
    link_in,
    rebuild,
    text_of,
    turn_mail,
    wait_for_mail,
)

pytestmark = pytest.mark.e2e

PLAYERS = ("south@example.org", "north@example.org")  # seat order: South, North
MAX_TURNS = 1500
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def tamper(database: Path, game: str, seq: int) -> None:
    """Change one stored event's payload behind the server's back."""
    with closing(sqlite3.connect(database, timeout=10)) as conn, conn:
        row = conn.execute(
            "SELECT e.payload FROM events e JOIN games g ON g.id = e.game_id"
            " WHERE g.public_id = ? AND e.seq = ?",
            (game, seq),
        ).fetchone()
        assert row is not None
        forged = row[0].replace('"values":[', '"values":[6,', 1)
        assert forged != row[0]
        conn.execute(
            "UPDATE events SET payload = ?"
            " WHERE game_id = (SELECT id FROM games WHERE public_id = ?) AND seq = ?",
            (forged, game, seq),
        )


def test_a_whole_game_is_played_from_the_mailed_links_and_verified(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    started = time.monotonic()
    game = server.new_game(*PLAYERS)
    contexts = [browser.new_context() for _ in PLAYERS]  # one browser profile per player
    try:
        pages = [context.new_page() for context in contexts]
        screenshot = tmp_path / "play.png"
        rules: engine.Rules[Any] | None = None
        state: Any = None
        clicked = typed = from_older_mail = 0
        for _ in range(MAX_TURNS):
            _, events = server.log(game)
            rules, state = rebuild(events)
            pending = rules.pending(state)
            if isinstance(pending, engine.Finished):
                break
            assert isinstance(pending, engine.Await), pending
            (seat,) = pending.seats
            if last_actor(events) == seat:
                from_older_mail += 1
            mail = turn_mail(server, game, events, seat, PLAYERS[seat])
            link = link_in(mail, "play")
            page = pages[seat]
            page.goto(link)
            choices = page.locator("button[name=choice]")
            offered = tuple(choices.evaluate_all("buttons => buttons.map(b => b.value)"))
            assert offered == rules.legal(state, seat), f"the page offers {offered}"
            if not screenshot.exists():
                page.screenshot(path=str(screenshot), full_page=True)
            action = rules.bot_action(state, seat)
            if action in offered:
                page.locator(f'button[name=choice][value="{action}"]').click()
                clicked += 1
            else:
                # The player wrote another order of the same turn: type it, as a player may.
                page.fill("#action", action)
                page.get_by_role("button", name="Send", exact=True).click()
                typed += 1
            page.wait_for_url(lambda url, link=link: url != link)
            errors = page.locator(".error")
            assert errors.count() == 0, errors.all_inner_texts()
        else:
            pytest.fail(f"no result after {MAX_TURNS} turns")
        assert rules is not None
        outcome = rules.pending(state)
        assert isinstance(outcome, engine.Finished)
        assert len(outcome.outcome.winners) == 1, outcome.outcome.reason
        assert page.get_by_text("This game is over.").is_visible()

        for address in PLAYERS:
            result = wait_for_mail(server.sink, is_mail(game, "result", address), "result mail")
            assert outcome.outcome.reason in text_of(result)
            assert f"{server.url}/games/{game}/audit" in text_of(result)

        assert screenshot.read_bytes().startswith(PNG_MAGIC)
        assert screenshot.stat().st_size > 1000

        audit = pages[0]
        audit.goto(f"{server.url}/games/{game}/audit")
        assert "The log checks out" in audit.inner_text("main")
        assert "every roll and shuffle matches the revealed seed" in audit.inner_text("main")

        verified = server.cli("verify", game)
        assert verified.returncode == 0, verified.stderr
        assert "OK: " in verified.stdout and "matches the revealed seed" in verified.stdout

        _, events = server.log(game)
        rolls = [e["seq"] for e in events if e["kind"] == "roll"]
        forged_seq = rolls[len(rolls) // 2]
        tamper(server.database, game, forged_seq)
        refused = server.cli("verify", game)
        assert refused.returncode == 1, refused.stdout + refused.stderr
        assert f"FAILED at seq {forged_seq} (roll)" in refused.stderr

        audit.goto(f"{server.url}/games/{game}/audit")
        assert f"Problem at event {forged_seq}" in audit.inner_text("main")
    finally:
        for context in contexts:
            context.close()
    elapsed = time.monotonic() - started
    print(
        f"game {game}: {len(events)} events, {clicked} buttons, {typed} typed, "
        f"{from_older_mail} from older links, {elapsed:.1f}s"
    )
