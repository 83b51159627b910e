"""The director's dashboard: the event at a glance, and every action from the row it acts on."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

from pbem.log.games import load as load_game
from pbem.models import Game, Player
from pbem.tournaments.log import load

from ..pipe import csrf_in, link_in, outbox, path_of, sign_in, svc_of
from .test_tournament_pages import create_by_form, register_by_mail

ENTRANTS = ("ann@example.org", "bob@example.org", "cy@example.org", "di@example.org")


def text_of(page: str) -> str:
    """The page as a person reads it: tags gone, spaces squeezed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def started_event(app, client) -> str:
    """A Swiss of two rounds with four entrants, started: two games in play."""
    sign_in(app, client, "dee@example.org")
    public_id = create_by_form(client)
    for email in ENTRANTS:
        register_by_mail(app, app.test_client(), public_id, email)
    page = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    started = client.post(f"/tournaments/{public_id}/director",
                          data={"action": "start", "csrf": csrf_in(page)})
    assert started.status_code == 303
    return public_id


def state(app, public_id: str):
    with svc_of(app).db.read() as s:
        return load(s, public_id).state


def names(app, public_id: str) -> dict[str, str]:
    return {e.player: e.name for e in state(app, public_id).entrants}


def post(client, public_id: str, **data: str):
    page = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    return client.post(f"/tournaments/{public_id}/director",
                       data={"csrf": csrf_in(page), **data})


def refusal(response) -> str:
    """Why the page says an action was not done."""
    found = re.search(r'role="alert">Not done: (.*?)</div>', response.get_data(as_text=True))
    return html.unescape(found.group(1)) if found else ""


def test_the_dashboard_shows_the_round_the_entrants_and_who_each_game_awaits(app, client):
    public_id = started_event(app, client)
    t = state(app, public_id)
    page = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    seen = text_of(page)

    assert "Round 1 of 2" in seen and "4 active of 4 entrants" in seen
    assert "Games in play (2)" in seen and "No game is overdue." in seen
    for table in t.tables:
        with svc_of(app).db.read() as s:
            loaded = load_game(s, table.game)
            waiting = ", ".join(loaded.player(x).name for x in loaded.awaited())
        players = " v ".join(names(app, public_id)[p] for p in table.seats)
        assert f"{table.game} · round 1: {players}" in seen
        assert f"Waiting for {waiting} until" in seen
        assert f"Act on game {table.game}" in seen
    assert "Nothing to pair now: round 1 is still open: 2 games are unfinished" in seen
    assert re.search(r"Forecast end: \w+day \d\d \w+ \d{4} \(if every game takes", seen)
    assert "Actions taken (0)" in seen
    # every control has a label: no select or input without one
    ids = set(re.findall(r'<label[^>]* for="([^"]+)"', page))
    controls = re.findall(r'<(?:select|input|textarea)\b(?![^>]*type="hidden")[^>]*>', page)
    assert controls and all(re.search(r'id="([^"]+)"', c).group(1) in ids for c in controls)


def test_overdue_away_and_bouncing_players_are_named_at_a_glance(app, client):
    public_id = started_event(app, client)
    t = state(app, public_id)
    game = t.tables[0].game
    # the away player sits elsewhere: an away player's deadline waits for them
    ann, bob = (t.entrant(p) for p in t.tables[1].seats)
    with svc_of(app).db.write() as s:
        row = s.query(Game).filter_by(public_id=game).one()
        row.await_since = datetime.now(UTC) - timedelta(days=30)
        away = s.get(Player, int(ann.player))
        away.away_from = datetime.now(UTC) - timedelta(days=1)
        away.away_until = datetime(2099, 3, 2, tzinfo=UTC)
        failing = s.get(Player, int(bob.player))
        failing.mail_failing_at = datetime.now(UTC)
        failing.mail_failure = "550 no such user"

    seen = text_of(client.get(f"/tournaments/{public_id}/director").get_data(as_text=True))

    assert f"Overdue: game {game}" in seen and "The next tick applies the timeout policy" in seen
    assert f"Away: {ann.name} until 02 Mar." in seen
    assert f"Mail bounces: {bob.name} (550 no such user)." in seen


