"""Messages and co-directors from the API and the command line, as on the director's page."""

from __future__ import annotations

from sqlalchemy import select

from pbem.models import Player
from pbem.tournaments.log import load

from ..pipe import outbox, svc_of
from .test_api import api_token_for, bearer


def created(runner, name: str = "Api cup", rounds: int = 1, director: str = "dee@example.org",
            people: tuple[str, ...] = ("Ann <ann@example.org>", "Bob <bob@example.org>")) -> str:
    made = runner.invoke(args=[
        "tournament", "create", name, "--system", "swiss", "--kind", "martian-frisby",
        "--rounds", str(rounds), "--director", director])
    assert made.exit_code == 0, made.output
    public_id = made.output.split()[0]
    entered = runner.invoke(args=["tournament", "register", public_id, *people])
    assert entered.exit_code == 0, entered.output
    return public_id


def test_the_director_messages_and_adds_a_co_director_through_the_api(app, client, runner):
    public_id = created(runner)
    dee = bearer(api_token_for(app, "dee@example.org"))
    ann = bearer(api_token_for(app, "ann@example.org"))

    sent = client.post(f"/api/tournaments/{public_id}/messages", headers=dee,
                       json={"subject": "Welcome", "text": "Games start on Monday."})
    refused = client.post(f"/api/tournaments/{public_id}/messages", headers=ann,
                          json={"subject": "Spam", "text": "Buy dice."})
    added = client.post(f"/api/tournaments/{public_id}/directors", headers=dee,
                        json={"email": "eve@example.org", "name": "Eve", "reason": "help"})
    listed = client.get(f"/api/tournaments/{public_id}/messages").get_json()

    assert sent.status_code == 201 and refused.status_code == 403
    assert added.status_code == 201 and len(added.get_json()["directors"]) == 2
    assert [(m["subject"], m["text"]) for m in listed] == [("Welcome", "Games start on Monday.")]
    assert len(outbox(app, purpose="message", to_addr="ann@example.org")) == 1
    eve = bearer(api_token_for(app, "eve@example.org"))
    again = client.post(f"/api/tournaments/{public_id}/directors", headers=eve,
                        json={"email": "fay@example.org", "reason": "more help"})
    assert again.status_code == 403


def test_the_operator_messages_and_hands_over_from_the_command_line(app, runner):
    public_id = created(runner)
    said = runner.invoke(args=["tournament", "message", public_id, "Rules",
                               "--text", "Play fair."])
    handed = runner.invoke(args=["tournament", "add-director", public_id,
                                 "Eve Ellis <eve@example.org>", "--reason", "Dee retired",
                                 "--hand-over"])

    assert said.exit_code == 0, said.output
    assert handed.exit_code == 0 and "now leads it" in handed.output
    (mail,) = outbox(app, purpose="message", to_addr="bob@example.org")
    assert "the operator, who directs \"Api cup\", writes to every entrant" in mail.body_text
    with svc_of(app).db.read() as s:
        held = load(s, public_id)
        assert held.state.messages[0].text == "Play fair."
        lead = held.row.director_id
    assert len(held.state.directors) == 1 and held.state.directors == (str(lead),)
    (told,) = outbox(app, purpose="directing", to_addr="eve@example.org")
    assert "you now lead this tournament" in told.subject
    with svc_of(app).db.read() as s:
        assert s.get(Player, lead).email == "eve@example.org"
    verified = runner.invoke(args=["tournament", "verify", public_id])
    assert verified.exit_code == 0, verified.output


def test_the_operators_extension_and_replacement_of_a_tournament_game_go_through_the_event(
        app, runner):
    public_id = created(runner)
    assert runner.invoke(args=["tournament", "start", public_id]).exit_code == 0
    with svc_of(app).db.read() as s:
        table = load(s, public_id).state.tables[0]
        game, seated = table.game, load(s, public_id).state.entrant(table.seats[1])

    extended = runner.invoke(args=["director", "extend", game, "--hours", "12",
                                   "--reason", "the server was down"])
    replaced = runner.invoke(args=["director", "replace", game, "--seat", "1",
                                   "--player", "Cy Cole <cy@example.org>",
                                   "--reason", "Bob cannot play"])

    assert extended.exit_code == 0 and replaced.exit_code == 0, extended.output + replaced.output
    with svc_of(app).db.read() as s:
        held = load(s, public_id)
        names = [e.name for e in held.state.entrants]
    assert held.state.by_game[game].extra_hours == 12  # the event's log has the extension
    assert "Cy Cole" in names and seated.name not in names  # and the entrant was replaced
    gone = "ann@example.org" if seated.name == "Ann" else "bob@example.org"
    assert len(outbox(app, purpose="notice", to_addr=gone)) >= 1  # who was told


def four_entered(runner) -> str:
    return created(runner, "Action cup", 2, "Dee <dee@example.org>",
                   ("Ann <ann@example.org>", "Bob <bob@example.org>", "Cy <cy@example.org>",
                    "Di <di@example.org>"))


def ids(app, *emails: str) -> list[str]:
    with svc_of(app).db.read() as s:
        return [str(s.scalars(select(Player).where(Player.email == e)).one().id) for e in emails]


