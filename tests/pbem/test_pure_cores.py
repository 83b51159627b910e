"""The pure cores (pbem/*/core/) import no database, web or I/O library and read no clock."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORES = sorted((ROOT / "pbem").glob("*/core"))
# Outside the standard library a core may use the engine and these pure libraries.
ALLOWED = {"engine", "networkx", "openskill"}
FORBIDDEN = {
    "random", "secrets", "time", "os", "socket", "subprocess", "pathlib", "shutil", "tempfile",
    "threading", "multiprocessing", "asyncio", "urllib.request", "http", "sqlite3", "pickle",
    "shelve", "logging", "signal", "select", "glob", "smtplib", "imaplib", "email",
}
FORBIDDEN_CALLS = {"open", "input", "print", "eval", "exec", "__import__"}
CLOCK_CALLS = {"now", "utcnow", "today"}


def modules() -> list[Path]:
    return sorted(path for core in CORES for path in core.rglob("*.py"))


def label(path: Path) -> str:
    return str(path.relative_to(ROOT))


def imported(tree: ast.AST, package: list[str]) -> list[str]:
    """The absolute names a module imports; relative imports resolved against its package."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package[: len(package) - (node.level - 1)]
                found.append(".".join([*anchor, node.module] if node.module else anchor))
            elif node.module:
                found.append(node.module)
    return found


def problems(source: str, module: str, core: str) -> list[str]:
    """What makes a module of a core impure: its imports and its calls, in words."""
    tree = ast.parse(source)
    package = module.split(".")[:-1]
    found = []
    for name in imported(tree, package):
        top = name.split(".")[0]
        if top == "pbem":
            if name != core and not name.startswith(core + "."):
                found.append(f"imports {name}: a core imports nothing of the server side")
        elif top != "__future__" and top not in sys.stdlib_module_names | ALLOWED:
            found.append(f"imports {name}, which is neither pure nor the standard library")
        elif any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
            found.append(f"imports {name}, which does I/O or reads the clock")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in FORBIDDEN_CALLS:
                found.append(f"calls {node.func.id}()")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in CLOCK_CALLS:
                found.append(f"calls .{node.func.attr}(): the time is an input, never read")
    return found


def test_there_are_three_pure_cores():
    assert [c.parent.name for c in CORES] == ["luck", "ratings", "tournaments"]


@pytest.mark.parametrize("path", modules(), ids=label)
def test_a_core_module_imports_only_its_own_core_and_pure_libraries_and_reads_no_clock(path):
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    core = next(".".join(c.relative_to(ROOT).parts) for c in CORES if c in path.parents)
    assert problems(path.read_text(), module, core) == []


def test_the_check_names_a_core_reaching_for_the_database_the_web_or_the_clock():
    source = ("from ...db import Database\nfrom . import standings\nimport sqlalchemy\n"
              "from flask import g\nimport time\nprint(datetime.now())\n")
    found = problems(source, "pbem.tournaments.core.bad", "pbem.tournaments.core")
    assert found == [
        "imports pbem.db: a core imports nothing of the server side",
        "imports sqlalchemy, which is neither pure nor the standard library",
        "imports flask, which is neither pure nor the standard library",
        "imports time, which does I/O or reads the clock",
        "calls print()",
        "calls .now(): the time is an input, never read",
    ]
