"""A tournament's kept fold and its crosstable: never stale, the pages as the exports say."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from dataclasses import replace
from html.parser import HTMLParser
from types import SimpleNamespace

from sqlalchemy import select

from pbem.models import TournamentFold
from pbem.play.start import player_for
from pbem.tournaments import log, reports, service, simulate
from pbem.tournaments.core import stored
from pbem.tournaments.core.fold import fold
from pbem.tournaments.log import FOLDS, Folded, core_events, entries, load
from pbem.web import tournaments as pages

from ..pipe import svc_of

FIELDS = {"name": "Kept cup", "system": "swiss", "kind": "martian-frisby", "rounds": 2,
          "deadline_hours": 48, "timeout_policy": "forfeit", "rated": False}


def new_event(svc) -> str:
    return svc.write(lambda s: service.create(s, player_for(s, "dee@example.org"),
                                              FIELDS).public_id)


def enter(svc, public_id: str, email: str) -> None:
    def work(session):
        service.register(session, load(session, public_id, for_update=True),
                         player_for(session, email), None)
    svc.write(work)


def test_a_kept_fold_is_never_served_after_a_new_event(app, client):
    svc = svc_of(app)
    public_id = new_event(svc)
    for n, email in enumerate(["ann@example.org", "bob@example.org", "cy@example.org"], 1):
        shown = client.get(f"/tournaments/{public_id}").get_data(as_text=True)  # kept now
        enter(svc, public_id, email)

        home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
        api = client.get(f"/api/tournaments/{public_id}").get_json()
        standings = client.get(f"/tournaments/{public_id}/standings").get_data(as_text=True)

        assert f"Entrants ({n - 1})" in shown
        assert f"Entrants ({n})" in home and api["entrants"] == n
        assert len(api["standings"]) == n and standings.count("<details") == n
    with svc.db.read() as session:
        first, again = load(session, public_id), load(session, public_id)
        whole = fold(core_events(entries(session, first.row)))
    assert first.fold is again.fold  # one fold for every answer of one head
    assert first.state == whole


def test_a_fold_kept_for_another_log_with_the_same_id_is_never_a_start(app, client):
    svc = svc_of(app)
    public_id = new_event(svc)
    enter(svc, public_id, "ann@example.org")
    with svc.db.read() as session:
        held = load(session, public_id)
        row_id, seq = held.row.id, held.row.head_seq
        create, entered = core_events(entries(session, held.row))
        # Another log as long as this one, with someone else entered.
        other = fold([create, replace(entered, payload={**entered.payload, "name": "Mallory",
                                                        "player": "999"})])
    FOLDS.clear()
    # What another database's tournament with this id and a shorter log would leave here.
    FOLDS.keep(SimpleNamespace(id=row_id, head_seq=seq, head_hash="f" * 64), Folded(other))
    enter(svc, public_id, "bob@example.org")

    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)

    assert "Entrants (2)" in home and "Mallory" not in home
    with svc.db.read() as session:
        again = load(session, public_id)
        assert again.state == fold(core_events(entries(session, again.row)))


def stored_fold(svc, public_id: str) -> TournamentFold | None:
    with svc.db.read() as session:
        row = load(session, public_id).row
        return session.scalars(select(TournamentFold).where(
            TournamentFold.tournament_id == row.id)).first()


def read_from(monkeypatch) -> list[int]:
    """The seqs after which the log is read from now on (-1: the whole log)."""
    seen: list[int] = []

    def reading(session, tournament, after=-1, kinds=None):
        seen.append(after)
        return entries(session, tournament, after, kinds)
    monkeypatch.setattr(log, "entries", reading)
    return seen


def test_a_stored_fold_is_loaded_by_a_new_process_and_never_served_stale(app, client,
                                                                         monkeypatch):
    monkeypatch.setattr(log, "FOLD_EVERY", 2)
    svc = svc_of(app)
    public_id = new_event(svc)
    enter(svc, public_id, "ann@example.org")  # seq 1
    assert stored_fold(svc, public_id) is None
    enter(svc, public_id, "bob@example.org")  # seq 2: stored with the event that made it
    kept = stored_fold(svc, public_id)
    assert kept is not None and kept.seq == 2 and kept.version == log.STORED
    enter(svc, public_id, "cy@example.org")  # seq 3: the stored fold is one event behind
    FOLDS.clear()  # a new process
    seen = read_from(monkeypatch)

    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    api = client.get(f"/api/tournaments/{public_id}").get_json()

    assert "Entrants (3)" in home and api["entrants"] == 3
    assert seen == [2]  # only the event after the stored fold was read
    with svc.db.read() as session:
        held = load(session, public_id)
        assert held.state == fold(core_events(entries(session, held.row)))
    FOLDS.clear()
    enter(svc, public_id, "dee2@example.org")  # seq 4: stored again
    assert stored_fold(svc, public_id).seq == 4
    assert "Entrants (4)" in client.get(f"/tournaments/{public_id}").get_data(as_text=True)


def test_a_stored_fold_of_another_log_or_version_is_never_read(app, client, monkeypatch):
    svc = svc_of(app)
    public_id = new_event(svc)
    for email in ("ann@example.org", "bob@example.org"):
        enter(svc, public_id, email)
    with svc.db.read() as session:
        row = load(session, public_id).row
        create, ann, bob = core_events(entries(session, row))
        row_id, ann_hash = row.id, entries(session, row)[1].hash
    mallory = replace(ann, payload={**ann.payload, "name": "Mallory", "player": "999"})
    other = fold([create, mallory])

    def stored_as(digest: str, version: str) -> None:
        def work(session):
            log.store(session, row_id, digest, other)
            session.get(TournamentFold, row_id).version = version
        svc.write(work)
        FOLDS.clear()

    for digest, version in (("f" * 64, log.STORED), (ann_hash, "0/another shape")):
        stored_as(digest, version)
        seen = read_from(monkeypatch)
        home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
        assert "Entrants (2)" in home and "Mallory" not in home
        assert seen == [-1]  # the whole log folded again
        monkeypatch.undo()
    for damaged in ("[1, 2]", "{not json"):  # a row that does not read back: folded again
        stored_as(ann_hash, log.STORED)
        svc.write(lambda s, damaged=damaged: setattr(s.get(TournamentFold, row_id), "state",
                                                     damaged))
        seen = read_from(monkeypatch)
        assert "Entrants (2)" in client.get(f"/tournaments/{public_id}").get_data(as_text=True)
        assert seen == [-1]
        monkeypatch.undo()
    stored_as(ann_hash, log.STORED)  # the same hash: taken as this log's (a cache trusts it)
    assert "Mallory" in client.get(f"/tournaments/{public_id}").get_data(as_text=True)


def test_folding_on_from_a_fold_stored_at_a_random_event_gives_the_whole_fold(app):
    svc = svc_of(app)
    report = simulate.run(svc, "swiss", "martian-frisby", 6, None, 3, {"rounds": 2})
    with svc.db.read() as session:
        held = load(session, report.public_id)
        log_entries = entries(session, held.row)
        whole = fold(core_events(log_entries))
    rng = random.Random(5)
    for seq in sorted(rng.sample(range(1, len(log_entries)), 6)):
        svc.write(lambda s, seq=seq: log.store(
            s, held.row.id, log_entries[seq].hash,
            fold(core_events(log_entries[: seq + 1]))))
        FOLDS.clear()
        with svc.db.read() as session:
            again = load(session, report.public_id)
            assert again.state == whole, f"stored at {seq}"
            assert again.standings == held.standings
    assert stored.load(json.loads(json.dumps(stored.dump(whole)))) == whole


class Lines(HTMLParser):
    """The crosstable's lines as cell texts (the rows with an id rank-N)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr" and (dict(attrs).get("id") or "").startswith("rank-"):
            self.row = []
        elif tag == "td" and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "td" and self.row is not None and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def test_the_paged_crosstable_shows_the_same_results_as_the_export(app, client, monkeypatch):
    monkeypatch.setattr(reports, "CROSSTABLE_ROWS", 3)
    report = simulate.run(svc_of(app), "swiss", "martian-frisby", 7, None, 5, {"rounds": 2})
    base = f"/tournaments/{report.public_id}"
    exported = list(csv.reader(io.StringIO(client.get(f"{base}/crosstable.csv")
                                           .get_data(as_text=True))))
    as_json = client.get(f"{base}/crosstable.json").get_json()
    shown = []
    for page in (1, 2, 3):
        lines = Lines()
        lines.feed(client.get(f"{base}/crosstable?page={page}").get_data(as_text=True))
        assert len(lines.rows) == (3 if page < 3 else 1)
        shown += lines.rows
    beyond = client.get(f"{base}/crosstable?page=4")

    header, body = exported[0], exported[1:]
    assert header[:7] == ["rank", "place", "player", "name", "status", "round 1", "round 2"]
    assert len(body) == 7 == len(shown)
    for page_row, row in zip(shown, body, strict=True):
        assert page_row[0] == row[0]  # the rank
        assert page_row[1].startswith(row[3])  # the name
        assert page_row[2:] == row[5:]  # every round's marks, the points, the tie-breaks
    marks = [cell for row in body for cell in row[5:7]]
    assert sum(cell.startswith("bye ") for cell in marks) == 2  # 7 players: a bye a round
    assert all(cell.split()[-1] in ("1", "½", "0") for cell in marks if "bye" not in cell)
    assert [[m["text"] for m in cell] for cell in as_json["lines"][0]["cells"]] == \
        [[body[0][5]], [body[0][6]]]
    opponent = as_json["lines"][0]["cells"][0][0]
    if opponent["game"] is not None:  # the rank given is the opponent's line
        (theirs,) = [line for line in as_json["lines"] if line["rank"] == opponent["opponents"][0]]
        assert theirs["cells"][0][0]["game"] == opponent["game"]
    assert beyond.status_code == 404 and "its pages are 1 to 3" in beyond.get_data(as_text=True)
    assert json.loads(json.dumps(as_json))["format"] == "pbem-crosstable"


