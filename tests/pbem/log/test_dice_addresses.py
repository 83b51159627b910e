"""Dice scheme 2: each chance event's bytes come from the address the rules name for it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pbem.log import audit, dice, export, store
from pbem.log.games import find, load
from pbem.play.act import submit
from pbem.play.start import start_game

from ..pipe import resign_until_over
from .test_independent_checker import rewrite, run_checker

PLAYERS = [("ann@example.org", "Ann"), ("bob@example.org", "Bob")]
Chooser = Callable[[tuple[str, ...]], str]


def banks(legal: tuple[str, ...]) -> str:
    """Stop at the first chance."""
    return next((a for a in legal if a.endswith("stop")), legal[0])


def presses(legal: tuple[str, ...]) -> str:
    """Roll on whenever the rules allow it."""
    return next((a for a in legal if a.endswith("roll")), legal[0])


def new_game(app: Any, **kw: Any) -> str:
    svc = app.extensions["pbem"]
    options = {"first_player": 0}
    return svc.write(
        lambda s: (
            start_game(s, svc.ctx, "martian-dice", PLAYERS, options=options, **kw).game.public_id
        )
    )


def play_until(app: Any, public_id: str, seat0: Chooser, address: str) -> None:
    """Seat 0 picks with its chooser, seat 1 banks, until a roll at `address` is logged."""
    play(app, public_id, seat0, lambda: address in addresses(app, public_id))


MOVES = 200  # far more than two rounds take: a roll never logged fails instead of hanging


def play(app: Any, public_id: str, seat0: Chooser, done: Callable[[], bool]) -> None:
    """Seat 0 picks with its chooser, seat 1 banks, until done (a failure after MOVES moves)."""
    svc = app.extensions["pbem"]
    for _ in range(MOVES):
        if done():
            return
        with svc.db.read() as s:
            loaded = load(s, public_id)
            awaited = loaded.awaited()
            assert awaited, f"the game ended first; {logged(app, public_id)}"
            (seat,) = awaited
            legal = loaded.rules.legal(loaded.state, seat)
            grant = loaded.grant(seat)
        action = seat0(legal) if seat == 0 else banks(legal)
        svc.write(lambda s, g=grant, a=action: submit(s, svc.ctx, g, a))
    raise AssertionError(f"not done after {MOVES} moves; {logged(app, public_id)}")


def logged(app: Any, public_id: str) -> str:
    """The rolls a game has logged, for a failure message: how many, and the last few."""
    found = list(rolls(app, public_id))
    return f"{len(found)} rolls logged, the last at {', '.join(found[-3:])}"


def export_of(app: Any, public_id: str) -> str:
    return app.test_client().get(f"/games/{public_id}/log.jsonl").get_data(as_text=True)


def rolls(app: Any, public_id: str) -> dict[str, dict[str, Any]]:
    """The payload of every roll in the game's log (read from the database), by address.

    Not from the public log.jsonl: a game on a shared stream keeps it from the public while
    another game on the stream is still being played.
    """
    with app.extensions["pbem"].db.read() as session:
        log = store.entries(session, find(session, public_id))
    return {e.payload.get("address", ""): e.payload for e in log if e.kind == "roll"}


def addresses(app: Any, public_id: str) -> set[str]:
    return set(rolls(app, public_id))


def test_tables_sharing_a_seed_see_the_same_faces_after_banking_at_different_times(app):
    early = new_game(app, stream="cup-1", dice_scheme=2)
    late = new_game(app, stream="cup-1", dice_scheme=2)
    play_until(app, early, banks, "round2/seat0/roll1")
    play_until(app, late, presses, "round2/seat0/roll1")

    a, b = rolls(app, early), rolls(app, late)

    assert len(b) > len(a)  # the table that pressed on rolled more in its first turn
    assert a["round1/seat0/roll1"]["values"] == b["round1/seat0/roll1"]["values"]
    assert a["round1/seat1/roll1"]["values"] == b["round1/seat1/roll1"]["values"]
    # a roll of fewer dice reads the first faces of the same bytes
    later_a, later_b = a["round2/seat0/roll1"], b["round2/seat0/roll1"]
    shorter = min(later_a["count"], later_b["count"])
    assert later_a["values"][:shorter] == later_b["values"][:shorter]


def test_a_scheme_2_roll_is_reproduced_from_the_seed_and_its_address(app, client, tmp_path):
    public_id = new_game(app, dice_scheme=2)
    play_until(app, public_id, presses, "round1/seat1/roll1")
    resign_until_over(app, public_id)
    text = export_of(app, public_id)
    header, log = export.parse_export(text)
    seed = next(e.payload["seed"] for e in log if e.kind == "reveal")

    assert log[0].payload["dice_scheme"] == 2
    for e in log:
        if e.kind == "roll":
            p = e.payload
            assert (
                dice.roll(seed, header["stream"], p["address"], p["count"], p["sides"])
                == (p["values"])
            )
    report = audit.verify(header, log)
    assert report.ok and report.complete, report.first_problem
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    assert run_checker(tmp_path, path).returncode == 0


def test_a_scheme_1_game_keeps_counting_its_chance_events(app):
    public_id = new_game(app)
    moves = iter(range(6))
    play(app, public_id, presses, lambda: next(moves, None) is None)
    resign_until_over(app, public_id)
    header, log = export.parse_export(export_of(app, public_id))
    seed = next(e.payload["seed"] for e in log if e.kind == "reveal")
    chances = [e.payload for e in log if e.kind == "roll"]

    assert "dice_scheme" not in log[0].payload
    assert all("address" not in p for p in chances)
    for n, p in enumerate(chances):
        assert dice.roll(seed, header["stream"], n, p["count"], p["sides"]) == p["values"]
    report = audit.verify(header, log)
    assert report.ok and report.complete


def test_verify_refuses_a_roll_moved_to_another_address(app, tmp_path):
    public_id = new_game(app, dice_scheme=2)
    play_until(app, public_id, presses, "round1/seat1/roll1")
    resign_until_over(app, public_id)
    path = tmp_path / "game.jsonl"
    path.write_text(export_of(app, public_id))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    roll = next(e for e in lines[1:] if e["kind"] == "roll")
    roll["payload"]["address"] = "round9/seat0/roll1"
    rewrite(path, lines, rechain=True)

    header, log = export.parse_export(path.read_text())
    problem = audit.verify(header, log).first_problem

    assert problem is not None and problem.seq == roll["seq"]
    assert "the rules name this chance event 'round1/seat0/roll1'" in problem.detail
