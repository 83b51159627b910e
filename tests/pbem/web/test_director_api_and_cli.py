"""Messages and co-directors from the API and the command line, as on the director's page."""

from __future__ import annotations

from pbem.models import Player
from pbem.tournaments.log import load

from ..pipe import outbox, svc_of
from .test_api import api_token_for, bearer


def created(runner) -> str:
    made = runner.invoke(args=[
        "tournament", "create", "Api cup", "--system", "swiss", "--kind", "martian-frisby",
        "--rounds", "1", "--director", "dee@example.org"])
    assert made.exit_code == 0, made.output
    public_id = made.output.split()[0]
    entered = runner.invoke(args=["tournament", "register", public_id,
                                  "Ann <ann@example.org>", "Bob <bob@example.org>"])
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
