"""What every game must provide to be played on the server, as a list of what one lacks.

The engine's contract (tests/engine/test_contract.py) plays each game at random; this one
checks the rest of a game's registration: its server-side folder (a Site), the files it
names, the templates every page and mail includes, its rulings, and that its optional
capabilities are of the right kind. Each shortcoming names the game and the missing piece.
"""

from __future__ import annotations

import random
from typing import Any

import engine
from engine.capabilities import Duplicate, LuckModel
from engine.testing import play_randomly, with_limits
from pbem import present
from pbem.games import OPTIONAL_TEMPLATES, TEMPLATES, SiteError, parse_rulings, site_for
from pbem.mail.compose import templates as mail_templates

PROVIDES = (
    "a registration whose rules module has RULES of that kind, with a title and seat counts",
    "a site (pbem.games.Site) named by the registration",
    "the site's rulings, notation and rulebook files",
    "templates board.html (pages), board.txt (text mail), mail.html (HTML mail), howto.txt",
    "rulings docs that parse and name every option",
    "optional capabilities of the right kind: luck (LuckModel), duplicate (Duplicate), "
    "mirror (bool); a duplicate game names the address of every roll",
)


def shortcomings(kind: str) -> list[str]:
    """What a registered game lacks, each as "<kind>: <the missing piece>"; [] when complete."""
    try:
        rules = engine.rules_for(kind)
    except Exception as e:  # a broken registration is itself the finding
        return [f"{kind}: its rules cannot be loaded ({type(e).__name__}: {e})"]
    found = [f"{kind}: {problem}" for problem in _rules(kind, rules)]
    try:
        site = site_for(kind)
    except SiteError as e:
        return [*found, str(e)]  # it names the game
    found += [f"{kind}: its folder {site.folder} lacks {name}" for name in site.missing()]
    if not found:
        found += [f"{kind}: {problem}" for problem in _docs(rules, site)]
        found += [f"{kind}: {problem}" for problem in _renders(rules)]
    return found


def _rules(kind: str, rules: engine.Rules[Any]) -> list[str]:
    found = []
    if rules.kind != kind:
        found.append(f"its RULES are of kind {rules.kind!r}")
    if not getattr(rules, "title", "") or not getattr(rules, "seats", ()):
        found.append("its RULES have no title or no seat counts")
    if rules.luck is not None and not isinstance(rules.luck, LuckModel):
        found.append("its luck is not an engine.LuckModel")
    if rules.duplicate is not None and not isinstance(rules.duplicate, Duplicate):
        found.append("its duplicate is not an engine.Duplicate")
    if not isinstance(rules.mirror, bool):
        found.append("its mirror is not True or False")
    if rules.duplicate is not None and not _addresses_every_roll(rules):
        found.append("it can be played duplicate but does not name the address of every roll")
    return found


def _addresses_every_roll(rules: engine.Rules[Any]) -> bool:
    seats = max(rules.seats)
    options = rules.resolve_options(with_limits(rules, None))
    events = play_randomly(rules, seats, random.Random(27), options, max_events=400).events
    state = rules.start(seats, options)
    for event in events:
        if isinstance(rules.pending(state), engine.Roll) and rules.chance_address(state) is None:
            return False
        state = engine.step(rules, state, event)
    return True


def _docs(rules: engine.Rules[Any], site: Any) -> list[str]:
    text = "\n".join(site.read(name) for name in site.rulings)
    try:
        parse_rulings(text)
    except ValueError as e:
        return [f"its rulings do not parse: {e}"]
    return [
        f"its rulings ({', '.join(site.rulings)}) do not name the option {o.name!r}"
        for o in rules.options
        if f"`{o.name}`" not in text
    ]


def _renders(rules: engine.Rules[Any]) -> list[str]:
    """Render each template for the start of a game, for a spectator and for a seat."""
    found = []
    state = rules.start(rules.seats[0], rules.resolve_options())
    for seat in (None, 0):
        pos = present.position(rules, state, seat)
        for name in (*TEMPLATES, *OPTIONAL_TEMPLATES):
            template = f"games/{rules.kind}/{name}"
            try:
                if name in OPTIONAL_TEMPLATES:
                    mail_templates.get_template(template)  # parsed only: pages give url_for
                else:
                    mail_templates.get_template(template).render(pos=pos, view=pos["view"])
            except Exception as e:
                if name in OPTIONAL_TEMPLATES and type(e).__name__ == "TemplateNotFound":
                    continue
                found.append(f"its template {name} fails to render: {type(e).__name__}: {e}")
    return sorted(set(found))
