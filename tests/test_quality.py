"""The house style's machine checks: ruff everywhere, mypy --strict on the engine."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tool(name: str) -> str:
    """The tool next to this interpreter, or on PATH."""
    local = Path(sys.executable).parent / name
    found = str(local) if local.exists() else shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]' installs it)")
    return found


def test_ruff_finds_nothing():
    result = subprocess.run(
        [tool("ruff"), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_engine_is_mypy_strict_clean():
    result = subprocess.run(
        [tool("mypy"), "--strict", "--no-incremental", "engine"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
