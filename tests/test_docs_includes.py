"""The pages of docs/ hold each game's own Markdown word for word, and every built-in game's."""

from __future__ import annotations

import pytest

from engine.games import BUILT_IN
from pbem.games import site_for
from tests.docs_includes import DOCS, ROOT, expand, included

PAGES = sorted(DOCS.glob("*.md"), key=lambda p: p.name)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_each_included_file_is_copied_into_the_docs_as_it_is_now(page):
    text = page.read_text(encoding="utf-8")
    assert expand(text) == text, (
        f"docs/{page.name} differs from the files it includes: run python -m tests.docs_includes"
    )


def test_every_built_in_games_rulings_and_notation_are_in_the_docs():
    shown = {path for page in PAGES for path in included(page.read_text(encoding="utf-8"))}
    for entry in BUILT_IN:
        site = site_for(entry.kind)
        for name in (*site.rulings, site.notation):
            path = str((site.folder / name).relative_to(ROOT))
            assert path in shown, f"{entry.kind}: {path} is in no page of docs/"


def test_an_include_that_lags_its_file_is_refilled():
    stale = "<!-- include pbem/games/frisby/notation.md -->\nold words\n<!-- end include -->"
    assert "### Martian Frisby" in expand(stale) and "old words" not in expand(stale)