def test_the_director_acts_from_the_rows_and_sees_each_action_with_who_and_why(app, client):
    public_id = started_event(app, client)
    t = state(app, public_id)
    first, second = t.tables
    leaver = second.seats[0]
    name = names(app, public_id)[leaver]

    extended = post(client, public_id, action="extend", game=first.game, hours="24",
                    reason="a power cut in her town")
    unconfirmed = post(client, public_id, action="withdraw", player=leaver, reason="moved away")
    withdrawn = post(client, public_id, action="withdraw", player=leaver, reason="moved away",
                     confirm="yes")
    ranks = ["2", "1"]
    adjudicated = post(client, public_id, action="adjudicate", game=first.game, rank=ranks,
                       reason="agreed by both players", confirm="yes")

    assert extended.status_code == 303 and withdrawn.status_code == 303
    assert unconfirmed.status_code == 422
    assert "tick the box to confirm that you withdraw a player" in unconfirmed.get_data(
        as_text=True)
    assert adjudicated.status_code == 303, adjudicated.get_data(as_text=True)
    after = state(app, public_id)
    assert after.by_game[first.game].result is not None
    assert after.by_game[first.game].result.ranks == (2, 1)
    assert after.entrant(leaver).status == "withdrawn"
    seen = text_of(client.get(f"/tournaments/{public_id}/director").get_data(as_text=True))
    assert "Actions taken (3)" in seen
    assert f"gave game {first.game} 24 more hours: “a power cut in her town”" in seen
    assert f"withdrew {name}: “moved away”" in seen
    assert f"adjudicated game {first.game}: “agreed by both players”" in seen
    assert f"{name} (withdrawn)" in seen


def test_a_game_picked_from_the_list_is_extended(app, client):
    public_id = started_event(app, client)
    t = state(app, public_id)
    page = client.get(f"/tournaments/{public_id}/director").get_data(as_text=True)
    picker = re.search(r'<select id="extend-game" name="game">(.*?)</select>', page).group(1)
    options = re.findall(r'<option value="([^"]+)"', picker)
    assert options == [table.game for table in t.tables]

    done = post(client, public_id, action="extend", game=options[1], hours="12",
                reason="asked nicely")

    assert done.status_code == 303
    assert state(app, public_id).by_game[options[1]].extra_hours == 12


def test_another_player_cannot_see_the_dashboard(app, client):
    public_id = started_event(app, client)
    other = app.test_client()
    sign_in(app, other, "ann@example.org")
    assert other.get(f"/tournaments/{public_id}/director").status_code == 403


def test_the_new_event_form_shows_each_setting_for_its_formats_and_the_tiebreak_order(
        app, client):
    sign_in(app, client, "dee@example.org")
    page = client.get("/tournaments/new").get_data(as_text=True)
    rounds = re.search(r'<p class="setting([^"]*)"><label>[^<]*<input type="number" '
                       r'name="rounds"', page).group(1).split()
    wait = re.search(r'<p class="setting([^"]*)"><label>[^<]*<input type="number" '
                     r'name="pair_max_wait_hours"', page).group(1).split()
    assert sorted(rounds) == ["for-round-robin", "for-swiss"]
    assert wait == ["for-rolling-swiss"]
    assert ('form.new-event:has(input[name=system][value="swiss"]:checked) '
            '.setting:not(.for-swiss) { display:none; }') in page
    assert "First tie-break" in text_of(page) and "Fourth tie-break" in text_of(page)

    # a field left filled under another format is hidden, and ignored
    public_id = create_by_form(client, pair_max_wait_hours="12",
                               tiebreak=["wins", "buchholz", "", ""])
    config = state(app, public_id).config
    assert config.tiebreaks == ("wins", "buchholz") and config.rounds == 2
    assert "pair_max_wait_hours" not in config.settings
    home = text_of(client.get(f"/tournaments/{public_id}").get_data(as_text=True))
    assert "Tie-breaks: Wins, Buchholz." in home


def test_a_tiebreak_chosen_twice_is_refused_with_the_form_kept(app, client):
    sign_in(app, client, "dee@example.org")
    page = client.get("/tournaments/new").get_data(as_text=True)
    refused = client.post("/tournaments/new", data={
        "name": "Twice", "system": "swiss", "kind": "martian-frisby", "rounds": "2",
        "tiebreak": ["wins", "wins"], "csrf": csrf_in(page)})
    body = text_of(refused.get_data(as_text=True))
    assert refused.status_code == 422
    assert "Wins is chosen twice as a tie-break" in body and 'value="Twice"' in \
        refused.get_data(as_text=True)


