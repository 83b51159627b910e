"""`pbem tick --at TIME`: a tester sees a timeout policy work without waiting days."""

from __future__ import annotations

from dataclasses import replace

from pbem.config import load_settings
from pbem.tournaments.log import load
from tests.conftest import make_app

from ..pipe import outbox, svc_of


def event_of_two(runner, policy: str) -> str:
    made = runner.invoke(args=[
        "tournament", "create", "Clock cup", "--system", "swiss", "--kind", "martian-frisby",
        "--rounds", "1", "--director", "dee@example.org", "--deadline-hours", "24",
        "--timeout-policy", policy])
    assert made.exit_code == 0, made.output
    public_id = made.output.split()[0]
    entered = runner.invoke(args=["tournament", "register", public_id,
                                  "Ann <ann@example.org>", "Bob <bob@example.org>"])
    assert entered.exit_code == 0, entered.output
    assert runner.invoke(args=["tournament", "start", public_id]).exit_code == 0
    return public_id


def test_tick_at_is_refused_where_people_play(app, runner):
    event_of_two(runner, "forfeit")
    refused = runner.invoke(args=["tick", "--at", "+3d"])

    assert refused.exit_code != 0
    assert "runs only on a test instance (set PBEM_TEST_INSTANCE=1" in refused.output


def test_tick_at_on_a_test_instance_applies_the_forfeit_and_records_the_result(settings):
    app = make_app(replace(settings, test_instance=True))
    runner = app.test_cli_runner()
    public_id = event_of_two(runner, "forfeit")

    early = runner.invoke(args=["tick", "--at", "+23h"])
    late = runner.invoke(args=["tick", "--at", "+25h"])

    assert early.exit_code == 0 and "0 timed out" in early.output
    assert late.exit_code == 0, late.output
    assert "acting as if it were" in late.output and "1 timed out" in late.output
    with svc_of(app).db.read() as s:
        held = load(s, public_id)
    (table,) = held.state.tables
    assert table.result is not None and "timeout" in table.result.flags
    assert held.state.closed  # one round: the timeout ended the event
    assert outbox(app, purpose="summary")  # the final standings went out
    app.extensions["pbem"].db.dispose()


def test_a_bad_time_is_refused_with_the_forms_it_takes(settings):
    app = make_app(replace(settings, test_instance=True))
    bad = app.test_cli_runner().invoke(args=["tick", "--at", "next tuesday"])
    app.extensions["pbem"].db.dispose()

    assert bad.exit_code != 0 and "+72h or +3d" in bad.output


def test_the_test_instance_is_set_from_the_environment(tmp_path):
    on = load_settings({"PBEM_INSTANCE_PATH": str(tmp_path), "PBEM_TEST_INSTANCE": "1"})
    off = load_settings({"PBEM_INSTANCE_PATH": str(tmp_path)})
    assert on.test_instance and not off.test_instance
