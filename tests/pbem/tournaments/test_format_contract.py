"""Every registered format keeps the Format contract, and the registry names a plug-in it refuses.

Each format is played to its end with random results, from its settings' examples, at two
players and at tables of 3 or 4 (where it seats tables): every pairing must fold and be
re-derived by `verify`, the event must end, and its words must be there. A failure names
the format and what it lacks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import pytest

from pbem.tournaments.core import formats
from pbem.tournaments.core.config import COMMON, parse_config
from pbem.tournaments.core.contract import Format, Setting
from pbem.tournaments.core.errors import BadFormat
from pbem.tournaments.core.standings import standings
from pbem.tournaments.core.verify import verify

from .logs import Log
from .simulate import run

SHAPES = ((2,), (3, 4))
PLAYERS = 7


def example(fmt: Format, sizes: tuple[int, ...]) -> dict[str, Any]:
    """A create payload of the format from its settings' examples."""
    settings = {s.name: s.example for s in fmt.settings if s.example is not None}
    return {"name": "Contract", "system": fmt.system, "kind": "martian-dice",
            "table_sizes": list(sizes), "director": "dee", **settings}


def playable(fmt: Format) -> list[tuple[int, ...]]:
    """The shapes the format accepts with its examples."""
    shapes = []
    for sizes in SHAPES:
        try:
            parse_config(example(fmt, sizes))
        except BadFormat:
            continue
        shapes.append(sizes)
    return shapes


def words(fmt: Format, log: Log) -> list[str]:
    """What the format lacks in words for the pages, checked on a running event."""
    t = log.tournament()
    lacking = []
    for name, said in (("describe", fmt.describe(t.config)), ("ordering", [fmt.ordering(t.config)]),
                       ("next_pairing", [fmt.next_pairing(t)]),
                       ("nothing_due", [fmt.nothing_due(t)])):
        if not said or not all(isinstance(line, str) and line.strip() for line in said):
            lacking.append(f"{name}() gives no words")
    ends = formats.forecast_end(t, log.now)
    if not isinstance(ends, datetime) or ends < log.now:
        lacking.append(f"a forecast end before now ({ends})")
    if not isinstance(fmt.expected_games(t), int) or fmt.expected_games(t) < 1:
        lacking.append("expected_games() below 1")
    return lacking


def played(fmt: Format, sizes: tuple[int, ...], seed: int) -> list[str]:
    """Play an event of the format to its end; return what did not hold."""
    config = example(fmt, sizes)
    log = Log(fmt.system, **{k: v for k, v in config.items() if k not in ("name", "system")})
    log.register(*[f"p{i}" for i in range(1, PLAYERS + 1)]).start()
    lacking = words(fmt, log)
    try:
        run(log, seed, max_steps=2000)
    except AssertionError as e:
        return [*lacking, f"at tables of {sizes}: {e}"]
    t = log.tournament()
    mismatch = verify(log.events)
    if mismatch is not None:
        lacking.append(f"at tables of {sizes}: verify does not re-derive it: {mismatch}")
    if formats.plan(t, log.now) is not None:
        lacking.append(f"at tables of {sizes}: a plan after the end")
    if sorted(r.player for r in standings(t)) != sorted(e.player for e in t.entrants):
        lacking.append(f"at tables of {sizes}: standings that do not list each entrant once")
    if not any(e.kind == "pair" for e in log.events):
        lacking.append(f"at tables of {sizes}: no pairing at all")
    return lacking


def names(fmt: Format) -> list[str]:
    """What the format lacks in its names and settings."""
    lacking = [f"a {name}" for name in ("system", "title", "summary")
               if not isinstance(getattr(fmt, name, None), str) or not getattr(fmt, name)]
    if not formats.SYSTEM_NAME.fullmatch(getattr(fmt, "system", "")):
        lacking.append("a system name of lower-case letters, digits and '-' (at most 20)")
    declared = [s.name for s in fmt.settings if isinstance(s, Setting)]
    if len(declared) != len(fmt.settings):
        lacking.append("settings that are all contract.Setting")
    if len(set(declared)) != len(declared) or set(declared) & set(COMMON):
        lacking.append(f"settings named once each and apart from the common fields {COMMON}")
    lacking += [f"a setting name of lower-case letters, digits and '_', not {name!r}"
                for name in declared if not re.fullmatch(r"[a-z][a-z0-9_]*", name)]
    return lacking


@pytest.mark.parametrize("fmt", formats.formats(), ids=lambda f: f.system)
def test_every_format_keeps_the_contract(fmt):
    lacking = names(fmt)
    shapes = playable(fmt)
    if not shapes:
        lacking.append(f"examples it accepts at two players or at tables of 3 or 4: "
                       f"{[example(fmt, s) for s in SHAPES]}")
    for seed, sizes in enumerate(shapes):
        lacking += played(fmt, sizes, seed)
    assert not lacking, f"{fmt.system} lacks: " + "; ".join(lacking)


def test_every_installed_plug_in_was_registered():
    assert formats.problems() == ()


def test_a_setting_two_formats_share_is_the_same_kind_of_number_in_both():
    for name, users in formats.declared().items():
        kinds = {(s.whole, s.least, s.unit) for _, s in users}
        assert len(kinds) == 1, f"{name!r} is read differently by {[f.system for f, _ in users]}"


