"""A game's rulings are read from its own Markdown, with the heading each table sits under."""

from __future__ import annotations

import pytest

import engine
from pbem.games import parse_rulings, rulings_for

TEXT = """## Martian Frisby

### Rulings

| rulebook section | the question | what the engine does |
|---|---|---|
| Setup | Who starts? | A roll. |

| step | written | when allowed |
|---|---|---|
| Enter | `+U` | not a ruling: another table |

### The Mad Dog phase

| rulebook section | the question | what the engine does |
|---|---|---|
| Release | Who? | The winner. |
"""


def test_a_ruling_takes_its_topic_from_the_heading_above_its_table():
    rulings = parse_rulings(TEXT)

    assert [(r.topic, r.section, r.question, r.answer) for r in rulings] == [
        ("Martian Frisby", "Setup", "Who starts?", "A roll."),
        ("The Mad Dog phase", "Release", "Who?", "The winner."),
    ]


def test_a_ruling_row_without_three_cells_is_refused_with_the_row():
    with pytest.raises(ValueError, match="three cells, not 2: | Setup | Who starts? |"):
        parse_rulings(TEXT.replace("| Setup | Who starts? | A roll. |", "| Setup | Who starts? |"))


@pytest.mark.parametrize("kind", engine.GAMES)
def test_every_game_lists_rulings(kind):
    assert rulings_for(kind)


def test_martian_race_lists_the_movement_systems_its_own_and_the_mad_dog_phases_rulings():
    topics = [r.topic for r in rulings_for("martian-race")]

    assert topics[0] == "Board and pieces"
    assert "Martian Race" in topics and topics[-1] == "The Mad Dog phase"
    assert "Mad Dog" not in topics


def test_an_unknown_kind_has_no_rulings():
    with pytest.raises(engine.UnknownGame, match="martian-chess"):
        rulings_for("martian-chess")
