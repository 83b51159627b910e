"""The Martianopolis 500 page partial and mail text draw the track and keep secrets."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from engine import Played, Resigned, Shuffled, step
from engine.games.martianopolis import (
    DECK,
    DOWN,
    LANES,
    SUITS,
    UP,
    Martianopolis500,
    MartianopolisState,
    card_name,
)
from tests.templating import ENVIRONMENTS

RULES = Martianopolis500()
P1, P2, P3 = 0, 1, 2



def card(text: str) -> int:
    ranks = {"J": 11, "Q": 12, "K": 13, "A": 14}
    return (ranks.get(text[:-1]) or int(text[:-1])) * 4 - 8 + SUITS.index(text[-1])


def dealt(seats: int = 3) -> MartianopolisState:
    """The first card choice: grid placed, a face card set aside, deck dealt in order."""
    state = RULES.start(seats)
    if seats == 3:
        state = step(RULES, state, Shuffled(tuple(range(12))))
    for seat in range(seats):
        state = step(RULES, state, Played(seat, "order L M S"))
    return step(RULES, state, Shuffled(tuple(range(len(DECK) - (seats == 3)))))


def with_tops(state: MartianopolisState, tops: dict[int, str]) -> MartianopolisState:
    """Put these cards on top of the seats' piles (taken from wherever they were)."""
    wanted = {card(t) for t in tops.values()}
    piles = [tuple(c for c in p if c not in wanted) for p in state.piles]
    for seat, top in tops.items():
        piles[seat] = (card(top), *piles[seat])
    discards = tuple(c for c in state.discards if c not in wanted)
    return replace(state, piles=tuple(piles), discards=discards)


def render(env: str, name: str, state: MartianopolisState, seat: int | None) -> str:
    suffix = "html" if name == "page" else "txt"
    template = ENVIRONMENTS[env].get_template(f"games/martianopolis-500/board.{suffix}")
    return template.render(view=RULES.view(state, seat))


def crashed_position() -> MartianopolisState:
    """Red's L crashed upright on a11; Red's S finished; Yellow on the b lane; lap counts."""
    state = dealt(3)
    racers = []
    for r in state.racers:
        if r.seat == P1 and r.size == 3:
            r = replace(r, lane=0, progress=11, standing=True)
        elif r.seat == P1 and r.size == 1:
            r = replace(r, progress=state.finish, removed=True)
        elif r.seat == P2:
            r = replace(r, progress=r.progress + 48 * 2 + 20)
        racers.append(r)
    return replace(state, racers=tuple(racers))


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_the_page_draws_the_ring_track_with_lanes_line_and_racers(env):
    state = crashed_position()
    html = render(env, "page", state, P1)
    assert html.count("<svg") == 1
    assert html.count('class="racer"') == sum(
        1 for r in state.racers if not r.removed and r.seat not in state.resigned
    )
    assert "Start and finish line" in html
    for lane in LANES:
        assert f">{lane}</text>" in html
    # 48 column lines, rotated round the centre 7.5 degrees apart.
    assert len(re.findall(r"<line [^>]*rotate\(", html)) == 48
    crashed = re.search(r'<g class="racer" data-square="a11"[^>]*>(.*?)</g>', html, re.S)
    assert crashed is not None and "<rect" in crashed.group(1)
    assert "crashed and standing" in crashed.group(1)
    lying = re.search(r'<g class="racer" data-square="b20"[^>]*>(.*?)</g>', html, re.S)
    assert lying is not None and "<polygon" in lying.group(1) and "<rect" not in lying.group(1)
    assert "Yellow L on b20, 2 of 5 laps" in html
    assert "S: finished" in html


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_the_page_and_mail_show_the_viewer_their_own_card_only(env):
    state = with_tops(dealt(3), {P1: "K♠", P2: "7♥", P3: "4♦"})
    for name in ("page", "text"):
        mine = render(env, name, state, P1)
        assert "K♠" in mine and "7♥" not in mine and "4♦" not in mine
        assert "Your card" in mine


@pytest.mark.parametrize("env", ENVIRONMENTS)
@pytest.mark.parametrize("name", ["page", "text"])
def test_the_spectator_rendering_contains_no_secret(env, name):
    state = with_tops(dealt(3), {P1: "K♠", P2: "7♥", P3: "4♦"})
    up = step(RULES, state, Played(P2, UP))
    down = step(RULES, state, Played(P2, DOWN))
    shown = render(env, name, up, None)
    assert shown == render(env, name, down, None)
    unplayed = {card_name(c) for pile in up.piles for c in pile}
    assert not [c for c in unplayed if c in shown]
    assert "face-" not in shown and "Your card" not in shown
    # While the face-up group moves, the face-down card stays hidden from the others.
    moving = step(RULES, step(RULES, up, Played(P1, UP)), Played(P3, DOWN))
    assert moving.phase == "move"
    for viewer in (None, P1, P2):
        shown = render(env, name, moving, viewer)
        assert "4♦" not in shown and "K♠" in shown and "7♥" in shown
        assert not [c for c in (card_name(c) for p in moving.piles for c in p) if c in shown]
    assert "4♦" in render(env, name, moving, P3)


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_the_mail_text_draws_four_lanes_of_48_squares(env):
    state = crashed_position()
    text = render(env, "text", state, None)
    rows = {m[0]: m[1] for m in re.findall(r"^  ([abcd]) \|(.{48})\|$", text, re.M)}
    assert sorted(rows) == list(LANES)
    assert rows["a"][10] == "R"  # Red's crashed L stands on a11
    assert rows["a"][45:] == ".1."  # Red's M on a47; S finished, L gone to a11
    assert rows["b"][19] == "2"  # Yellow's L, two laps on, at b20
    assert "S finished" in text and "L a11 lap 0 crashed" in text
    assert "Yellow (lane b, 17 cards): S b18 lap 2, M b19 lap 2, L b20 lap 2" in text


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_the_text_is_the_same_in_both_environments(env):
    state = crashed_position()
    assert render(env, "text", state, P1).strip() == render("plain", "text", state, P1).strip()


def test_a_finished_game_renders_with_the_outcome_data():
    state = step(RULES, step(RULES, dealt(3), Played(P1, UP)), Played(P2, DOWN))
    state = step(RULES, step(RULES, state, Resigned(P1)), Resigned(P2))
    for env in ENVIRONMENTS:
        assert "Green is the last one racing" in render(env, "text", state, None)
        assert "<svg" in render(env, "page", state, None)
