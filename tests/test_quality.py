"""The house style's machine checks: ruff everywhere, mypy --strict on engine/ and pbem/."""

from __future__ import annotations

import os
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
        missing = f"{name} is not installed (pip install -e '.[test]' installs it)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(missing)  # CI installs the test extras: a missing tool is a broken setup
        pytest.skip(missing)
    return found


def test_ruff_finds_nothing():
    result = subprocess.run(
        [tool("ruff"), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_engine_and_the_app_are_mypy_strict_clean():
    result = subprocess.run(
        [tool("mypy"), "--strict", "--no-incremental", "engine", "pbem"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


# Section marks of design notes that are not in the repository: a clone has nothing to read.
OUTSIDE = ("RULES §", "DESIGN §")


def test_no_code_or_doc_points_at_design_notes_outside_the_repository():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for pattern in ("engine/**/*", "pbem/**/*", "tests/**/*.py", "docs/*.md", "templates/**/*")
        for path in ROOT.glob(pattern)
        if path.is_file() and path.suffix in (".py", ".md", ".html", ".txt")
        and path != Path(__file__)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(mark in line for mark in OUTSIDE)
    ]
    assert found == [], "point into docs/ instead:\n" + "\n".join(found)
