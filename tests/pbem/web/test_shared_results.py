"""Nothing of a game on a shared dice stream is public until every game on the stream has ended."""

from __future__ import annotations

import json
import re
from typing import Any

from pbem.log import store
from pbem.log.games import load
from pbem.tournaments import simulate

from ..pipe import mirror, play_until_over, svc_of
from ..tournaments.test_duplicate import bank_early_then_bot
from ..tournaments.test_service import held_now, new_event, started

VOLATILE = (
    re.compile(r'name="csrf" value="[^"]*"'),  # each page view's form token
    re.compile(r"DTSTAMP:\w+"),  # when the calendar was made
)


def public_paths(app: Any, public_id: str | None, games: tuple[str, ...]) -> list[str]:
    """Every address a stranger may open that could tell of these games or their event."""
    with svc_of(app).db.read() as s:
        players = sorted({seat.player_id for g in games for seat in load(s, g).game.seats})
    paths = ["/", "/ratings", "/ratings?kind=martian-dice", "/api/ratings",
             "/api/ratings?kind=martian-dice", "/ratings?kind=martian-frisby",
             "/audit/dice", "/api/audit/dice"]
    for player in players:
        paths += [f"/players/{player}", f"/api/players/{player}/ratings"]
    if public_id is not None:
        base, api = f"/tournaments/{public_id}", f"/api/tournaments/{public_id}"
        paths += ["/tournaments/", "/api/tournaments", base, f"{base}/standings",
                  f"{base}/crosstable", f"{base}/games", f"{base}/boards/1", f"{base}/log.jsonl",
                  f"{base}/results.json", f"{base}/standings.csv", f"{base}/deadlines.ics",
                  api, f"{api}/results", f"{api}/games", f"{api}/boards/1"]
        paths += [f"{base}/players/{p}" for p in held_now(app, public_id).state.seeding]
    return paths


def seen(client: Any, paths: list[str]) -> dict[str, tuple[int, str]]:
    """What a stranger gets at each address, less what changes on every view."""
    found = {}
    for path in paths:
        response = client.get(path)
        text = response.get_data(as_text=True)
        for pattern in VOLATILE:
            text = pattern.sub("", text)
        found[path] = (response.status_code, text)
    return found


def telltales(app: Any, public_id: str) -> list[str]:
    """What would show that a game has ended: its head hash, its result's words."""
    with svc_of(app).db.read() as s:
        loaded = load(s, public_id)
        assert loaded.game.status == "finished"
        return [loaded.game.head_hash, loaded.game.head_hash[:16], loaded.outcome.reason]


def assert_nothing_told(before: dict[str, Any], after: dict[str, Any], leaks: list[str]) -> None:
    for path, (status, text) in after.items():
        assert (status, text) == before[path], f"{path} changed when the first game ended"
        assert not [leak for leak in leaks if leak in text], path


def test_a_duplicate_rounds_first_table_to_end_shows_nothing_until_the_last_ends(app, client):
    public_id, _ = new_event(app, kind="martian-dice", rounds=1, duplicate=True)
    early, late = (t.game for t in started(app, public_id).state.tables)
    paths = public_paths(app, public_id, (early, late))
    before = seen(client, paths)
    assert before["/"][1].count("shares its dice with other tables") == 2

    play_until_over(app, early, bank_early_then_bot)

    assert_nothing_told(before, seen(client, paths), telltales(app, early))
    assert held_now(app, public_id).state.by_game[early].result is None

    simulate.play_out(svc_of(app), late)

    logged = [json.loads(line) for line in
              client.get(f"/tournaments/{public_id}/log.jsonl").get_data(as_text=True).splitlines()]
    results = {e["payload"]["game"]: e["payload"] for e in logged if e["kind"] == "result"}
    assert set(results) == {early, late}, "both results are logged once the round has ended"
    with svc_of(app).db.read() as s:
        game = load(s, early).game
        ended = next(e.at for e in reversed(store.entries(s, game)) if e.kind != "reveal")
        assert results[early]["head"] == game.head_hash
    assert results[early]["finished_at"] == ended, "the game's own end, though logged later"
    board = client.get(f"/api/tournaments/{public_id}/boards/1")
    assert board.status_code == 200
    ratings = client.get(f"/api/players/{game.seats[0].player_id}/ratings").get_json()
    assert [p["game"] for pool in ratings["pools"] for p in pool["history"]] == [early, early]


def test_the_first_game_of_a_mirror_match_to_end_shows_nothing_until_the_other_ends(
    app, client
):
    first, second = mirror(app)
    paths = public_paths(app, None, (first, second))
    before = seen(client, paths)

    simulate.play_out(svc_of(app), first)

    assert_nothing_told(before, seen(client, paths), telltales(app, first))

    simulate.play_out(svc_of(app), second)
    with svc_of(app).db.read() as s:
        player = load(s, first).game.seats[0].player_id
    rated = client.get(f"/api/players/{player}/ratings").get_json()
    games = {p["game"] for pool in rated["pools"] for p in pool["history"]}
    assert games == {first, second}, "both games are rated once both have ended"
