"""`pbem tournament` and `pbem ratings`: what a director does from the command line."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace

from pbem.config import load_settings
from pbem.log.chain import canonical_json
from tests.conftest import TEST_KEY, make_app

PLAYERS = ["Ann <ann@example.org>", "Bob <bob@example.org>", "cy@example.org",
           "di@example.org"]


def run(runner, *args):
    return runner.invoke(args=list(args))


def created(runner, *extra) -> str:
    made = run(runner, "tournament", "create", "Spring open", "--system", "swiss",
               "--kind", "martian-frisby", "--rounds", "2", "--director", "dee@example.org",
               *extra)
    assert made.exit_code == 0, made.output
    return made.output.split()[0]


def test_a_director_runs_an_event_from_the_command_line(app, runner):
    public_id = created(runner)
    entered = run(runner, "tournament", "register", public_id, *PLAYERS)
    started = run(runner, "tournament", "start", public_id)
    early = run(runner, "tournament", "pair", public_id)
    table = run(runner, "tournament", "standings", public_id, "--explain")
    listed = run(runner, "tournament", "list")

    assert entered.output.strip() == "4 players registered"
    assert started.exit_code == 0 and "4 players, 2 games paired" in started.output
    assert early.exit_code == 1 and "round 1 is still open" in early.output
    assert "Tie-breaks, in order: Sonneborn-Berger" in table.output
    heading, first = table.output.splitlines()[2:4]
    assert heading.split()[:2] == ["Player", "Points"] and first.lstrip().startswith("1. ")
    end = heading.index("Points") + len("Points")  # each figure right-aligned under its title
    assert first[end - 1] == "0" and first[end] == " "
    assert "Ann" in table.output and "Points = 0" in table.output
    heading, row = listed.output.splitlines()
    assert heading.split() == ["Id", "Status", "Format", "Game", "Name"]
    assert row.split() == [public_id, "running", "swiss", "martian-frisby", "Spring", "open"]


def test_a_list_of_no_tournaments_says_how_to_make_one(runner):
    listed = run(runner, "tournament", "list")
    assert listed.output == "No tournaments yet: `pbem tournament create` makes one.\n"


def test_starting_with_only_mailed_links_says_how_many_entered_and_how_they_enter(runner):
    """Links mailed are not entries: a director who starts too early is told so, in words,
    and the event keeps taking entries."""
    public_id = created(runner)
    mailed = run(runner, "tournament", "register", public_id, "--mail", *PLAYERS[:3])
    one = run(runner, "tournament", "register", public_id, PLAYERS[3])
    started = run(runner, "tournament", "start", public_id)
    listed = run(runner, "tournament", "list")

    assert mailed.output.strip() == "3 registration links mailed"
    assert one.output.strip() == "1 player registered"
    assert started.exit_code == 1
    assert started.output.strip() == (
        "Error: Spring open cannot start: 1 player has entered, and a Swiss needs at least "
        "2. A player mailed a registration link is entered once they open it and confirm."
    )
    assert public_id in listed.output and "registering" in listed.output


def test_a_format_that_does_not_fit_the_game_exits_with_its_reason(runner):
    made = run(runner, "tournament", "create", "Bad", "--system", "swiss", "--kind",
               "martian-frisby", "--rounds", "2", "--tables", "4", "--director",
               "dee@example.org")
    assert made.exit_code == 1
    assert "martian-frisby is played by 2 players; table sizes [4] do not fit" in made.output


def test_a_formats_refusal_names_the_options_that_set_what_it_lacks(runner):
    def create(*settings):
        return run(runner, "tournament", "create", "Open", "--system", "rolling-swiss",
                   "--kind", "martian-dice", "--director", "dee@example.org", *settings)

    lacking = create("--games-per-player", "3")
    too_few = create("--games-per-player", "3", "--max-concurrent", "1", "--pair-min-free", "1")

    assert lacking.exit_code == 1
    assert "a rolling Swiss needs --games-per-player and --max-concurrent" in lacking.output
    assert too_few.exit_code == 1
    assert "'--pair-min-free' must be an integer >= 2, got 1" in too_few.output


def test_simulate_plays_a_whole_event_and_reports_standings_and_fairness(runner):
    result = run(runner, "tournament", "simulate", "swiss", "martian-frisby", "--players",
                 "5", "--rounds", "2")
    assert result.exit_code == 0, result.output
    assert "standings after 4 results" in result.output
    assert "fairness: 0 rematches" in result.output


def test_a_simulated_duplicate_event_shows_its_boards(app, runner):
    result = run(runner, "tournament", "simulate", "swiss", "martian-dice", "--players", "4",
                 "--rounds", "1", "--duplicate")
    assert result.exit_code == 0, result.output
    public_id = re.search(r"\((t[0-9a-f]{8})\)", result.output)[1]

    page = app.test_client().get(f"/tournaments/{public_id}/boards/1")

    assert page.status_code == 200
    assert "Matchpoints" in page.get_data(as_text=True)


def test_the_exported_log_verifies_and_a_tampered_copy_names_its_seq(runner, tmp_path):
    report = run(runner, "tournament", "simulate", "round-robin", "martian-frisby",
                 "--players", "3")
    public_id = re.search(r"\((t[0-9a-f]{8})\)", report.output)[1]
    path = tmp_path / "t.jsonl"
    exported = run(runner, "tournament", "export", public_id, "--what", "log", "-o", str(path))
    good = run(runner, "tournament", "verify", str(path))
    lines = path.read_text().splitlines()
    pair = next(i for i, line in enumerate(lines) if json.loads(line).get("kind") == "pair")
    events = [json.loads(line) for line in lines[1:]]
    event = events[pair - 1]
    event["payload"]["tables"][0]["seats"].reverse()
    previous = "0" * 64  # a careful forger rebuilds every hash after the change
    for e in events:
        body = canonical_json({k: e[k] for k in ("seq", "kind", "seat", "payload", "at")})
        e["hash"] = previous = hashlib.sha256(f"{previous}\n{body}".encode()).hexdigest()
    path.write_text("\n".join([lines[0], *map(json.dumps, events)]) + "\n")
    bad = run(runner, "tournament", "verify", str(path))

    assert exported.exit_code == 0
    assert good.exit_code == 0 and "pairings re-derived alike" in good.output
    assert bad.exit_code == 1 and f"FAILED at seq {event['seq']}" in bad.output
    assert "seats" in bad.output


def test_results_and_the_calendar_export(runner):
    report = run(runner, "tournament", "simulate", "swiss", "martian-frisby", "--players",
                 "4", "--rounds", "1")
    public_id = re.search(r"\((t[0-9a-f]{8})\)", report.output)[1]
    results = json.loads(run(runner, "tournament", "export", public_id).output)
    calendar = run(runner, "tournament", "export", public_id, "--what", "ics").output

    assert results["system"] == "swiss" and len(results["standings"]) == 4
    assert calendar.startswith("BEGIN:VCALENDAR") and calendar.rstrip().endswith("END:VCALENDAR")


def test_the_ratings_leaderboard_names_the_players(runner):
    run(runner, "tournament", "simulate", "round-robin", "martian-frisby", "--players", "3")
    board = run(runner, "ratings", "show", "--kind", "martian-frisby")
    assert board.exit_code == 0 and board.output.count("Sim 00") == 3


def test_simulate_on_a_fresh_instance_creates_its_tables_and_says_so(tmp_path):
    settings = load_settings({"PBEM_INSTANCE_PATH": str(tmp_path), "PBEM_SECRET_KEY": TEST_KEY})
    fresh = make_app(replace(settings, database_url=f"sqlite:///{tmp_path / 'fresh.db'}"))
    try:
        result = fresh.test_cli_runner().invoke(
            args=["tournament", "simulate", "swiss", "martian-frisby", "--players", "4",
                  "--rounds", "1"]
        )
    finally:
        fresh.extensions["pbem"].db.dispose()

    assert result.exit_code == 0, result.output
    assert "had no tables: upgraded to revision" in result.output
    assert "standings after 2 results" in result.output
