"""The Martian Race and Mad Dog board partials and mail texts render the view a player needs."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from engine import Played, Resigned, Rolled, step
from engine.games.mad_dog import RULES as MAD_DOG
from engine.games.mars import Piece, parse_square
from engine.games.mars.geometry import BOARD, FINISHED, UP
from engine.games.martian_race import RULES as RACE
from tests.templating import ENVIRONMENTS


def render(env: str, name: str, view: dict) -> str:
    return ENVIRONMENTS[env].get_template(name).render(view=view)


def svg_of(html: str) -> ET.Element:
    """The board's SVG element, parsed as XML (it must be well formed to display inline)."""
    match = re.search(r"<svg.*?</svg>", html, re.S)
    assert match is not None
    return ET.fromstring(match[0])


def race_mid_game():
    """Red pushed Blue's small (a Blue push is awaited); pieces stand, lie and share squares."""
    state = RACE.start(3)
    pieces = list(state.pieces)
    pieces[0] = Piece(0, 1, BOARD, parse_square("d3"), 1)
    pieces[1] = Piece(0, 2, BOARD, parse_square("c6"), UP)
    pieces[2] = Piece(0, 3, BOARD, parse_square("c6"), 2)
    pieces[4] = Piece(1, 1, BOARD, parse_square("d4"), 2)
    pieces[8] = Piece(2, 1, BOARD, parse_square("d5"), 4)
    state = replace(state, pieces=tuple(pieces))
    state = step(RACE, state, Rolled((1, 6)))
    return step(RACE, state, Played(0, "1: d3 F x bS:N"))


def mad_dog_phase():
    state = MAD_DOG.start(2)
    pieces = [
        Piece(0, 3, FINISHED),
        *[Piece(0, 3, FINISHED)] * 4,
        Piece(1, 2, BOARD, parse_square("e4"), 3),
        Piece(1, 1, BOARD, parse_square("h2"), UP),
        *[Piece(1, 1, 0)] * 3,
    ]
    return replace(state, pieces=tuple(pieces), dog=(0, parse_square("c3"), 2), winner=0, victims=1)


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_the_race_board_draws_every_square_special_and_piece(env):
    view = RACE.view(race_mid_game(), 1)
    html = render(env, "games/martian-race/board.html", view)
    assert html.count("data-square=") == 64
    assert len(svg_of(html).findall(".//{http://www.w3.org/2000/svg}title")) == 64
    for name in ("Home", "Government Center", "Supply Depot", "Launch Pad"):
        assert name in html
    assert "smalls only" in html and "larges only" in html
    # One shape per piece: squares for standing pieces, triangles for lying ones.
    pieces = len(view["board"])
    assert html.count("<polygon") == sum(not p["standing"] for p in view["board"])
    assert pieces == 5
    assert "#d9480f" in html and "#1c7ed6" in html and "#2f9e44" in html
    assert "rotate(90" in html and "rotate(270" in html  # lying east, lying west
    assert "c6 : Red medium standing, Red large lying E".replace(" :", ":") in html
    assert "Blue to choose a push on d5" in html


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_the_mad_dog_board_draws_the_dog_unmistakably(env):
    view = MAD_DOG.view(mad_dog_phase(), None)
    html = render(env, "games/mad-dog/board.html", view)
    assert html.count("data-square=") == 64
    svg_of(html)
    for name in ("Market", "Well", "Kennel"):
        assert name in html
    assert 'class="mad-dog"' in html and ">DOG<" in html
    assert "c3: the Mad Dog" in html
    assert "The Mad Dog (Red) is on c3; victims: 1." in html
    assert "(controls the Mad Dog)" in html


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_the_race_text_shows_the_board_rank_by_rank(env):
    view = RACE.view(race_mid_game(), 1)
    text = render(env, "games/martian-race/board.txt", view)
    assert "&#39;" not in text and "&amp;" not in text
    rows = {m[1]: m[2] for m in re.finditer(r"^ ([1-8])    (.*)$", text, re.M)}
    assert set(rows) == set("12345678")
    assert rows["4"].split()[3] == "rSn"
    # Columns stay aligned: a shared square shows its first piece and a count, listed below.
    assert rows["5"].split()[3] == "bSe+1"
    assert " d5 holds bSe, gSw" in text
    cells = [re.findall(r"\S+", row) for row in rows.values()]
    starts = {rank: [m.start() for m in re.finditer(r"\S+", row)] for rank, row in rows.items()}
    assert all(len(c) == 8 for c in cells)
    assert all(s == [8 * i for i in range(8)] for s in starts.values()), starts
    assert rows["7"].split()[0] == "[H]" and rows["2"].split()[7] == "[1]"
    assert "Waiting for Blue to choose a push on d5." in text
    assert "Last: Red moves the small from d3 to d4" in text
    assert "<- you" in text


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_the_mad_dog_text_names_the_dog_and_its_victims(env):
    view = MAD_DOG.view(mad_dog_phase(), 0)
    text = render(env, "games/mad-dog/board.txt", view)
    assert "Mad Dog, turn 1 - the Mad Dog is loose" in text
    assert "DOG is the Mad Dog (Red, pointing E)" in text
    assert "[1] Market h2 (smalls only)" in text
    assert "controls the Mad Dog (1 victims)" in text
    rows = {m[1]: m[2] for m in re.finditer(r"^ ([1-8])    (.*)$", text, re.M)}
    assert rows["3"].split()[2] == "DOG"
    assert rows["2"].split()[7] == "[bS^]"


def test_a_finished_game_renders_its_outcome():
    state = RACE.start(2)
    state = step(RACE, state, Rolled((1, 1)))
    state = step(RACE, state, Resigned(0))
    view = RACE.view(state, None)
    text = render("server", "games/martian-race/board.txt", view)
    assert "Game over: Blue wins" in text
    assert render("server", "games/martian-race/board.html", view).count("data-square=") == 64
