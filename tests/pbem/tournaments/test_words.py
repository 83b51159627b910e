"""What people read about a tournament: numbers as people write them, nouns that agree,
the game's name, who invites, who won, and each game's event, round and opponents."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email.message import EmailMessage
from typing import Any

from sqlalchemy import select

from pbem import clock
from pbem.mail import outbox, transport
from pbem.models import Game
from pbem.play import director as games
from pbem.play.start import player_for
from pbem.tournaments import service, simulate
from pbem.tournaments.core.entries import when
from pbem.tournaments.log import load as load_tournament

from ..pipe import csrf_in, link_in, path_of, sign_in, svc_of

# A number with more than two decimals, as "%g" wrote 2/3 (0.666667) and 1/12 (0.0833333).
LONG_NUMBER = re.compile(r"\b\d+\.\d{3,}\b")
DISAGREES = re.compile(r"\b1 (points|games|hours)\b")


def deliver(app: Any, sink: Any) -> list[EmailMessage]:
    """Send the outbox over SMTP to the sink; every message it holds now."""
    svc = svc_of(app)
    outbox.deliver_due(svc.db, transport.SmtpTransport(sink.url, timeout=5),
                       svc.settings.mail_from)
    return list(sink.messages)


def text_of(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return "\n".join(str(body.get_content()).splitlines())


def html_of(message: EmailMessage) -> str:
    body = message.get_body(("html",))
    assert body is not None
    return str(body.get_content())


def new_event(app: Any, players: int, **fields: Any) -> str:
    """An event of Dee's with players P0.. entered and started."""
    svc = svc_of(app)

    def work(s: Any) -> str:
        dee = player_for(s, "dee@example.org", "Dee")
        held = service.create(s, dee, {"name": "Test cup", "system": "swiss", **fields})
        for n in range(players):
            held = service.register(s, held, player_for(s, f"p{n}@example.org", f"P{n}"))
        return service.start(s, svc.ctx, held, clock.utcnow()).public_id

    return svc.write(work)


def games_of(app: Any, public_id: str) -> list[tuple[str, list[str]]]:
    """Each game of the event with its players' names, in seat order."""
    with svc_of(app).db.read() as s:
        held = load_tournament(s, public_id)
        names = {e.player: e.name for e in held.state.entrants}
        return [(t.game, [names[p] for p in t.seats]) for t in held.state.tables]


def test_points_of_tables_are_written_as_people_write_them_on_pages_mails_and_the_cli(
    smtp_app, smtp_sink
):
    public_id = new_event(smtp_app, 4, kind="martian-dice", table_sizes=[4], rounds=1)
    (game, _), = games_of(smtp_app, public_id)
    simulate.play_out(svc_of(smtp_app), game)
    client = smtp_app.test_client()
    with svc_of(smtp_app).db.read() as s:
        held = load_tournament(s, public_id)
        ranks = held.state.tables[0].result.ranks
    standings = client.get(f"/tournaments/{public_id}/standings").get_data(as_text=True)
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    cli = smtp_app.test_cli_runner().invoke(args=["tournament", "standings", public_id])
    final = [text_of(m) for m in deliver(smtp_app, smtp_sink)
             if "the final standings" in str(m["Subject"])]

    assert sorted(ranks) == [1, 2, 3, 4]  # no shared place: 1, 2/3, 1/3, 0
    for shown in (standings, home, cli.output, *final):
        assert not LONG_NUMBER.search(shown), LONG_NUMBER.search(shown)
        assert not DISAGREES.search(shown), DISAGREES.search(shown)
    assert '<td class="num">0.67</td>' in standings and '<td class="num">0.33</td>' in standings
    assert '<td class="num">0.67</td>' in home
    assert re.search(r"^ +2\. P\d +0\.67 ", cli.output, re.M), cli.output
    assert len(final) == 5  # four players and the director
    second = next(t for t in final if "You are 2nd" in t)
    assert "You are 2nd with 0.67 points from 1 game." in second
    assert any("You are 1st with 1 point from 1 game." in t for t in final)
    card = client.get(f"/tournaments/{public_id}/players/"
                      f"{held.state.entrants[0].player}").get_data(as_text=True)
    assert re.search(r"(1st with 1 point|with 0(\.\d\d)? points) from 1 game\.", card), card


