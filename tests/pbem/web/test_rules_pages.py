"""The rules on the site: every game's rulebook, notation, options, rulings and a board."""

from __future__ import annotations

import pytest

import engine
from pbem.games import site_for


@pytest.mark.parametrize("kind", engine.GAMES)
def test_each_game_has_a_rules_page_with_its_rulebook_options_and_rulings(client, kind):
    rules = engine.rules_for(kind)
    page = client.get(f"/rules/{kind}")
    body = page.get_data(as_text=True)

    assert page.status_code == 200
    assert f"<h1>{rules.title}</h1>" in body
    assert 'id="rulebook"' in body and len(body.split('class="rulebook"')[1]) > 2000
    assert "Rulings: what the engine does" in body and "<table>" in body
    for option in rules.options:
        assert f"<code>{option.name}</code>" in body
    assert "<svg" in body or "<pre" in body  # a picture of the board at the start


def test_the_lobby_and_the_new_game_form_link_to_the_rules(app, client):
    assert 'href="/rules/martian-dice"' in client.get("/").get_data(as_text=True)


def test_the_docs_are_served_from_the_repository(client):
    page = client.get("/docs/playing.md").get_data(as_text=True)
    assert "<h2" in page and "Move notation" in page
    assert client.get("/docs/secrets.md").status_code == 404
    assert client.get("/rules/chess").status_code == 404


@pytest.mark.parametrize("kind", engine.GAMES)
def test_the_rulings_of_each_game_list_every_option_with_its_default(kind):
    rules = engine.rules_for(kind)
    site = site_for(kind)
    section = "\n".join(site.read(name) for name in site.rulings)
    for option in rules.options:
        assert f"| `{option.name}` |" in section, f"docs/rulings.md lacks {kind} {option.name}"
    for name in ("stall_rounds", "max_turns"):
        if name in {o.name for o in rules.options} and kind != "martian-frisby":
            assert f"| `{name}` | `0` (off) |" in section

