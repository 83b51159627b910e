"""Duplicate boards: tables sharing one deal of addressed dice, scored against each other.

Every table of a duplicate round rolls from the same seed with dice scheme 2, so the same
seat on the same turn sees the same faces at every table. A game's rules say whether it can
be played so and how its tables are compared (their duplicate model): seat by seat (each
seat's result against the same seat at the other tables), or turn by turn (each seat's score
on a turn against every table that played that seat and turn, as in Martian Dice). A table
scores 1 for every table it beat and 1/2 for every tie.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from engine.capabilities import Duplicate
from engine.capabilities import ScoredTurn as Turn

from ..errors import Rejected
from ..log import store
from ..luck.core import luck


def stream_name(tournament: str, round_: int) -> str:
    """The dice stream every table of a duplicate round shares."""
    return f"{tournament}-r{round_}"


def refusal(kind: str) -> str | None:
    """Why a game kind cannot be played duplicate, if it cannot."""
    if engine.rules_for(kind).duplicate is not None:
        return None
    able = [k for k in engine.GAMES if engine.rules_for(k).duplicate is not None]
    return f"duplicate dice need a dice game ({', '.join(able)}), not {kind}"


def matchpoints(results: Mapping[str, Any]) -> dict[str, float]:
    """Each table's matchpoints on one board: 1 per table it beat, 1/2 per table it tied."""
    return {
        key: sum(
            1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            for other, theirs in results.items()
            if other != key
        )
        for key, mine in results.items()
    }


@dataclass(frozen=True)
class Table:
    """One table of a board: its game, its players by seat, and its log."""

    game: str
    names: tuple[str, ...]
    setup: store.Setup
    log: Sequence[store.LogEntry]


@dataclass(frozen=True)
class Row:
    """A line of a board: one seat on one turn (or one seat's game), across the tables."""

    label: str
    cells: tuple[dict[str, Any] | None, ...]  # per table: what happened there, or None


@dataclass(frozen=True)
class Board:
    """Every table of a board side by side, and each player's matchpoints."""

    kind: str
    by: str  # "seat" or "turn": how the tables are compared (the game's duplicate model)
    tables: tuple[Table, ...]
    rows: tuple[Row, ...]
    totals: tuple[tuple[str, float], ...]  # (player, matchpoints), best first
    luck: Mapping[str, float] = field(default_factory=dict)  # dice against expectation
    legend: str = ""  # what a turn's letters stand for (the game's duplicate model)


def same_deal(tables: Sequence[Table]) -> None:
    """Refuse a board whose tables do not play the same game with the same options and dice."""
    if not tables:
        raise Rejected("a board needs at least one table")
    first = tables[0].setup
    for table in tables[1:]:
        setup = table.setup
        differs = [
            f"{name} {theirs!r} instead of {mine!r}"
            for name, mine, theirs in (
                ("game", first.kind, setup.kind),
                ("rules version", first.rules_version, setup.rules_version),
                ("seats", first.seats, setup.seats),
                ("options", first.options, setup.options),
                ("dice scheme", first.dice_scheme, setup.dice_scheme),
            )
            if mine != theirs
        ]
        if differs:
            raise Rejected(
                f"game {table.game} cannot be compared with game {tables[0].game}: it has "
                + ", ".join(differs)
            )


def board(tables: Sequence[Table]) -> Board:
    """Lay the tables side by side and matchpoint them (Rejected if they differ)."""
    same_deal(tables)
    kind = tables[0].setup.kind
    if refusal(kind):
        raise Rejected(str(refusal(kind)))
    model = engine.rules_for(kind).duplicate
    assert model is not None
    laid = _turn_board(tables, model) if model.by == "turn" else _seat_board(tables)
    return replace(laid, luck=_luck(tables), legend=model.legend)


def _luck(tables: Sequence[Table]) -> dict[str, float]:
    """Each player's dice against expectation, summed over their tables of the board."""
    found: dict[str, float] = defaultdict(float)
    for table in tables:
        setup = table.setup
        events = [e for e in map(store.engine_event, table.log) if e is not None]
        figures = luck.game_luck(setup.kind, setup.seats, setup.options, events)
        for seat, name in enumerate(table.names):
            found[name] += figures.luck[seat] if figures is not None else 0.0
    return dict(found)


def _replay(table: Table) -> Iterable[tuple[Any, Any]]:
    """Each state of the table's game before and after every event the rules see."""
    rules = engine.rules_for(table.setup.kind)
    state = rules.start(table.setup.seats, table.setup.options)
    for entry in table.log:
        event = store.engine_event(entry)
        if event is None:
            continue
        after = engine.step(rules, state, event)
        yield state, after
        state = after


def table_turns(table: Table, model: Duplicate) -> dict[tuple[int, int], Turn]:
    """Every finished turn of a table, by (round, seat), for a game compared turn by turn."""
    return {key: turn for pair in _replay(table) for key, turn in model.turns(*pair)}


def _turn_board(tables: Sequence[Table], model: Duplicate) -> Board:
    per_table = [table_turns(t, model) for t in tables]
    keys = sorted({key for turns in per_table for key in turns})
    totals: dict[str, float] = defaultdict(float)
    rows = []
    for round_, seat in keys:
        played = {
            i: turns[(round_, seat)] for i, turns in enumerate(per_table) if (round_, seat) in turns
        }
        points = matchpoints({str(i): turn.points for i, turn in played.items()})
        cells: list[dict[str, Any] | None] = []
        for i, table in enumerate(tables):
            turn = played.get(i)
            if turn is None:
                cells.append(None)
                continue
            totals[table.names[seat]] += points[str(i)]
            cells.append(
                {
                    "player": table.names[seat],
                    "rolls": turn.rolls,
                    "picks": turn.picks,
                    "points": turn.points,
                    "ending": turn.ending,
                    "matchpoints": points[str(i)],
                }
            )
        rows.append(Row(model.label(round_, seat), tuple(cells)))
    return Board(tables[0].setup.kind, "turn", tuple(tables), tuple(rows), _ranked(totals))


def _seat_board(tables: Sequence[Table]) -> Board:
    rules = engine.rules_for(tables[0].setup.kind)
    outcomes = []
    for table in tables:
        states = list(_replay(table))
        final = states[-1][1] if states else None
        outcomes.append(rules.outcome(final) if final is not None else None)
    totals: dict[str, float] = defaultdict(float)
    rows = []
    for seat in range(tables[0].setup.seats):
        results = {}
        for i, outcome in enumerate(outcomes):
            if outcome is not None:
                score = outcome.scores[seat] if outcome.scores is not None else 0
                results[str(i)] = (-outcome.ranks[seat], score)
        points = matchpoints(results)
        cells: list[dict[str, Any] | None] = []
        for i, table in enumerate(tables):
            if str(i) not in points:
                cells.append(None)
                continue
            rank, score = results[str(i)]
            totals[table.names[seat]] += points[str(i)]
            cells.append(
                {
                    "player": table.names[seat],
                    "rank": -rank,
                    "score": score,
                    "matchpoints": points[str(i)],
                }
            )
        rows.append(Row(f"Seat {seat + 1}", tuple(cells)))
    return Board(tables[0].setup.kind, "seat", tuple(tables), tuple(rows), _ranked(totals))


def _ranked(totals: Mapping[str, float]) -> tuple[tuple[str, float], ...]:
    return tuple(sorted(totals.items(), key=lambda item: (-item[1], item[0])))
