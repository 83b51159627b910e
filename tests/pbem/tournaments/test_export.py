"""The results export: its shape, the standings CSV, and standings recomputed from it alone."""

from __future__ import annotations

import json

import pytest

from pbem.tournaments.core.errors import InvalidEvent
from pbem.tournaments.core.export import results, standings_csv, standings_from_results
from pbem.tournaments.core.standings import standings

from .logs import Log
from .simulate import run


def players(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(1, n + 1)]


def small() -> Log:
    log = Log("swiss", rounds=2).register("ann", "bob", "cid").start()
    log.pair(1, [["ann", "bob"]], byes=[("cid", 1)])
    log.result("g1", [2, 1], scores=[3, 7], flags=["bot"])
    log.pair(2, [["cid", "ann"]], byes=[("bob", 1)])
    return log


def test_the_export_has_the_documented_shape():
    export = results(small().tournament(), "t-17")
    assert list(export) == ["format", "version", "tournament", "kind", "system", "scoring",
                            "tiebreaks", "players", "games", "byes", "standings"]
    assert export["format"] == "pbem-tournament-results" and export["version"] == 1
    assert export["tournament"] == "t-17" and export["system"] == "swiss"
    assert export["scoring"] == {"by": "places"}
    assert export["players"][0] == {"id": "ann", "name": "Ann", "status": "active"}
    first, second = export["games"]
    assert first == {
        "game": "g1", "round": 1, "paired_at": "2026-03-01T17:00:00+00:00",
        "finished_at": "2026-03-01T18:00:00+00:00",
        "seats": [{"player": "ann", "seat": 0, "rank": 2, "score": 3},
                  {"player": "bob", "seat": 1, "rank": 1, "score": 7}],
        "flags": ["bot"],
    }
    assert second["finished_at"] is None and second["seats"][0]["rank"] is None
    assert export["byes"][0] == {"player": "cid", "round": 1, "points": 1}
    assert export["standings"][0] == {
        "player": "bob", "place": 1, "points": 2,
        "tiebreaks": {"sonneborn-berger": 0, "buchholz-cut-1": 0, "direct-encounter": 0,
                      "wins": 1},
    }
    json.dumps(export)  # all of it is JSON


def test_annulled_games_are_flagged_in_the_export():
    log = small()
    log.director("annul", game="g1")
    (game, _) = results(log.tournament(), 1)["games"]
    assert game["flags"] == ["bot", "annulled"]


@pytest.mark.parametrize(("system", "sizes", "n", "create"), [
    ("swiss", (2,), 9, {"rounds": 5}),
    ("swiss", (4,), 12, {"rounds": 4}),
    ("swiss", (3, 4), 11, {"rounds": 3, "scoring": {"by": "game-points"}}),
    ("round-robin", (2,), 6, {"rounds": 2}),
    ("knockout", (2,), 7, {}),
])
def test_the_export_alone_is_enough_to_recompute_the_standings(system, sizes, n, create):
    log = run(Log(system, table_sizes=sizes, **create).register(*players(n)).start(), seed=5,
              timeouts=0.3)
    t = log.tournament()
    export = json.loads(json.dumps(results(t, "x")))
    again = standings_from_results(export)
    rows = standings(t)
    assert [(r.player, r.place, round(r.points, 6)) for r in again] == [
        (r.player, r.place, round(r.points, 6)) for r in rows]
    for recounted, shown in zip(again, rows, strict=True):
        assert dict(recounted.tiebreaks) == pytest.approx(dict(shown.tiebreaks))
    assert any("annulled" in g["flags"] for g in export["games"]) or system == "knockout"


def test_only_a_results_export_is_recounted():
    with pytest.raises(InvalidEvent, match="not a pbem-tournament-results version 1 object"):
        standings_from_results({"format": "pbem-log", "version": 1})


def test_the_standings_csv_lists_places_points_and_tiebreaks():
    text = standings_csv(standings(small().tournament()))
    assert text.splitlines() == [
        "place,player,name,status,points,sonneborn-berger,buchholz-cut-1,direct-encounter,wins",
        "1,bob,Bob,active,2,0,0,0,1",
        "2,cid,Cid,active,1,0,0,0,0",
        "3,ann,Ann,active,0,0,0,0,0",
    ]
