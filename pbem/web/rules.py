"""Rules for players: each game's rulebook, how to play it here, its options and rulings;
and the project's own docs, rendered."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import markdown
from flask import Blueprint, render_template
from markupsafe import Markup

import engine

from .. import present
from ..errors import NotFound
from ..games import rulings_for, site_for

bp = Blueprint("rules", __name__)
DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = (
    "README", "architecture", "rulings", "playing", "auditing", "tournaments", "ratings",
    "adding-a-game",
)


@cache
def doc_text(name: str) -> str:
    """A page of docs/ as Markdown."""
    return (DOCS / f"{name}.md").read_text()


def rendered(text: str) -> Markup:
    """Our own Markdown (trusted: it is in the repository) as HTML."""
    html = markdown.markdown(text, extensions=["tables", "fenced_code", "toc"])
    return Markup(html)  # trusted: the docs are the project's own files


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
        for r in rulings_for(kind)
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
    start = rules.start(rules.seats[0], rules.resolve_options())
    notation, rulings, rulebook = game_docs(kind)
    return render_template(
        "rules.html",
        rules=rules,
        pos=present.position(rules, start, None),
        notation=notation,
        rulings=rulings,
        rulebook=rulebook,
    )


@cache
def game_docs(kind: str) -> tuple[Markup, Markup, str]:
    """A game's notation and rulings as HTML, and its rulebook, from the game's own folder."""
    site = site_for(kind)
    rulings = "\n".join(site.read(name) for name in site.rulings)
    return rendered(site.read(site.notation)), rendered(rulings), site.read(site.rulebook)


@bp.get("/docs/")
@bp.get("/docs/<name>.md")
def doc(name: str = "README") -> str:
    """A page of the project's documentation."""
    if name not in PAGES:
        raise NotFound(f"there is no page {name!r}; the pages: {', '.join(PAGES)}")
    return render_template("doc.html", name=name, body=rendered(doc_text(name)))
