"""The Martian Dice page partial and mail text render the view a player needs."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from engine import Played, Rolled, step
from engine.games.martian_dice import RULES, DiceState
from engine.testing import play_randomly
from tests.templating import ENVIRONMENTS

RED, BLUE, GREEN = 0, 1, 2



def faces(T: int = 0, R: int = 0, H: int = 0, C: int = 0, K: int = 0) -> tuple[int, ...]:
    return (1,) * T + tuple(2 + i % 2 for i in range(R)) + (4,) * H + (5,) * C + (6,) * K


def go(state: DiceState, *events: tuple[int, ...] | str) -> DiceState:
    """Apply rolls (tuples of d6 values) and picks (text) in turn."""
    for event in events:
        if isinstance(event, str):
            state = step(RULES, state, Played(state.to_move, event))
        else:
            state = step(RULES, state, Rolled(event))
    return state


def sample_turn_mid_way() -> DiceState:
    """Red's second roll of the rulebook's sample turn, awaiting a pick."""
    state = RULES.start(3, {"first_player": RED})
    return go(state, faces(T=2, R=3, H=4, C=3, K=1), "H roll", faces(T=1, R=2, C=3, K=1))


def final_round_state() -> DiceState:
    """Red reached 27 and Blue has played: Green, last in the final round, has rolled."""
    state = replace(RULES.start(3, {"first_player": RED}), scores=(20, 10, 23))
    state = go(state, faces(H=7, R=6), "H stop", faces(H=1, R=12), "H stop")
    return go(state, faces(H=4, R=9))


def after_a_duel() -> DiceState:
    """Green ties Red at 27 and loses the death-ray duel 3 to 2."""
    return go(final_round_state(), "H stop", faces(R=3, H=3), faces(R=2, C=4))


def render(env: str, name: str, state: DiceState, seat: int | None = None) -> str:
    return ENVIRONMENTS[env].get_template(name).render(view=RULES.view(state, seat))


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_the_page_draws_all_13_dice_as_labelled_svg_pictures(env):
    html = render(env, "games/martian-dice/board.html", sample_turn_mid_way(), RED)
    assert html.count("<svg") == 13
    labels = re.findall(r'aria-label="([^"]+)"', html)
    assert labels.count("Tank") == 3
    assert labels.count("Human") == 4
    assert labels.count("Death ray") == 2
    assert labels.count("Cow") == 3
    assert labels.count("Chicken") == 1
    assert labels.count("Not rolled") == 0


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_the_page_shows_the_tray_the_roll_and_the_scores(env):
    html = render(env, "games/martian-dice/board.html", sample_turn_mid_way(), RED)
    tray = html[html.index('class="md-tray"') : html.index('class="md-scores"')]
    assert re.findall(r'aria-label="([^"]+)"', tray) == ["Tank"] * 3 + ["Human"] * 4
    assert "Tanks 3 · Death rays 0 · Humans 4 · Cows 0 · Chickens 0" in tray
    assert "tanks outnumber death rays: worth 0 now" in tray
    assert "Just rolled:" in html and "1 tank, 2 death rays, 3 cows, 1 chicken" in html
    assert "Red (you)" in html and "Red to pick" in html
    for name in ("Red", "Blue", "Green"):
        assert name in html


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_unrolled_dice_wait_in_the_cup(env):
    state = go(RULES.start(2, {"first_player": BLUE}), faces(T=2, R=3, H=8), "H roll")
    html = render(env, "games/martian-dice/board.html", state)
    assert re.findall(r'aria-label="([^"]+)"', html).count("Not rolled") == 3
    assert "in the cup, 3 to roll" in html and "Blue to roll" in html


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_both_renderings_say_who_has_played_in_the_final_round(env):
    state = final_round_state()
    html = render(env, "games/martian-dice/board.html", state, GREEN)
    assert "final round" in html
    assert "Played in the final round: Red, Blue." in html
    text = render(env, "games/martian-dice/board.txt", state, GREEN)
    assert "FINAL ROUND: someone has reached 25" in text
    assert "Played in the final round: Red, Blue" in text


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_both_renderings_show_the_duel_and_the_outcome(env):
    state = after_a_duel()
    html = render(env, "games/martian-dice/board.html", state)
    text = render(env, "games/martian-dice/board.txt", state)
    reason = RULES.outcome(state).reason
    assert reason == (
        "Red and Green tie with 27 points; Red wins the death-ray duel (Red 3, Green 2 rays)"
    )
    assert reason in html and reason in text
    assert "Death-ray duel between Red and Green" in html
    assert "round 1: Red 3, Green 2" in text
    assert re.search(r"Red\s+27\s+played\s+rank 1", text)
    assert re.search(r"Green\s+27\s+played\s+rank 2", text)


def test_the_mail_text_lists_the_roll_aside_and_scores_in_server_layout():
    text = render("server", "games/martian-dice/board.txt", sample_turn_mid_way(), RED)
    lines = text.splitlines()
    assert "Just rolled:  T R R C C C K   (1 tank, 2 death rays, 3 cows, 1 chicken)" in lines
    assert "Set aside:    T 3  R 0  H 4  C 0  K 0   (worth 0 now: tanks outnumber death rays)" in (
        lines
    )
    assert "Dice left:    6 of 13" in lines
    assert "  Red        0  playing now  <- you" in lines
    assert "  Blue       0  to play" in lines
    assert "\n\n\n" not in text


def test_the_mail_text_summarises_the_last_turn():
    state = go(sample_turn_mid_way(), "R stop")
    text = render("server", "games/martian-dice/board.txt", state)
    assert "Last turn: Red played H roll, R stop." in text
    assert "Set aside 3 tanks, 2 death rays, 4 humans: 0 points (tanks outnumbered" in text
    assert "Blue is about to roll 13 dice." in text


def test_names_are_escaped_in_the_page_but_not_in_the_mail_text():
    view = RULES.view(sample_turn_mid_way(), RED)
    view["players"] = ["<b>Zax</b>", "Kwyjibo & co", "Green"]
    html = ENVIRONMENTS["plain"].get_template("games/martian-dice/board.html").render(view=view)
    text = ENVIRONMENTS["plain"].get_template("games/martian-dice/board.txt").render(view=view)
    assert "&lt;b&gt;Zax&lt;/b&gt;" in html and "<b>Zax</b>" not in html
    assert "Kwyjibo &amp; co" in html
    assert "<b>Zax</b>" in text and "Kwyjibo & co" in text and "&amp;" not in text


@pytest.mark.parametrize("seats", [2, 4, 8])
def test_every_state_of_a_random_game_renders(seats):
    game = play_randomly(RULES, seats, random.Random(seats), resign_rate=0.01)
    state = RULES.start(seats)
    for event in (*game.events, None):
        for viewer in (None, 0):
            view = RULES.view(state, viewer)
            for name in ("games/martian-dice/board.html", "games/martian-dice/board.txt"):
                out = ENVIRONMENTS["server"].get_template(name).render(view=view)
                assert all(player in out for player in view["players"])
                assert f"ound {view['round']}" in out
                if view["outcome"]:
                    assert view["outcome"]["reason"] in out
            board = ENVIRONMENTS["server"].get_template("games/martian-dice/board.html")
            html = board.render(view=view)
            assert html.count("<svg") == 13
        if event is not None:
            state = step(RULES, state, event)
    assert RULES.outcome(state) is not None
