"""The house's shape: no import circles anywhere, and pbem's arrows point down its layers."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "pbem")

# pbem's capabilities from the top down: a module may import its own layer or those below.
LAYERS = (
    {"cli", "web"},
    {"inbox"},
    {"ratings"},
    {"tournaments"},
    {"luck"},
    {"play"},
    {"mail"},
    {"present"},
    {"log"},
    {"services", "models", "db", "links", "clock", "context", "config", "errors", "text",
     "games", "bounds", "__init__"},
)


def module_name(path: Path) -> str:
    """The dotted name of a source file under ROOT."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules a module imports anywhere in it (functions and TYPE_CHECKING too)."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # `from pkg import sub` names a submodule when one exists, else the package.
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> nx.DiGraph:
    """Modules as nodes, `a imports b` as an edge a -> b."""
    found = modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(found)
    for name, path in found.items():
        graph.add_edges_from((name, target) for target in imports_of(name, path, set(found)))
    return graph


def layer_of(name: str) -> int | None:
    """The index in LAYERS of a pbem module (0 is the top), None outside pbem."""
    parts = name.split(".")
    if parts[0] != "pbem":
        return None
    capability = parts[1] if len(parts) > 1 else "__init__"
    return next((i for i, layer in enumerate(LAYERS) if capability in layer), None)


def test_the_graph_sees_the_imports_it_should():
    graph = import_graph()
    assert graph.has_edge("pbem.web.app", "pbem.services")
    assert graph.has_edge("pbem.play.start", "pbem.log.dice")
    assert graph.has_edge("pbem.play.notify", "pbem.mail.compose")


def test_no_module_imports_a_module_that_imports_it():
    cycles = list(nx.simple_cycles(import_graph()))
    assert not cycles, "import circles: " + "; ".join(" -> ".join(c + c[:1]) for c in cycles)


def test_every_pbem_module_sits_in_a_named_layer():
    unplaced = [name for name in modules() if name.startswith("pbem") and layer_of(name) is None]
    assert not unplaced


def test_arrows_in_pbem_point_down_its_layers():
    upward = [
        f"{a} (layer {layer_of(a)}) imports {b} (layer {layer_of(b)})"
        for a, b in import_graph().edges
        if layer_of(a) is not None and layer_of(b) is not None and layer_of(b) < layer_of(a)
    ]
    assert not upward, "\n".join(upward)

