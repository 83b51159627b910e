"""One version: pyproject.toml's, read from the installed package by `pbem --version`."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

from click.testing import CliRunner

import pbem
from pbem.cli import main

PYPROJECT = Path(__file__).resolve().parents[3] / "pyproject.toml"


def test_pbem_version_prints_the_installed_packages_version():
    result = CliRunner().invoke(main, ["--version"])

    assert result.exit_code == 0
    assert result.output == f"pbem, version {metadata.version('pbem')}\n"
    assert pbem.__version__ == metadata.version("pbem")


def test_the_installed_version_is_the_one_pyproject_declares():
    declared = tomllib.loads(PYPROJECT.read_text())["project"]["version"]
    assert metadata.version("pbem") == declared, (
        "the installed metadata is older than pyproject.toml: pip install -e . again"
    )
