"""deadlines.ics read by a strict iCalendar parser: a component always, an end for every
event, one UID per game that stays put across requests and decisions."""

from __future__ import annotations

from datetime import timedelta

import icalendar

from pbem import clock
from pbem.log.games import load
from pbem.play.act import submit
from pbem.play.start import player_for
from pbem.tournaments import service, simulate
from pbem.tournaments.log import load as load_tournament

from ..pipe import svc_of


def calendar_of(client, public_id: str) -> tuple[str, list[icalendar.Event]]:
    """The calendar as served, and its events as the parser reads them."""
    answer = client.get(f"/tournaments/{public_id}/deadlines.ics")
    assert answer.status_code == 200 and answer.mimetype == "text/calendar"
    raw = answer.get_data(as_text=True)
    parsed = icalendar.Calendar.from_ical(raw)
    return raw, list(parsed.walk("VEVENT"))


def assert_strict(raw: str, events: list[icalendar.Event]) -> None:
    """What RFC 5545 asks and strict clients check."""
    assert events, "a calendar needs at least one component"
    assert raw.endswith("\r\n") and "\n" not in raw.replace("\r\n", "")
    assert all(len(line.encode()) <= 75 for line in raw.split("\r\n"))
    for event in events:
        for field in ("UID", "DTSTAMP", "DTSTART", "SUMMARY"):
            assert field in event, (field, event.to_ical())
        assert "DTEND" in event or "DURATION" in event, event.to_ical()
        start, end = event.decoded("DTSTART"), event.end
        assert end > start, event.to_ical()


def event(app, name: str, players: int = 4):
    svc = svc_of(app)

    def work(s):
        director = player_for(s, "dee@example.org", "Dee")
        held = service.create(s, director, {"name": name, "system": "swiss", "rounds": 2,
                                            "kind": "martian-frisby"})
        for n in range(players):
            held = service.register(s, held, player_for(s, f"p{n}@example.org", f"P{n}"))
        return held.public_id

    return svc.write(work)


def test_a_running_events_calendar_keeps_each_games_uid_across_requests_and_decisions(
    app, client
):
    public_id = event(app, "Calendar cup; with, commas and a name long enough to be folded")
    svc = svc_of(app)
    svc.write(lambda s: service.start(s, svc.ctx, load_tournament(s, public_id),
                                      clock.utcnow()))
    raw, first = calendar_of(client, public_id)
    _, again = calendar_of(client, public_id)
    game = sorted(str(e["UID"]) for e in first)[0].split(".")[0]
    with svc.db.read() as s:
        loaded = load(s, game)
        grant = loaded.grant(loaded.awaited()[0])
        action = loaded.rules.bot_action(loaded.state, loaded.awaited()[0])
    svc.write(lambda s: submit(s, svc.ctx, grant, action))
    _, after = calendar_of(client, public_id)

    assert_strict(raw, first)
    uids = [str(e["UID"]) for e in first]
    assert len(uids) == len(set(uids)) == 3  # two games and the forecast end
    assert [str(e["UID"]) for e in again] == uids
    assert sorted(str(e["UID"]) for e in after) == sorted(uids)
    moved = {str(e["UID"]): int(e["SEQUENCE"]) for e in after if "SEQUENCE" in e}
    before = {str(e["UID"]): int(e["SEQUENCE"]) for e in first if "SEQUENCE" in e}
    assert moved[f"{game}.deadline@pbem.test"] > before[f"{game}.deadline@pbem.test"]
    summaries = [str(e["SUMMARY"]) for e in first]
    assert any("Calendar cup; with, commas" in s and "round 1" in s and "to move" in s
               for s in summaries), summaries


def test_a_closed_events_calendar_still_has_a_component_a_strict_parser_accepts(app, client):
    report = simulate.run(svc_of(app), "swiss", "martian-frisby", 4, None, 8, {"rounds": 2})

    raw, events = calendar_of(client, report.public_id)

    assert_strict(raw, events)
    assert len(events) == 1 and str(events[0]["SUMMARY"]).endswith(": over, final standings")


def test_an_event_not_yet_started_has_a_calendar_with_one_component(app, client):
    public_id = event(app, "Early cup", players=1)

    raw, events = calendar_of(client, public_id)

    assert_strict(raw, events)
    assert [str(e["SUMMARY"]) for e in events] == ["Early cup: open for entries"]


def test_a_timetabled_swiss_calendar_carries_the_round_starts_with_stable_uids(app, client):
    svc = svc_of(app)
    due = clock.utcnow().replace(microsecond=0) + timedelta(days=3)

    def work(s):
        director = player_for(s, "dee@example.org", "Dee")
        held = service.create(s, director, {
            "name": "Timed cup", "system": "swiss", "rounds": 3, "kind": "martian-frisby",
            "round_starts": [due.isoformat(), (due + timedelta(days=3)).isoformat()],
            "unfinished_games": "carry"})
        for n in range(4):
            held = service.register(s, held, player_for(s, f"p{n}@example.org", f"P{n}"))
        return service.start(s, svc.ctx, held, clock.utcnow()).public_id

    public_id = svc.write(work)
    raw, events = calendar_of(client, public_id)
    _, again = calendar_of(client, public_id)

    assert_strict(raw, events)
    rounds = {str(e["UID"]): e for e in events if ".round" in str(e["UID"])}
    assert sorted(rounds) == [f"{public_id}.round2@pbem.test", f"{public_id}.round3@pbem.test"]
    assert sorted(str(e["UID"]) for e in again if ".round" in str(e["UID"])) == sorted(rounds)
    first = rounds[f"{public_id}.round2@pbem.test"]
    assert first.decoded("DTSTART") == due
    assert str(first["SUMMARY"]) == "Timed cup: round 2 starts by now"
