"""engine/ is pure: standard library only, and no randomness, clock or I/O."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {
    "random",
    "secrets",
    "time",
    "datetime",
    "os",
    "io",
    "socket",
    "subprocess",
    "pathlib",
    "shutil",
    "tempfile",
    "threading",
    "multiprocessing",
    "asyncio",
    "urllib",
    "http",
    "sqlite3",
    "pickle",
    "shelve",
    "logging",
    "uuid",
    "signal",
    "select",
    "glob",
}
FORBIDDEN_CALLS = {"open", "input", "print", "eval", "exec", "__import__"}


def modules():
    return sorted(ENGINE.rglob("*.py"))


def imported_names(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_modules_import_only_pure_standard_library(path):
    tree = ast.parse(path.read_text(), str(path))
    for module in imported_names(tree):
        assert module == "__future__" or module in sys.stdlib_module_names or module == "engine", (
            f"{path.name} imports {module}, which is not in the standard library"
        )
        assert module not in FORBIDDEN, f"{path.name} imports {module}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_modules_call_no_io_builtins(path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}()"


def test_the_purity_check_sees_a_forbidden_import():
    tree = ast.parse("import random\nfrom time import monotonic\n")
    assert set(imported_names(tree)) & FORBIDDEN == {"random", "time"}
