"""The rulings a game's page lists are the ones docs/rulings.md explains, word for word."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine

DOC = Path(__file__).resolve().parents[2] / "docs" / "rulings.md"
HEADER = "| rulebook section | the question | what the engine does |"
# The headings (## or ##/###) of docs/rulings.md whose ruling tables concern each game.
SECTIONS = {
    "martian-frisby": ("Martian Frisby",),
    "martian-dice": ("Martian Dice",),
    "martian-race": (
        "The Martian movement system (Martian Race and Mad Dog)",
        "Martian Race",
        "Mad Dog/The Mad Dog phase",
    ),
    "mad-dog": ("The Martian movement system (Martian Race and Mad Dog)", "Mad Dog"),
    "martianopolis-500": ("Martianopolis 500",),
}


def documented(kind: str) -> list[tuple[str, ...]]:
    """(topic, section, question, answer) of every ruling row docs/rulings.md has for a kind."""
    h2 = h3 = ""
    rows, in_table = [], False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            h2, h3 = line[3:].strip(), ""
        elif line.startswith("### "):
            h3 = line[4:].strip()
        if line.strip() == HEADER:
            in_table = True
        elif in_table and line.startswith("|") and not line.startswith("|---"):
            cells = tuple(c.strip() for c in line.strip().strip("|").split(" | "))
            if any(want in (h2, f"{h2}/{h3}") for want in SECTIONS[kind]):
                rows.append((h3 if h3 and h3 != "Rulings" else h2, *cells))
        elif in_table and not line.startswith("|"):
            in_table = False
    return rows


@pytest.mark.parametrize("kind", engine.GAMES)
def test_the_engine_lists_exactly_the_rulings_the_docs_explain(kind):
    rulings = engine.rulings_for(kind)
    assert rulings
    assert [(r.topic, r.section, r.question, r.answer) for r in rulings] == documented(kind)


def test_an_unknown_kind_has_no_rulings():
    with pytest.raises(engine.UnknownGame, match="martian-chess"):
        engine.rulings_for("martian-chess")