def test_the_event_says_the_games_name_and_the_hours_its_games_get(app, client):
    public_id = new_event(app, 2, kind="martian-dice", deadline_hours=1, rounds=1)
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    with svc_of(app).db.read() as s:
        hours = [g.deadline_hours for g in s.scalars(select(Game))]

    assert "Swiss of Martian Dice, tables of 2." in home and "martian-dice" not in home
    assert "1 hour per decision;" in home
    assert "1 round; a round closes" in home
    assert "when the last game of round 1 ends" in home
    assert hours == [1]


def refused_by_form(app: Any, client: Any, hours: str) -> str:
    page = client.get("/tournaments/new").get_data(as_text=True)
    made = client.post("/tournaments/new", data={
        "name": "Quick cup", "system": "swiss", "kind": "martian-frisby", "rounds": "1",
        "deadline_hours": hours, "timeout_policy": "forfeit", "csrf": csrf_in(page)})
    assert made.status_code == 422
    return made.get_data(as_text=True)


def test_a_deadline_the_games_cannot_have_is_refused_on_the_form_the_api_and_the_cli(
    app, client, runner
):
    sign_in(app, client, "dee@example.org")
    api = client.post("/api/tournaments", json={
        "name": "Quick cup", "system": "swiss", "kind": "martian-frisby", "rounds": 1,
        "deadline_hours": 1.5})
    form_small = refused_by_form(app, client, "0.05")
    form_part = refused_by_form(app, client, "1.5")
    cli = runner.invoke(args=["tournament", "create", "Quick cup", "--system", "swiss",
                              "--kind", "martian-frisby", "--rounds", "1",
                              "--director", "dee@example.org", "--deadline-hours", "0.05"])
    cli_part = runner.invoke(args=["tournament", "create", "Quick cup", "--system", "swiss",
                                   "--kind", "martian-frisby", "--rounds", "1",
                                   "--director", "dee@example.org", "--deadline-hours", "2.5"])
    kept = runner.invoke(args=["tournament", "create", "Quick cup", "--system", "swiss",
                               "--kind", "martian-frisby", "--rounds", "1",
                               "--director", "dee@example.org", "--deadline-hours", "2"])

    assert "hours per decision must be a whole number from 1 to 2,160, not &#39;0.05&#39;" \
        in form_small
    assert "not &#39;1.5&#39;" in form_part
    assert cli.exit_code != 0 and "whole number of hours from 1 to 2,160" in cli.output
    assert "not 0.05" in cli.output
    assert cli_part.exit_code != 0 and "not 2.5" in cli_part.output
    assert kept.exit_code == 0, kept.output
    home = client.get(f"/tournaments/{kept.output.split()[0]}").get_data(as_text=True)
    assert "2 hours per decision;" in home
    assert api.status_code == 422
    assert "deadline_hours must be a whole number of hours" in api.get_data(as_text=True)




def mails_to(messages: list[EmailMessage], address: str, opening: str) -> list[str]:
    return [text_of(m) for m in messages if address in str(m["To"]) and opening in text_of(m)]


def test_every_mail_and_page_of_a_tournament_game_names_the_event_round_and_opponents(
    smtp_app, smtp_sink
):
    public_id = new_event(smtp_app, 4, kind="martian-frisby", rounds=2)
    home = f"http://pbem.test/tournaments/{public_id}"
    first = games_of(smtp_app, public_id)
    sent = deliver(smtp_app, smtp_sink)
    client = smtp_app.test_client()

    paired = [m for m in sent if str(m["Subject"]) == "[Test cup] round 1 is paired"]
    assert sorted(str(m["To"]) for m in paired) == [
        "dee@example.org", *(f"p{n}@example.org" for n in range(4))]
    for game, names in first:
        for me, other in (names, reversed(names)):
            address = f"{me.lower()}@example.org"
            (invite,) = mails_to(sent, address, "in a new game of")
            assert f"Test cup, round 1: this game is against {other}.\n" \
                   f"The event's page, with the standings: {home}" in invite
            (summary,) = [text_of(m) for m in paired if address in str(m["To"])]
            assert f"Round 1, against {other}: game {game}, in play" in summary
        (html,) = [html_of(m) for m in sent if "in a new game of" in text_of(m)
                   and names[0].lower() in str(m["To"])]
        assert f'<a href="{home}">Test cup</a>, round 1: this game is against {names[1]}.' \
            in html
        page = client.get(f"/games/{game}").get_data(as_text=True)
        assert f'A game of <a href="{home}">Test cup</a>, round 1: {names[0]} v {names[1]}.' \
            in page
    turns = [text_of(m) for m in sent if "It is your move in" in text_of(m)]
    assert len(turns) == 2 and all("Test cup, round 1: this game is against P" in t
                                   for t in turns)

    for game, _ in first:
        simulate.play_out(svc_of(smtp_app), game)
    later = deliver(smtp_app, smtp_sink)[len(sent):]
    results = [text_of(m) for m in later if " is over: " in text_of(m)]
    second = [g for g in games_of(smtp_app, public_id) if g not in first]
    invites = [text_of(m) for m in later if "in a new game of" in text_of(m)]

    assert len(results) == 4 and all("Test cup, round 1: this game is against P" in r
                                     for r in results)
    assert len(second) == 2 and len(invites) == 4
    assert all("Test cup, round 2: this game is against P" in i for i in invites)
    assert any("round 2 is paired" in str(m["Subject"]) for m in later)


