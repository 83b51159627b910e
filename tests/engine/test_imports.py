"""engine/ has no import circles: arrows point down, from the rules objects to their helpers."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def module_names(root: Path) -> dict[str, Path]:
    """Every module under root by its dotted name ("engine.games.mars.rules")."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The known modules a module imports anywhere: at the top, in functions, TYPE_CHECKING."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # `from . import moves` imports the submodule; `from .x import name` imports x.
            subs = [f"{source}.{alias.name}" for alias in node.names]
            named = [s for s in subs if s in known]
            targets.update(named if len(named) == len(subs) else [source, *named])
    return {t for t in targets if t in known and t != name}


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at root, with the modules of that package it imports."""
    names = module_names(root)
    return {name: imports_of(name, path, set(names)) for name, path in names.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One import circle per strongly connected group of modules, as a path back to its start."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_circle(graph, set(group)) for group in groups]


def _circle(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & group):
                if nxt == start:
                    return paths[node] + [start]
                if nxt not in paths:
                    paths[nxt] = paths[node] + [nxt]
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no circle through {start}")


def test_no_engine_module_imports_a_module_that_imports_it():
    found = cycles(import_graph(ENGINE))
    assert not found, "import circles: " + "; ".join(" -> ".join(c) for c in found)


def test_the_circle_check_sees_imports_in_functions_and_under_type_checking(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "top.py").write_text("def f():\n    from .low import g\n    return g\n")
    (package / "low.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import top\n"
    )
    (package / "leaf.py").write_text("from .low import TYPE_CHECKING\n")
    assert cycles(import_graph(package)) == [["pkg.low", "pkg.top", "pkg.low"]]


def test_the_engine_graph_is_read_from_every_module():
    graph = import_graph(ENGINE)
    assert "engine.games.mars.rules" in graph
    assert "engine.games.mars.turns" in graph["engine.games.mars.rules"]
    assert "engine.core" in graph["engine.games.frisby.rules"]