def test_the_standings_and_the_games_come_a_page_at_a_time(app, client, monkeypatch):
    monkeypatch.setattr(pages, "STANDINGS_PAGE", 3)
    monkeypatch.setattr(pages, "GAMES_PAGE", 2)
    report = simulate.run(svc_of(app), "swiss", "martian-frisby", 5, None, 4, {"rounds": 2})
    base = f"/tournaments/{report.public_id}"
    exported = list(csv.DictReader(io.StringIO(client.get(f"{base}/standings.csv")
                                               .get_data(as_text=True))))
    games = client.get(f"/api/tournaments/{report.public_id}/games").get_json()
    standings = [client.get(f"{base}/standings?page={n}").get_data(as_text=True) for n in (1, 2)]
    listed = [client.get(f"{base}/games?page={n}").get_data(as_text=True) for n in (1, 2)]

    lines = [re.findall(r'<summary><a href="[^"]*">([^<]+)</a>', page) for page in standings]
    assert lines == [[row["name"] for row in exported[:3]], [row["name"] for row in exported[3:]]]
    assert "Players 4 to 5 of 5" in standings[1]
    newest = [g["game"] for g in games][::-1]  # the API lists them in pairing order
    assert len(newest) == 4
    assert all(g in listed[0] for g in newest[:2]) and not any(g in listed[0] for g in newest[2:])
    assert all(g in listed[1] for g in newest[2:])
    assert client.get(f"{base}/games?page=3").status_code == 404
    # Each page links to the others and marks itself.
    assert '<strong aria-current="page">2</strong>' in standings[1]
    assert f'href="{base}/standings?page=1"' in standings[1]
    assert '<strong aria-current="page">1</strong>' in listed[0]
    assert f'href="{base}/games?page=2"' in listed[0]
