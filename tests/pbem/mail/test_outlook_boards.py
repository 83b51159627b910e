"""Outlook: the mail boards stay readable with every style attribute removed (its Word engine
drops many): colours as attributes, content as text."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from pbem.play.start import start_game

from ..pipe import SEATS, outbox, svc_of

COLOUR = re.compile(r"background:\s*(#[0-9a-fA-F]{3,6})")


class Cells(HTMLParser):
    """The board's cells and pieces, as a client that ignores `style` sees them."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[dict[str, Any]] = []  # each td: its styled colour and its bgcolor
        self.pieces: list[str] = []  # the text of each coloured span
        self.open_spans: list[list[str]] = []
        self.text: list[str] = []
        self.bgcolors: list[str] = []  # every cell's and row's colour attribute

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        styled = COLOUR.search(found.get("style") or "")
        if tag in ("td", "tr") and found.get("bgcolor"):
            self.bgcolors.append(str(found["bgcolor"]).lower())
        if tag in ("td", "tr") and styled:
            self.cells.append({"styled": styled[1].lower(),
                               "bgcolor": (found.get("bgcolor") or "").lower()})
        if tag == "span":
            self.open_spans.append([] if styled else ["(plain)"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self.open_spans:
            words = self.open_spans.pop()
            if words[:1] != ["(plain)"]:
                self.pieces.append("".join(words).strip())

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        for span in self.open_spans:
            span.append(data)


def without_styles(html: str) -> str:
    """The HTML as Outlook's Word engine may leave it: no style attributes, no style blocks."""
    html = re.sub(r"(?is)<style\b.*?</style>", "", html)
    return re.sub(r"""\sstyle=("[^"]*"|'[^']*')""", "", html)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("kind", sorted(SEATS))
def test_the_turn_mail_board_keeps_its_colours_and_pieces_without_styles(kind, app):
    svc = svc_of(app)
    players = [(f"p{n}@example.org", f"Player {n}") for n in range(SEATS[kind])]
    svc.write(lambda s: start_game(s, svc.ctx, kind, players))
    html = outbox(app, purpose="turn")[0].body_html
    styled = Cells()
    styled.feed(html)

    assert styled.cells, "the board has coloured cells"
    for cell in styled.cells:  # every colour a style gives a cell, an attribute gives too
        assert cell["bgcolor"] == cell["styled"], cell
    assert all(styled.pieces), "every coloured piece says what it is in text"

    bare = Cells()
    bare.feed(without_styles(html))
    assert "style=" not in without_styles(html)
    assert bare.bgcolors == [c["styled"] for c in styled.cells]  # the colours are all there
    shown = "".join(bare.text)
    for piece in styled.pieces:
        assert piece in shown
    if kind == "martian-frisby":  # a piece names its side, not an initial two names share
        assert all(re.fullmatch(r"[SN][123]", piece) for piece in styled.pieces)
