"""The secret key: made once and whole however many processes start, never short or empty."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from itsdangerous import URLSafeTimedSerializer

from pbem.config import load_settings, secret_key_from
from pbem.errors import ConfigError
from pbem.links import MOVE_SALT, MoveGrant, Signer
from pbem.web.app import create_app

from .pipe import start

GOOD = "a key of 32 bytes or longer for the tests"
STARTERS, ROUNDS = 8, 40  # processes starting at once, and how many times they do

# A starter waits for a folder on its standard input, then reads (or makes) its key at once.
STARTER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from pbem.config import secret_key_from
    print("ready", flush=True)
    for line in sys.stdin:
        try:
            print("key", secret_key_from(Path(line.strip())), flush=True)
        except Exception as e:
            print("error", type(e).__name__, e, flush=True)
""")


def starters(count: int) -> list[subprocess.Popen[str]]:
    """Processes that each read the instance's key when told to, all at nearly one moment."""
    procs = [
        subprocess.Popen([sys.executable, "-c", STARTER], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, cwd=Path.cwd())
        for _ in range(count)
    ]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return procs


def test_processes_starting_at_the_same_moment_all_get_the_one_whole_key(tmp_path):
    procs = starters(STARTERS)
    try:
        for round_ in range(ROUNDS):
            instance = tmp_path / f"instance-{round_}"
            instance.mkdir()
            for proc in procs:  # released together: the file does not exist yet
                assert proc.stdin is not None
                proc.stdin.write(f"{instance}\n")
                proc.stdin.flush()
            answers = [proc.stdout.readline().split(maxsplit=2) for proc in procs if proc.stdout]
            on_disk = (instance / "secret_key").read_text().strip()

            assert [a for a in answers if a[0] != "key"] == [], f"round {round_}"
            assert {a[1] for a in answers} == {on_disk}, f"round {round_}: one key for all"
            assert len(on_disk) == 64, "32 random bytes, in hex"
            assert os.listdir(instance) == ["secret_key"], "no temporary file is left behind"
            assert stat.S_IMODE(os.stat(instance / "secret_key").st_mode) == 0o600
    finally:
        for proc in procs:
            proc.communicate(timeout=30)  # closes its input: it ends


def test_a_key_file_a_crash_left_empty_stops_the_server_naming_the_file_to_delete(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "secret_key").write_text("")

    with pytest.raises(ConfigError) as refused:
        load_settings({"PBEM_INSTANCE_PATH": str(instance)})
    message = str(refused.value)
    assert "is 0 bytes long" in message and f"Delete {instance / 'secret_key'}" in message

    (instance / "secret_key").unlink()  # what the message says to do
    assert len(load_settings({"PBEM_INSTANCE_PATH": str(instance)}).secret_key) == 64


def test_a_short_key_file_is_refused_and_left_as_it_is(tmp_path):
    (tmp_path / "secret_key").write_text("0123456789\n")
    with pytest.raises(ConfigError, match="is 10 bytes long"):
        secret_key_from(tmp_path)
    assert (tmp_path / "secret_key").read_text() == "0123456789\n", "the operator decides"


@pytest.mark.parametrize("variable, value, named", [
    ("PBEM_SECRET_KEY", "short", "PBEM_SECRET_KEY is 5 bytes long"),
    ("PBEM_SECRET_KEY", " " * 31, "PBEM_SECRET_KEY is 31 bytes long"),
    ("PBEM_SECRET_KEY_FALLBACKS", f"{GOOD},old", "key 2 of PBEM_SECRET_KEY_FALLBACKS is 3 bytes"),
])
def test_a_configured_key_shorter_than_32_bytes_is_refused_saying_how_to_make_one(
    tmp_path, variable, value, named
):
    env = {"PBEM_INSTANCE_PATH": str(tmp_path), "PBEM_SECRET_KEY": GOOD, variable: value}
    with pytest.raises(ConfigError) as refused:
        load_settings(env)
    assert named in str(refused.value)
    assert "secrets.token_hex(32)" in str(refused.value)
    assert value not in str(refused.value), "a message never shows a key"


def test_the_signer_neither_signs_nor_reads_with_an_empty_or_short_key():
    for key, fallbacks in (("", ()), ("x" * 31, ()), (GOOD, ("",)), (GOOD, ("short",))):
        with pytest.raises(ConfigError, match="at least 32"):
            Signer(key, fallbacks)
    # Under a good key, a link signed with the empty key is refused as forged.
    forged = URLSafeTimedSerializer([""], salt=MOVE_SALT).dumps(["g", 0, 0])
    with pytest.raises(Exception, match="not valid"):
        Signer(GOOD).read_move_token(forged)


def test_an_app_with_an_empty_key_is_never_built(settings: Any):
    for bad in (replace(settings, secret_key=""), replace(settings, secret_key_fallbacks=("",))):
        with pytest.raises(ConfigError):
            create_app({"SETTINGS": bad, "TESTING": True})
    for cookie_key in ({"SECRET_KEY": ""}, {"SECRET_KEY_FALLBACKS": ["too short"]}):
        with pytest.raises(ConfigError):
            create_app({"SETTINGS": settings, "TESTING": True, **cookie_key})


def test_a_move_link_signed_with_the_empty_key_does_nothing(app, client):
    public_id = start(app)
    forged = URLSafeTimedSerializer([""], salt=MOVE_SALT).dumps([public_id, 0, 0])
    assert client.get(f"/play/{forged}").status_code == 400
    assert client.get(f"/api/play/{forged}").status_code == 400
    assert app.extensions["pbem"].signer.move_token(MoveGrant(public_id, 0, 0)) != forged


def test_the_command_line_says_why_it_will_not_start_instead_of_a_traceback(tmp_path):
    env = {**os.environ, "PBEM_INSTANCE_PATH": str(tmp_path), "PBEM_SECRET_KEY": "short"}
    pbem = Path(sys.executable).with_name("pbem")
    done = subprocess.run([str(pbem), "tick"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert "PBEM_SECRET_KEY is 5 bytes long" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_file_system_without_hard_links_asks_for_a_configured_key(tmp_path, monkeypatch):
    def no_links(*_: Any) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    with pytest.raises(ConfigError, match="set PBEM_SECRET_KEY"):
        secret_key_from(tmp_path)
    assert os.listdir(tmp_path) == [], "neither a key nor a temporary file is left"