def test_every_director_action_of_the_page_is_in_the_api_with_players_by_address(
        app, client, runner):
    public_id = four_entered(runner)
    dee = bearer(api_token_for(app, "dee@example.org"))
    ann = bearer(api_token_for(app, "ann@example.org"))
    url = f"/api/tournaments/{public_id}/actions"

    forbidden = client.post(url, headers=dee, json={
        "action": "forbid", "player": "ann@example.org", "other": "bob@example.org",
        "reason": "they are married"})
    not_theirs = client.post(url, headers=ann, json={"action": "start"})
    unknown = client.post(url, headers=dee, json={
        "action": "forbid", "player": "zed@example.org", "other": "bob@example.org",
        "reason": "no"})
    started = client.post(url, headers=dee, json={"action": "start"})
    nameless = client.post(url, headers=dee, json={"reason": "no action named"})

    assert forbidden.status_code == 200, forbidden.get_json()
    assert forbidden.get_json()["done"] == "Done: forbid."
    assert not_theirs.status_code == 403
    assert unknown.status_code == 422
    assert unknown.get_json()["message"] == "zed@example.org has not entered Action cup"
    assert started.status_code == 200 and started.get_json()["status"] == "running"
    assert nameless.status_code == 422
    assert nameless.get_json()["message"].startswith("unknown action '': the actions are ")
    assert "withdraw" in nameless.get_json()["message"]
    ann_id, bob_id = ids(app, "ann@example.org", "bob@example.org")
    with svc_of(app).db.read() as s:
        held = load(s, public_id)
        tables = held.state.tables
        assert held.state.forbidden and {ann_id, bob_id} not in [set(t.seats) for t in tables]
    game = next(t.game for t in tables if ann_id in t.seats)
    seat_of_ann = next(t.seats for t in tables if t.game == game).index(ann_id)

    unconfirmed = client.post(url, headers=dee, json={
        "action": "adjudicate", "game": game, "rank": [1, 2], "reason": "Ann was ahead"})
    ranks = [1, 2] if seat_of_ann == 0 else [2, 1]
    adjudicated = client.post(url, headers=dee, json={
        "action": "adjudicate", "game": game, "rank": ranks, "reason": "Ann was ahead",
        "confirm": True})
    withdrawn = client.post(url, headers=dee, json={
        "action": "withdraw", "player": "cy@example.org", "reason": "moved abroad",
        "confirm": True})

    assert unconfirmed.status_code == 422
    assert "confirm that you adjudicate a game" in unconfirmed.get_json()["message"]
    assert adjudicated.status_code == 200, adjudicated.get_json()
    assert withdrawn.status_code == 200, withdrawn.get_json()
    with svc_of(app).db.read() as s:
        held = load(s, public_id)
        assert held.state.by_game[game].result.ranks == tuple(ranks)
        assert held.state.entrant(ids(app, "cy@example.org")[0]).status == "withdrawn"
    told = [m for m in outbox(app, to_addr="cy@example.org") if "withdrawn" in m.subject]
    assert len(told) == 1 and "Dee withdrew you from Action cup (moved abroad)" in \
        " ".join(told[0].body_text.split())
    assert runner.invoke(args=["tournament", "verify", public_id]).exit_code == 0


def test_the_operator_disqualifies_forbids_gives_a_bye_and_takes_back_from_the_command_line(
        app, runner):
    public_id = four_entered(runner)
    invited = runner.invoke(args=["tournament", "invite", public_id, "Eve <eve@example.org>"])
    forbade = runner.invoke(args=["tournament", "forbid", public_id, "ann@example.org",
                                  "bob@example.org", "--reason", "same club"])
    nobody = runner.invoke(args=["tournament", "disqualify", public_id, "zed@example.org",
                                 "--reason", "cheating"])
    # Eve is invited, not entered: the operator is told so, in words, and nothing is made.
    outsider = runner.invoke(args=["tournament", "withdraw", public_id, "eve@example.org",
                                   "--reason", "asked to"])
    stranger = runner.invoke(args=["tournament", "replace", public_id, "zed@example.org",
                                   "Zoe <zoe@example.org>", "--reason", "asked to"])

    assert invited.exit_code == 0 and "registration links mailed to Eve" in invited.output
    assert len(outbox(app, to_addr="eve@example.org")) == 1
    assert forbade.exit_code == 0, forbade.output
    assert nobody.exit_code != 0 and "nobody has the address zed@example.org" in nobody.output
    assert outsider.exit_code != 0
    assert "eve@example.org has not entered Action cup" in outsider.output
    assert stranger.exit_code != 0 and "nobody has the address zed@example.org" in stranger.output
    with svc_of(app).db.read() as s:
        made = s.scalars(select(Player.email).where(Player.email.like("z%"))).all()
    assert made == []
    assert runner.invoke(args=["tournament", "start", public_id]).exit_code == 0
    with svc_of(app).db.read() as s:
        state = load(s, public_id).state
    first = state.tables[0].game
    bad_bye = runner.invoke(args=["tournament", "bye", public_id, "di@example.org",
                                  "--points", "lots", "--reason", "late"])
    gave = runner.invoke(args=["tournament", "bye", public_id, "di@example.org",
                               "--points", "0.5", "--reason", "asked for a rest"])
    took_back = runner.invoke(args=["tournament", "undo", public_id, first,
                                    "--reason", "wrong colours"])
    disqualified = runner.invoke(args=["tournament", "disqualify", public_id, "bob@example.org",
                                       "--reason", "abusive mails"])

    assert bad_bye.exit_code != 0 and "--points must be a number" in bad_bye.output
    assert gave.exit_code == 0
    assert ("di@example.org is given 0.5 points without a game (and is paired as before); "
            "they are told by mail") in gave.output
    assert took_back.exit_code == 0, took_back.output
    assert disqualified.exit_code == 0, disqualified.output
    bob = ids(app, "bob@example.org")[0]
    with svc_of(app).db.read() as s:
        state = load(s, public_id).state
        assert state.entrant(bob).status == "disqualified"
        assert [u.table.game for u in state.undone] == [first]
        assert [u.reason for u in state.undone] == ["wrong colours"]
    assert runner.invoke(args=["tournament", "verify", public_id]).exit_code == 0
