"""Every "where is what" table in docs/ names files that exist and functions defined in them.

A table headed exactly `| what | file | function |`, in any page of docs/, maps a question
("a push is resolved in ...") to a file of the repository and a function or class in it
(`Class.method` for a method). A row whose file or function has moved fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEADER = "| what | file | function |"


def tables(text: str) -> list[tuple[int, str, str, str]]:
    """(line number, what, file, function) of every row of every map table in a page."""
    found, in_table = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() == HEADER:
            in_table = True
        elif in_table and line.startswith("|---"):
            continue
        elif in_table and line.startswith("|"):
            cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
            assert len(cells) == 3, f"line {number}: a map row has three cells: {line}"
            found.append((number, *cells))
        else:
            in_table = False
    return found


def rows() -> list[pytest.ParameterSet]:
    return [
        pytest.param(page, *row, id=f"{page.name}:{row[0]}")
        for page in sorted((ROOT / "docs").glob("*.md"))
        for row in tables(page.read_text(encoding="utf-8"))
    ]


def defines(path: Path, name: str) -> bool:
    """Whether a Python file defines a function or class `name`, or `Class.method`."""
    scope: list[ast.stmt] = ast.parse(path.read_text(encoding="utf-8")).body
    *outer, last = name.removesuffix("()").split(".")
    for part in outer:
        found = [n for n in scope if isinstance(n, ast.ClassDef) and n.name == part]
        if not found:
            return False
        scope = found[0].body
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return any(isinstance(n, kinds) and n.name == last for n in scope)


def test_the_architecture_page_has_a_map():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert len(tables(text)) >= 10


@pytest.mark.parametrize(("page", "line", "what", "file", "function"), rows())
def test_each_row_names_an_existing_file_and_a_function_defined_in_it(
    page, line, what, file, function
):
    path = ROOT / file
    assert path.is_file(), f"docs/{page.name} line {line} ({what}): there is no {file}"
    assert defines(path, function), (
        f"docs/{page.name} line {line} ({what}): {file} defines no {function}"
    )


def test_a_row_naming_a_function_that_is_not_there_is_caught(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("class Signer:\n    def read(self): ...\n\ndef load(): ...\n")
    assert defines(module, "load") and defines(module, "Signer.read") and defines(module, "Signer")
    assert not defines(module, "dump") and not defines(module, "Signer.write")
    page = f"{HEADER}\n|---|---|---|\n| a link is read | `m.py` | `Signer.read` |\n\nafter\n"
    assert tables(page) == [(3, "a link is read", "m.py", "Signer.read")]