class Halfway(Format):
    system, title, summary = "halfway", "Halfway", "a format without a plan"

    def describe(self, config: Any) -> list[str]:
        return ["Half a format."]

    def is_over(self, t: Any) -> bool:
        return True


@pytest.mark.parametrize(("found", "named"), [
    (Halfway, "Halfway lacks plan"),
    (object(), "is not a pbem.tournaments.core.contract.Format"),
    (type("Shouting", (formats.format_for("swiss").__class__,), {"system": "SWISS!"})(),
     "system 'SWISS!' must be 1 to 20 lower-case letters"),
    (type("Nameless", (formats.format_for("swiss").__class__,), {"title": ""})(),
     "Nameless lacks title"),
])
def test_the_registry_names_what_a_refused_plug_in_lacks(found, named):
    problem = formats.load_format(found, "entry point 'x' (x:FORMAT)")
    assert isinstance(problem, str) and problem.startswith("entry point 'x' (x:FORMAT): ")
    assert named in problem


def test_a_registered_format_is_offered_and_forgotten_again():
    class Again(type(formats.format_for("swiss"))):  # type: ignore[misc]
        system, title = "swiss-again", "Swiss again"

    formats.register(Again())
    try:
        assert formats.format_for("swiss-again").title == "Swiss again"
        assert parse_config(example(Again(), (2,))).system == "swiss-again"
    finally:
        formats.unregister("swiss-again")
    with pytest.raises(BadFormat, match="system 'swiss-again' is not one of"):
        formats.format_for("swiss-again")


def test_a_setting_of_another_format_is_refused_naming_the_formats_it_applies_to():
    payload: Mapping[str, Any] = {**example(formats.format_for("knockout"), (2,)), "rounds": 2}
    with pytest.raises(BadFormat, match="'rounds' does not apply to knockout events "
                                        r"\(it applies to round-robin and swiss\)"):
        parse_config(payload)


class Point:
    """An entry point as importlib.metadata gives one: a name, a value, and what it loads."""

    def __init__(self, name: str, found: Any) -> None:
        self.name, self.value, self.found = name, f"{name}_pkg:FORMAT", found

    def load(self) -> Any:
        if isinstance(self.found, Exception):
            raise self.found
        return self.found


class Tiered(type(formats.format_for("swiss"))):  # type: ignore[misc]
    system, title = "tiered", "Tiered Swiss"


def test_discovery_registers_the_built_ins_then_each_plug_in_by_name_and_names_the_refused(
    monkeypatch,
):
    points = [Point("zeta", ValueError("no such module")), Point("tiered", Tiered),
              Point("again", type("Again", (Tiered,), {"system": "swiss"})),
              Point("bare", object)]
    asked = []

    def entry_points(group: str) -> list[Point]:
        asked.append(group)
        return points

    monkeypatch.setattr(formats, "entry_points", entry_points)
    try:
        formats.discover()
        assert asked == ["pbem.formats"]
        assert [f.system for f in formats.formats()] == [
            "round-robin", "swiss", "rolling-swiss", "knockout", "tiered"]
        assert isinstance(formats.format_for("tiered"), Tiered)  # a class is instantiated
        assert formats.problems() == (
            "entry point 'again' (again_pkg:FORMAT): system 'swiss' is taken already",
            "entry point 'bare' (bare_pkg:FORMAT): <class 'object'> is not a "
            "pbem.tournaments.core.contract.Format",
            "entry point 'zeta' (zeta_pkg:FORMAT) does not load: ValueError: no such module",
        )
    finally:
        monkeypatch.undo()
        formats.discover()
    assert "tiered" not in [f.system for f in formats.formats()] and formats.problems() == ()


def test_a_plug_in_is_told_everything_it_lacks_at_once():
    class Empty(Format):
        pass

    problem = formats.load_format(Empty, "x")
    assert problem == "x: Empty lacks describe, is_over, plan"
    nameless = type("Nameless", (Tiered,), {"system": "", "summary": ""})()
    assert formats.load_format(nameless, "x") == "x: Nameless lacks system, summary"
    long = type("Long", (Tiered,), {"system": "a" * 21})()
    assert formats.load_format(long, "x") == (
        f"x: system {'a' * 21!r} must be 1 to 20 lower-case letters, digits or '-', starting "
        "with a letter")
    assert formats.load_format(type("Fine", (Tiered,), {"system": "a" * 20}), "x").system == (
        "a" * 20)


def test_forgetting_one_registered_format_keeps_the_others():
    formats.register(Tiered())
    formats.register(type("Other", (Tiered,), {"system": "other"})())
    try:
        formats.unregister("tiered")
        assert formats.format_for("other").system == "other"
        with pytest.raises(BadFormat, match="system 'tiered' is not one of"):
            formats.format_for("tiered")
    finally:
        formats.unregister("tiered")
        formats.unregister("other")


def test_a_plug_in_without_a_summary_at_all_is_told_so():
    class Unsummed(Format):
        system, title = "unsummed", "Unsummed"

        def plan(self, t: Any, now: Any, away: Any) -> None:
            return None

        def is_over(self, t: Any) -> bool:
            return True

        def describe(self, config: Any) -> list[str]:
            return ["Nothing."]

    assert not hasattr(Unsummed, "summary")
    assert formats.load_format(Unsummed, "x") == "x: Unsummed lacks summary"
