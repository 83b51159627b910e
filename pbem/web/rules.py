"""Rules for players: each game's rulebook, how to play it here, its options and rulings;
and the project's own docs, rendered."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import markdown
from flask import Blueprint, render_template
from markupsafe import Markup

import engine

from .. import present
from ..errors import NotFound

bp = Blueprint("rules", __name__)
DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ("README", "architecture", "rulings", "playing", "auditing", "tournaments", "ratings")
# Sections of the docs that speak of several games: the games they belong to.
SHARED = {"The Martian movement system (Martian Race and Mad Dog)": ("Martian Race", "Mad Dog")}


@cache
def doc_text(name: str) -> str:
    """A page of docs/ as Markdown."""
    return (DOCS / f"{name}.md").read_text()


def rendered(text: str) -> Markup:
    """Our own Markdown (trusted: it is in the repository) as HTML."""
    html = markdown.markdown(text, extensions=["tables", "fenced_code", "toc"])
    return Markup(html)  # trusted: the docs are the project's own files


def sections(text: str, level: str) -> dict[str, str]:
    """A Markdown page cut at its headings of one level: title -> body."""
    parts = re.split(rf"^{level} (.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def for_game(text: str, level: str, title: str) -> str:
    """The sections of a page about one game (and those shared with its sibling)."""
    found = sections(text, level)
    shared = [f"{level} {name}\n{body}" for name, body in found.items()
              if title in SHARED.get(name, ())]
    own = [f"{level} {name}\n{body}" for name, body in found.items()
           if name == title or (title in name.split(" and ") and " and " in name)]
    return "\n".join(shared + own)


def inline(text: str) -> Markup:
    """One table cell of our own Markdown (code, emphasis, links) as HTML, without a paragraph."""
    html = markdown.markdown(text)
    return Markup(html.removeprefix("<p>").removesuffix("</p>"))  # trusted: the engine's text


def game_rulings(kind: str) -> list[dict[str, Markup]]:
    """The rulings the engine follows in one game, by rulebook section, as HTML cells."""
    return [
        {
            "topic": inline(r.topic),
            "section": inline(r.section),
            "question": inline(r.question),
            "answer": inline(r.answer),
        }
        for r in engine.rulings_for(kind)
    ]


def rules_or_404(kind: str) -> engine.Rules[object]:
    """A game's rules by kind."""
    try:
        return engine.rules_for(kind)
    except engine.UnknownGame as e:
        raise NotFound(str(e)) from e


@bp.get("/rules")
def index() -> str:
    """Every game, with a link to its rules."""
    return render_template("rules_index.html",
                           games=[engine.rules_for(kind) for kind in engine.GAMES])


@bp.get("/rules/<kind>")
def game(kind: str) -> str:
    """A game's rules: how to play here, a picture of the board, options, rulings, rulebook."""
    rules = rules_or_404(kind)
    seats = rules.seats[0]
    start = rules.start(seats, rules.resolve_options())
    return render_template(
        "rules.html",
        rules=rules,
        pos=present.position(rules, start, None),
        notation=rendered(for_game(doc_text("playing"), "###", rules.title)),
        rulings=rendered(for_game(doc_text("rulings"), "##", rules.title)),
        rulebook=(DOCS / "rulebooks" / f"{kind}.txt").read_text(),
    )


@bp.get("/docs/")
@bp.get("/docs/<name>.md")
def doc(name: str = "README") -> str:
    """A page of the project's documentation."""
    if name not in PAGES:
        raise NotFound(f"there is no page {name!r}; the pages: {', '.join(PAGES)}")
    return render_template("doc.html", name=name, body=rendered(doc_text(name)))