def test_a_directors_invitation_says_who_invites_and_a_request_from_nobody_says_so(
    app, client, runner
):
    svc_of(app).write(lambda s: player_for(s, "dee@example.org", "Dee").id)
    sign_in(app, client, "dee@example.org")
    page = client.get("/tournaments/new").get_data(as_text=True)
    made = client.post("/tournaments/new", data={
        "name": "Invite cup", "system": "swiss", "kind": "martian-dice", "rounds": "1",
        "deadline_hours": "48", "timeout_policy": "forfeit", "csrf": csrf_in(page)})
    public_id = made.headers["Location"].rsplit("/", 1)[-1]
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    client.post(f"/tournaments/{public_id}/register",
                data={"email": "ann@example.org", "csrf": csrf_in(home)})
    stranger = app.test_client()
    page = stranger.get(f"/tournaments/{public_id}").get_data(as_text=True)
    stranger.post(f"/tournaments/{public_id}/register",
                  data={"email": "bob@example.org", "csrf": csrf_in(page)})
    by_cli = runner.invoke(args=["tournament", "register", public_id, "cy@example.org",
                                 "--mail"])
    from ..pipe import outbox as rows

    mails = {r.to_addr: r for r in rows(app, purpose="register")}

    assert by_cli.exit_code == 0, by_cli.output
    for address in ("ann@example.org", "cy@example.org"):
        text = mails[address].body_text
        assert text.startswith('Hello,\n\nDee, the director, invites you to enter the '
                               'tournament "Invite cup"\n(Martian Dice, Swiss).'), text
        assert "Someone" not in text and "If you do not want to play, ignore" in text
        assert "Dee, the director, invites you" in mails[address].body_html
    bob = mails["bob@example.org"].body_text
    assert 'Someone (we hope you) asked to enter this address in the tournament "Invite cup"' \
        "\n(Martian Dice, Swiss)." in bob
    assert "martian-dice" not in bob and "swiss)" not in bob
    link = link_in(bob, "tournaments/register")
    assert stranger.get(path_of(link)).status_code == 200


def test_an_adjudication_mail_and_page_say_who_won_before_the_reason(smtp_app, smtp_sink):
    public_id = new_event(smtp_app, 2, kind="martian-frisby", rounds=1)
    ((game, names),) = games_of(smtp_app, public_id)
    svc = svc_of(smtp_app)
    sent = len(deliver(smtp_app, smtp_sink))
    svc.write(lambda s: games.adjudicate(s, svc.ctx, game, games.Director("Dee"),
                                         "North's lead cannot be caught", [2, 1]))
    results = [text_of(m) for m in deliver(smtp_app, smtp_sink)[sent:]
               if " is over: " in text_of(m)]
    page = smtp_app.test_client().get(f"/games/{game}").get_data(as_text=True)

    assert len(results) == 2
    for text in results:
        assert f"Martian Frisby game {game} is over: North won, adjudicated by Dee: North's " \
               "lead cannot be caught." in text, text
    assert "North won, adjudicated by Dee: North&#39;s lead cannot be caught" in page


def test_a_moment_is_written_with_its_day_unpadded_and_its_hour_padded():
    # The day's leading zero goes; the hour's stays, whatever the day (a two-digit day once
    # made "Sunday 29 November 2026, 6:10 UTC").
    assert when(datetime(2026, 11, 29, 6, 10, tzinfo=UTC)) == "Sunday 29 November 2026, 06:10 UTC"
    assert when(datetime(2026, 3, 1, 6, 5, tzinfo=UTC)) == "Sunday 1 March 2026, 06:05 UTC"
    assert when(datetime(2026, 3, 1, 16, 0, tzinfo=UTC)) == "Sunday 1 March 2026, 16:00 UTC"
