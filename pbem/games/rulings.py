"""A game's rulings, read from the Markdown of its site: the one place they are written.

Each table headed RULINGS_HEADER is a list of rulings; its topic is the heading it sits
under (a `###` heading, unless that is just "Rulings", else the `##` heading).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .site import site_for

RULINGS_HEADER = "| rulebook section | the question | what the engine does |"


@dataclass(frozen=True)
class Ruling:
    """One ruling: its topic, the rulebook section, the question and what the engine does."""

    topic: str
    section: str
    question: str
    answer: str


def parse_rulings(markdown: str) -> list[Ruling]:
    """The rulings in the tables of a Markdown text, in order."""
    h2 = h3 = ""
    found, in_table = [], False
    for line in markdown.splitlines():
        if line.startswith("## "):
            h2, h3 = line[3:].strip(), ""
        elif line.startswith("### "):
            h3 = line[4:].strip()
        if line.strip() == RULINGS_HEADER:
            in_table = True
        elif in_table and line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            if len(cells) != 3:
                raise ValueError(f"a ruling has three cells, not {len(cells)}: {line[:80]}")
            found.append(Ruling(h3 if h3 and h3 != "Rulings" else h2, *cells))
        elif in_table and not line.startswith("|"):
            in_table = False
    return found


@cache
def rulings_for(kind: str) -> tuple[Ruling, ...]:
    """The rulings a game follows where its rulebook is silent or ambiguous, in order."""
    site = site_for(kind)
    return tuple(r for name in site.rulings for r in parse_rulings(site.read(name)))
