"""Copy each game's own Markdown into docs/: `python -m tests.docs_includes` rewrites them.

A page of docs/ may hold, on lines of their own,

    <!-- include pbem/games/frisby/rulings.md -->
    ...
    <!-- end include -->

and everything between the two markers is the named file of the repository, word for word.
The file is the one source (a game's rulings and notation live in its own folder); the
page is generated from it, and tests/test_docs_includes.py fails when the two differ.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
INCLUDE = re.compile(
    r"^<!-- include (?P<path>\S+) -->\n(?P<body>.*?)^<!-- end include -->$", re.M | re.S
)


def expand(text: str) -> str:
    """The page with every include filled with its file as it is now."""

    def filled(match: re.Match[str]) -> str:
        path = match["path"]
        body = (ROOT / path).read_text(encoding="utf-8")
        return f"<!-- include {path} -->\n\n{body.rstrip()}\n\n<!-- end include -->"

    return INCLUDE.sub(filled, text)


def included(text: str) -> list[str]:
    """The repository paths a page includes, in order."""
    return [m["path"] for m in INCLUDE.finditer(text)]


def main() -> int:
    """Rewrite every page of docs/ whose includes are out of date; say which."""
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        if expand(text) != text:
            page.write_text(expand(text), encoding="utf-8")
            print(f"rewrote {page.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