def test_a_co_director_is_told_by_mail_and_directs_but_cannot_add_directors(app, client):
    public_id = started_event(app, client)
    added = post(client, public_id, action="add-director", email="eve@example.org",
                 name="Eve Ellis", reason="I am away next week")
    mail = outbox(app, purpose="directing", to_addr="eve@example.org")

    assert added.status_code == 303
    assert len(mail) == 1 and "you now co-direct this tournament" in mail[0].subject
    assert "has made you a co-director of the tournament \"Winter cup\"" in mail[0].body_text
    assert f"/tournaments/{public_id}/director" in mail[0].body_text
    eve = app.test_client()
    sign_in(app, eve, "eve@example.org")
    seen = text_of(eve.get(f"/tournaments/{public_id}/director").get_data(as_text=True))
    assert "Eve Ellis (co-director)" in seen and "Add a co-director" not in seen
    game = state(app, public_id).tables[0].game
    assert post(eve, public_id, action="extend", game=game, hours="6",
                reason="asked").status_code == 303
    assert post(eve, public_id, action="add-director", email="fay@example.org",
                reason="help").status_code == 403
    lead = text_of(client.get(f"/tournaments/{public_id}/director").get_data(as_text=True))
    assert "made Eve Ellis a co-director: “I am away next week”" in lead
    assert f"Eve Ellis gave game {game} 6 more hours: “asked”" in lead


def test_handing_over_makes_the_new_lead_the_only_director(app, client):
    public_id = started_event(app, client)
    unconfirmed = post(client, public_id, action="hand-over", email="eve@example.org",
                       reason="I am moving")
    handed = post(client, public_id, action="hand-over", email="eve@example.org",
                  reason="I am moving", confirm="yes")
    eve = app.test_client()
    sign_in(app, eve, "eve@example.org")

    assert unconfirmed.status_code == 422 and handed.status_code == 303
    assert handed.headers["Location"].endswith(f"/tournaments/{public_id}")
    assert client.get(f"/tournaments/{public_id}/director").status_code == 403
    assert eve.get(f"/tournaments/{public_id}/director").status_code == 200
    (mail,) = outbox(app, purpose="directing", to_addr="eve@example.org")
    assert "you now lead this tournament" in mail.subject
    assert "they have handed it over to you" in mail.body_text


def test_a_message_is_mailed_to_every_entrant_and_kept_on_the_event_page(app, client):
    public_id = started_event(app, client)
    sent = post(client, public_id, action="message", subject="Round 2 timing",
                text="Round 2 is paired on Monday.\nPlease play your games.")

    assert sent.status_code == 303, refusal(sent)
    for email in (*ENTRANTS, "dee@example.org"):
        (mail,) = outbox(app, purpose="message", to_addr=email)
        assert mail.subject == "[Winter cup] Round 2 timing"
        assert "writes to every entrant" in mail.body_text
        assert "Round 2 is paired on Monday.\nPlease play your games." in mail.body_text
    home = text_of(app.test_client().get(f"/tournaments/{public_id}").get_data(as_text=True))
    assert "From the director Round 2 timing" in home
    assert "Round 2 is paired on Monday. Please play your games." in home
    dash = text_of(client.get(f"/tournaments/{public_id}/director").get_data(as_text=True))
    assert "wrote to every entrant: “Round 2 timing”" in dash


def test_invited_players_get_a_link_from_the_director_and_keep_their_names(app, client):
    sign_in(app, client, "dee@example.org")
    public_id = create_by_form(client)
    done = post(client, public_id, action="invite",
                addresses="Ann Archer <ann@example.org>\n\nbob@example.org\n")
    refused = post(client, public_id, action="invite", addresses="not an address")

    assert done.status_code == 303 and refused.status_code == 422
    assert "is not an address" in text_of(refused.get_data(as_text=True))
    (mail,) = outbox(app, purpose="register", to_addr="ann@example.org")
    assert mail.subject.startswith("[Winter cup]")
    assert ", the director, invites you to enter the tournament \"Winter cup\"" in mail.body_text
    assert "Someone (we hope you)" not in mail.body_text
    visitor = app.test_client()
    path = path_of(link_in(mail.body_text, "tournaments/register"))
    confirm = visitor.get(path).get_data(as_text=True)
    assert visitor.post(path, data={"csrf": csrf_in(confirm)}).status_code == 303
    assert "Ann Archer" in names(app, public_id).values()


