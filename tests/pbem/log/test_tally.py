"""The running totals of revealed dice: added to by each reveal, equal to a count from scratch."""

from __future__ import annotations

import json
from collections import Counter

import sqlalchemy as sa
from sqlalchemy import select, update

from pbem.log import tally
from pbem.models import DiceCount, Event
from pbem.play.start import start_game

from ..pipe import PLAYERS, log, mirror, move, resign_until_over, start, svc_of


def counted_from_scratch(app) -> Counter:
    """Every die face and shuffle's first item of the games whose log holds a reveal."""
    found: Counter = Counter()
    with svc_of(app).db.read() as s:
        revealed = set(s.scalars(select(Event.game_id).where(Event.kind == "reveal")))
        for game_id, kind, payload in s.execute(select(Event.game_id, Event.kind, Event.payload)):
            payload = json.loads(payload)
            if game_id not in revealed:
                continue
            if kind == "roll":
                for value in payload["values"]:
                    found["die", payload["sides"], value] += 1
            elif kind == "shuffle" and payload["order"]:
                found["shuffle", len(payload["order"]), payload["order"][0] + 1] += 1
    return found


def totals(app) -> Counter:
    with svc_of(app).db.read() as s:
        return tally.read(s)


def game_of(app, kind: str, players) -> str:
    svc = svc_of(app)
    return svc.write(lambda s: start_game(s, svc.ctx, kind, players).game.public_id)


def test_the_running_totals_equal_a_count_from_scratch(app):
    dice = game_of(app, "martian-dice", PLAYERS)
    city = game_of(app, "martianopolis-500", PLAYERS + (("cy@example.org", "Cy"),))
    playing = start(app)
    for _ in range(6):
        move(app, dice)
        move(app, playing)
    resign_until_over(app, dice)
    resign_until_over(app, city)
    resign_until_over(app, start(app))

    expected = counted_from_scratch(app)

    assert totals(app) == expected
    assert {what for what, _, _ in expected} == {"die", "shuffle"}
    assert sum(n for (what, sides, _), n in expected.items() if sides == 6) > 6


def test_a_shared_streams_dice_count_once_its_last_table_has_ended(app):
    first, second = mirror(app)
    resign_until_over(app, first)
    waiting, last = totals(app), log(app, first)[-1]
    resign_until_over(app, second)

    assert last.kind == "resign" and waiting == Counter()
    assert totals(app) == counted_from_scratch(app) != Counter()


def test_the_dice_audit_reads_the_totals_and_no_event(app, client):
    first = start(app)
    resign_until_over(app, first)
    statements = []

    def seen(conn, cursor, statement, *args):
        statements.append(statement)

    engine = svc_of(app).db.engine
    sa.event.listen(engine, "before_cursor_execute", seen)
    try:
        page = client.get("/audit/dice").get_data(as_text=True)
        answer = client.get("/api/audit/dice").get_json()
    finally:
        sa.event.remove(engine, "before_cursor_execute", seen)

    rolled = sum(n for (what, sides, _), n in totals(app).items() if sides == 2)
    assert f"2-sided dice: {rolled} rolled" in page
    assert answer["tests"][0]["total"] == rolled
    assert statements and not [s for s in statements if "events" in s]


def test_recount_dice_corrects_wrong_totals_and_says_what_it_changed(app, runner):
    resign_until_over(app, start(app))
    right = totals(app)
    (what, sides, face), n = min(right.items())
    with svc_of(app).db.write() as s:
        s.execute(update(DiceCount).where(DiceCount.face == face).values(count=n + 5))

    fixed = runner.invoke(args=["db", "recount-dice"])
    again = runner.invoke(args=["db", "recount-dice"])

    assert fixed.exit_code == 0, fixed.output
    assert f"{sides}-sided die, face {face}: {n + 5:,} -> {n:,}" in fixed.output
    assert totals(app) == right
    assert "the running totals were right" in again.output


def test_an_imported_games_dice_join_the_totals(app, runner, finished_exports, tmp_path):
    path = tmp_path / "city.jsonl"
    path.write_text(finished_exports["martianopolis"])

    imported = runner.invoke(args=["import", str(path)])

    assert imported.exit_code == 0, imported.output
    assert totals(app) == counted_from_scratch(app) != Counter()
