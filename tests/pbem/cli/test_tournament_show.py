"""`pbem tournament show`: the director's glance at an event from a terminal."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from engine.figures import counted
from pbem.models import Game, Player
from pbem.tournaments.log import load

from ..pipe import svc_of
from .test_tournament_cli import PLAYERS, created, run


def started(runner) -> str:
    public_id = created(runner)
    assert run(runner, "tournament", "register", public_id, *PLAYERS).exit_code == 0
    assert run(runner, "tournament", "start", public_id).exit_code == 0
    return public_id


def tables(app, public_id: str):
    with svc_of(app).db.read() as s:
        return load(s, public_id).state.tables


def test_the_glance_names_the_round_each_game_and_whom_it_waits_for(app, runner):
    public_id = started(runner)
    shown = run(runner, "tournament", "show", public_id)
    lines = shown.output.splitlines()

    assert shown.exit_code == 0, shown.output
    assert lines[0] == f"Spring open ({public_id}): running, round 1 of 2"
    assert lines[1] == "Swiss of Martian Frisby, tables of 2."
    assert "4 active of 4 entrants; 2 games in play." in lines
    assert "No game is overdue." in lines
    for table in tables(app, public_id):
        row = next(line for line in lines if line.startswith(f"  {table.game}  "))
        assert re.fullmatch(
            rf"  {table.game}  round 1: \S.* v \S.*: waiting for \S.* until "
            r"\w+day \d{1,2} \w+ \d{4}, \d\d:\d\d UTC", row), row
    assert any(line.startswith("Next pairing: when the last 2 games of round 1 end") for line in
               lines)
    assert any(line.startswith("Nothing to pair now: round 1 is still open") for line in lines)
    assert "Latest actions:" not in lines  # nobody has acted yet


def test_what_needs_the_director_comes_first_and_each_action_says_who_and_why(app, runner):
    public_id = started(runner)
    with svc_of(app).db.write() as s:
        ann = s.scalars(select(Player).where(Player.email == "ann@example.org")).one()
        ann.mail_failing_at = datetime.now(UTC)
        ann.mail_failure = "550 no such user"
        anns, other = sorted(tables(app, public_id), key=lambda t: str(ann.id) not in t.seats)
        game = s.scalars(select(Game).where(Game.public_id == anns.game)).one()
        game.await_since = datetime.now(UTC) - timedelta(days=30)
        leaver = s.get(Player, int(other.seats[0]))
        leaver_email, leaver_name = leaver.email, leaver.name
    done = run(runner, "tournament", "withdraw", public_id, leaver_email,
               "--reason", "moved away")
    assert done.exit_code == 0, done.output

    lines = run(runner, "tournament", "show", public_id).output.splitlines()

    # The leaver's game ended when they withdrew: Ann's is left in play.
    assert "3 active of 4 entrants; 1 game in play." in lines
    overdue = next(line for line in lines if line.startswith("Overdue: "))
    assert overdue.startswith(f"Overdue: game {anns.game} (")
    assert overdue.endswith(". The next tick applies the timeout policy.")
    assert "Mail to Ann bounces: 550 no such user." in lines
    assert next(line for line in lines if line.startswith(f"  {anns.game}  ")).endswith(
        " (OVERDUE)")
    acted = lines[lines.index("Latest actions:") + 1]
    assert re.fullmatch(r"  \w+day \d{1,2} \w+ \d{4}, \d\d:\d\d UTC  the operator withdrew "
                        rf"{re.escape(leaver_name)}: moved away", acted), acted
    assert lines.index("Mail to Ann bounces: 550 no such user.") < lines.index("Games in play:")


def test_an_unknown_event_is_named_and_a_tournament_id_given_to_show_is_pointed_to(runner):
    public_id = started(runner)
    unknown = run(runner, "tournament", "show", "t000000")
    misdirected = run(runner, "show", public_id)

    assert unknown.exit_code == 1 and "there is no tournament 't000000'" in unknown.output
    assert misdirected.exit_code == 1
    assert (f"there is no game '{public_id}': {public_id} is a tournament "
            f"(`pbem tournament show {public_id}`)") in misdirected.output


def test_starting_and_ending_a_rounds_last_game_list_the_games_paired(app, runner):
    public_id = created(runner)
    run(runner, "tournament", "register", public_id, *PLAYERS[:3])
    started_ = run(runner, "tournament", "start", public_id)
    first = tables(app, public_id)

    lines = started_.output.splitlines()
    assert lines[0] == (f"{public_id}: started with 3 players, 1 game paired; "
                        "the entrants' mails are queued")
    assert lines[1] == "  round 1: 1 game"
    name = r"(Ann|Bob|Player \d+)"
    assert re.fullmatch(rf"    {first[0].game}  {name} v {name}", lines[2])
    assert re.fullmatch(rf"    bye: {name} \(1 point\)", lines[3])

    ended = run(runner, "director", "adjudicate", first[0].game, "--ranks", "1,2",
                "--reason", "agreed by both")
    second = [t for t in tables(app, public_id) if t.round == 2]
    told = ended.output.splitlines()
    assert ended.exit_code == 0, ended.output
    assert told[0] == f"{first[0].game}: the game was adjudicated by the operator: agreed by both"
    assert told[1:3] == [f"Spring open ({public_id}) paired:", "  round 2: 1 game"]
    assert told[3].startswith(f"    {second[0].game}  ")
    assert told[4].startswith("    bye: ")

    run(runner, "director", "adjudicate", second[0].game, "--ranks", "1,2", "--reason", "agreed")
    over = run(runner, "tournament", "show", public_id).output.splitlines()
    with svc_of(app).db.read() as s:
        first = [row for row in load(s, public_id).standings if row.place == 1]
    assert over[0] == f"Spring open ({public_id}): over, round 2 of 2"
    winners = " and ".join(row.name for row in first)
    assert (f"Won by {winners} with {counted(first[0].points, 'point')} "
            f"(`pbem tournament standings {public_id}` for the table).") in over
    assert "Next pairing: never: the event is over." in over
    assert not any(line.startswith("Nothing to pair now") for line in over)


def test_a_late_entrant_paired_at_once_is_listed_with_the_game(app, runner):
    made = run(runner, "tournament", "create", "Rolling", "--system", "rolling-swiss",
               "--kind", "martian-dice", "--games-per-player", "2", "--max-concurrent", "1",
               "--director", "dee@example.org")
    public_id = made.output.split()[0]
    run(runner, "tournament", "register", public_id, *PLAYERS[:2])
    run(runner, "tournament", "start", public_id)
    alone = run(runner, "tournament", "register", public_id, "Mo <mo@example.org>")
    paired = run(runner, "tournament", "register", public_id, "Ned <ned@example.org>")

    assert alone.output.splitlines() == ["1 player registered"]  # nobody free to meet yet
    latest = tables(app, public_id)[-1]
    told = paired.output.splitlines()
    assert told[:2] == ["1 player registered", "  free players: 1 game"] and len(told) == 3
    assert told[2] in (f"    {latest.game}  Mo v Ned", f"    {latest.game}  Ned v Mo")