def test_the_new_actions_fold_and_verify_from_the_exported_log(app, client, tmp_path):
    public_id = started_event(app, client)
    post(client, public_id, action="add-director", email="eve@example.org", reason="help")
    post(client, public_id, action="message", subject="Hello", text="Welcome to the event.")
    game = state(app, public_id).tables[0].game
    post(client, public_id, action="extend", game=game, hours="5", reason="late start")
    path = tmp_path / "log.jsonl"
    path.write_text(client.get(f"/tournaments/{public_id}/log.jsonl").get_data(as_text=True))

    checked = app.test_cli_runner().invoke(args=["tournament", "verify", str(path)])

    assert checked.exit_code == 0, checked.output
    assert "pairings re-derived alike" in checked.output


def test_my_tournaments_lists_what_i_direct_and_what_i_entered(app, client):
    public_id = started_event(app, client)
    post(client, public_id, action="add-director", email="eve@example.org", reason="help")
    other = create_by_form(client, name="Spring cup")
    t = state(app, public_id)
    ann = app.test_client()
    sign_in(app, ann, ENTRANTS[0])
    eve = app.test_client()
    sign_in(app, eve, "eve@example.org")

    mine = text_of(client.get("/me").get_data(as_text=True))
    theirs = text_of(ann.get("/me").get_data(as_text=True))
    helper = text_of(eve.get("/me").get_data(as_text=True))

    assert "My tournaments Winter cup · running · lead director · director's page" in mine
    assert "Spring cup · open for registration · lead director" in mine
    with svc_of(app).db.read() as s:
        ann_id = str(s.query(Player).filter_by(email=ENTRANTS[0]).one().id)
    assert sum(1 for table in t.tables if ann_id in table.seats) == 1
    assert "Winter cup · running · entrant · 1 game in play" in theirs
    assert "director's page" not in theirs and "Spring cup" not in theirs
    assert "Winter cup · running · co-director" in helper
    assert other != public_id


def test_a_co_director_reads_the_round_summaries_too(app, client):
    public_id = started_event(app, client)
    post(client, public_id, action="add-director", email="eve@example.org", name="Eve",
         reason="help")
    for table in state(app, public_id).tables:
        done = post(client, public_id, action="adjudicate", game=table.game, rank=["1", "2"],
                    reason="played over the board", confirm="yes")
        assert done.status_code == 303, refusal(done)

    (summary,) = outbox(app, purpose="summary", to_addr="eve@example.org")
    assert summary.subject == "[Winter cup] round 2 is paired"
    assert state(app, public_id).last_round() == 2


def test_before_the_start_the_dashboard_lists_the_entrants_and_the_start_button(app, client):
    sign_in(app, client, "dee@example.org")
    public_id = create_by_form(client)
    register_by_mail(app, app.test_client(), public_id, ENTRANTS[0])
    seen = text_of(client.get(f"/tournaments/{public_id}/director").get_data(as_text=True))
    name = next(iter(names(app, public_id).values()))

    assert "Open for registration" in seen and "1 active of 1 entrants" in seen
    assert "Start: close registration and pair" in seen and "Round" not in seen.split("Pairing")[0]
    assert f"Entrants (1) {name} Act on {name}" in seen and f"Withdraw {name}" in seen
    assert f"Disqualify {name}" not in seen  # only once the event runs


def test_a_co_director_sees_on_a_game_page_whose_mail_bounces(app, client):
    public_id = started_event(app, client)
    post(client, public_id, action="add-director", email="eve@example.org",
         name="Eve Ellis", reason="I am away next week")
    game = state(app, public_id).tables[0].game
    with svc_of(app).db.write() as s:
        loaded = load_game(s, game)
        failing = loaded.game.seats[0].player
        failing.mail_failing_at = datetime.now(UTC) - timedelta(hours=1)
        failing_name = failing.name
    stranger, eve = app.test_client(), app.test_client()
    sign_in(app, eve, "eve@example.org")

    seen = text_of(eve.get(f"/games/{game}").get_data(as_text=True))
    public = text_of(stranger.get(f"/games/{game}").get_data(as_text=True))

    assert f"Mail to {failing_name} bounces since" in seen
    assert "bounces" not in public
