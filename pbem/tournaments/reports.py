"""Tournaments in words and tables, for pages, mails and the command line."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import engine
from engine.figures import counted, figure

from .core import entries, formats
from .core.crosstable import result_text
from .core.model import Table, Tournament
from .core.plans import Plan
from .core.standings import Standing
from .core.tiebreaks import TITLES as TIEBREAK_TITLES
from .log import Held


def name_of(t: Tournament, player: str) -> str:
    """An entrant's name (or the id of someone who left the event)."""
    index = t.seeding.get(player)
    return t.entrants[index].name if index is not None else player


def game_title(kind: str) -> str:
    """A game's name as its rules give it (Martian Dice), or its kind if no longer installed."""
    try:
        return engine.rules_for(kind).title
    except engine.RulesError:
        return kind


def describe(held: Held) -> list[str]:
    """The format in plain sentences, for the home page and mails."""
    c = held.state.config
    seats = " or ".join(str(n) for n in c.table_sizes)
    fmt = formats.format_for(c.system)
    lines = [f"{fmt.title} of {game_title(c.kind)}, tables of {seats}.", *fmt.describe(c)]
    lines.append(f"{counted(c.game_hours, 'hour')} per decision; at a missed deadline "
                 + ("the house bot moves." if c.timeout_policy == "bot" else "the seat forfeits."))
    scoring = "game points (the rulebook's series scoring)" if c.scoring == "game-points" else \
        "places: a win 1, a draw 1/2, tables of n by (n - place) / (n - 1)"
    lines.append(f"Scored by {scoring}. Tie-breaks: "
                 + ", ".join(TIEBREAK_TITLES.get(n, n) for n in c.tiebreaks) + ".")
    lines.append("Rated." if c.rated else "Not rated.")
    return lines


def entry_rules(held: Held, now: datetime) -> list[str]:
    """Who may enter and until when, in plain sentences, for the home page and the API."""
    t = held.state
    c = t.config
    fmt = formats.format_for(c.system)
    lines = []
    if c.starts_at is not None and not t.started:
        lines.append(f"Starts by itself on {entries.when(c.starts_at)}, once "
                     f"{fmt.fewest_entrants(c)} players have entered.")
    who = []
    if c.private:
        who.append("by the director's invitation only")
    if c.max_players is not None:
        who.append(f"{c.max_players} players at most")
    if c.rating_min is not None and c.rating_max is not None:
        who.append(f"rated {c.rating_min:g} to {c.rating_max:g} in this game")
    elif c.rating_min is not None:
        who.append(f"rated {c.rating_min:g} or more in this game")
    elif c.rating_max is not None:
        who.append(f"rated {c.rating_max:g} or less in this game")
    if c.min_rated_games:
        who.append(f"with {c.min_rated_games} rated game{'' if c.min_rated_games == 1 else 's'}"
                   " of this game played")
    if who:
        lines.append("Entry: " + "; ".join(who) + ".")
    closed = entries.closed(entries.Field(c, t.started, t.last_round(), t.entries_closed,
                                          len(t.active())), now)
    if t.closed:
        return lines
    if closed is not None:
        lines.append(f"Entries are closed: {closed}.")
    elif c.registration_closes is not None:
        lines.append(f"Entries close on {entries.when(c.registration_closes)}.")
    elif fmt.takes_late_entries(c):
        lines.append("Entries stay open after the start until the director closes them.")
    return lines


def ordering(held: Held) -> str:
    """How the standings are ordered, in words."""
    config = held.state.config
    return formats.format_for(config.system).ordering(config)


def setting_fields() -> list[dict[str, Any]]:
    """Every format setting once, for the new-event form, with the formats that read it."""
    fields = []
    for name, users in formats.declared().items():
        first = users[0][1]
        fields.append({
            "name": name, "label": first.label, "whole": first.whole, "least": first.least,
            "help": "; ".join(f"{fmt.title}: {setting.help}" for fmt, setting in users),
            "systems": [fmt.system for fmt, _ in users],
        })
    return fields


def standings_lines(held: Held, explain: bool = False) -> list[str]:
    """The standings as text: the tie-break order, then a table with a heading (a line a
    player, the figures right-aligned under their titles), and on request the arithmetic."""
    rows = held.standings
    titles = ["Points", *(TIEBREAK_TITLES.get(n, n) for n in held.state.config.tiebreaks)]
    out = [f"{held.row.name} ({held.public_id}): standings after "
           f"{counted(sum(t.result is not None for t in held.state.tables), 'result')}",
           "Tie-breaks, in order: " + ", ".join(titles[1:])]
    players = [row.name + ("" if row.status == "active" else f" ({row.status})")
               for row in rows]
    figures = [[figure(row.points), *(figure(value) for _, value in row.tiebreaks)]
               for row in rows]
    wide = max([len("Player"), *map(len, players)])
    widths = [max([len(title), *(len(line[n]) for line in figures)])
              for n, title in enumerate(titles)]

    def line(place: str, player: str, cells: list[str]) -> str:
        numbers = "  ".join(f"{cell:>{width}}" for cell, width in zip(cells, widths, strict=True))
        return f"{place:>5} {player:<{wide}}  {numbers}".rstrip()

    out.append(line("", "Player", titles))
    for row, player, cells in zip(rows, players, figures, strict=True):
        out.append(line(f"{row.place}.", player, cells))
        if explain:
            out += [f"        {text}" for text in row.lines]
            if row.why:
                out.append(f"        {row.why}")
    return out


def plan_lines(held: Held, plan: Plan) -> list[str]:
    """A pairing preview: each table with its players and penalty, the byes and notes."""
    t = held.state
    label = f"round {plan.round}" if plan.round is not None else "free players"
    out = [f"{held.row.name}: pairing {label} ({plan.algorithm})"]
    for number, (seats, penalty) in enumerate(zip(plan.tables, plan.penalties, strict=True), 1):
        out.append(f"  table {number}: " + " v ".join(name_of(t, p) for p in seats))
        out.append(f"           {penalty}")
    out += [f"  bye: {name_of(t, b.player)} ({counted(b.points, 'point')})" for b in plan.byes]
    out += [f"  away: {name_of(t, p)} (on vacation, not paired)" for p in plan.away]
    out += [f"  note: {note}" for note in plan.notes]
    return out


def paired_lines(held: Held, since: int) -> list[str]:
    """The pairings logged after event `since`: each game with its players, the byes and
    who was away (what a director reads after starting or pairing)."""
    t = held.state
    out = []
    for pairing in (p for p in t.pairings if p.seq > since):
        label = f"round {pairing.round}" if pairing.round is not None else "free players"
        out.append(f"  {label}: {counted(len(pairing.games), 'game')}")
        out += [f"    {game}  " + " v ".join(name_of(t, p) for p in t.by_game[game].seats)
                for game in pairing.games]
        out += [f"    bye: {name_of(t, b.player)} ({counted(b.points, 'point')})"
                for b in t.byes if b.seq == pairing.seq]
        out += [f"    away: {name_of(t, p)} (on vacation, not paired)" for p in pairing.away]
    return out


@dataclass(frozen=True)
class Cell:
    """One game in a crosstable, from one player's side."""

    game: str
    text: str
    annulled: bool


def outcome_text(t: Tournament, table: Table, player: str) -> str:
    """How a game went for one of its players: 1, ½, 0, or a place at a table."""
    return result_text(table, player)


CROSSTABLE_ROWS = 50  # lines on a page of the crosstable


def crosstable(held: Held, page: int = 1) -> dict[str, Any]:
    """A page of the crosstable by rounds, and for a small two-player round robin the grid."""
    t = held.state
    index = held.fold.crosstable
    pages = max(1, -(-len(index.rows) // CROSSTABLE_ROWS))
    page = min(max(page, 1), pages)
    shown: dict[str, Any] = {
        "columns": index.columns, "titles": [TIEBREAK_TITLES.get(n, n) for n in t.config.tiebreaks],
        "lines": index.lines((page - 1) * CROSSTABLE_ROWS, CROSSTABLE_ROWS),
        "page": page, "pages": pages, "per_page": CROSSTABLE_ROWS, "count": len(index.rows),
        "rounds": bool(index.rounds), "grid": None,
    }
    if index.matrix_fits():
        order = [r.player for r in index.rows]
        shown["grid"] = {
            a: {b: [Cell(tb.game, outcome_text(t, tb, a), tb.annulled is not None)
                    for tb in t.games_of.get(a, ()) if b in tb.seats]
                for b in order if b != a}
            for a in order
        }
        shown["order"] = order
        shown["names"] = {p: name_of(t, p) for p in order}
    return shown


def player_card(held: Held, player: str) -> dict[str, Any]:
    """One entrant's games, byes and standing."""
    t = held.state
    row: Standing | None = held.fold.standing_of.get(player)
    return {
        "name": name_of(t, player),
        "standing": row,
        "games": [
            {"table": tb, "outcome": outcome_text(t, tb, player),
             "opponents": [name_of(t, p) for p in tb.seats if p != player],
             "seat": tb.seats.index(player)}
            for tb in t.games_of.get(player, ())
        ],
        "byes": [b for b in t.byes if b.player == player],
        "left": left_text(held, player),
    }


def left_text(held: Held, player: str) -> str | None:
    """Whether, when, by whom and why an entrant left the event, in words (None: still in)."""
    index = held.state.seeding.get(player)
    left = None if index is None else held.state.entrants[index].left
    if left is None:
        return None
    by = f" by {left.by}" if left.by else ""
    return f"{left.how.capitalize()}{by} on {left.at:%d %B %Y}: {left.reason}."


def next_pairing(held: Held, now: datetime) -> str:
    """When the next games will be paired, in words."""
    t = held.state
    if not t.started:
        return "at the start, when the director starts the event"
    if t.closed:
        return "never: the event is over"
    return formats.format_of(t).next_pairing(t)


def timetable(held: Held) -> list[str]:
    """A Swiss's timetable for its page: each round's date, and when and how it started."""
    t = held.state
    paired = {p.round: p.at for p in t.pairings if p.round is not None}
    lines = []
    rounds = max([len(t.config.round_starts) + 1, *(s.round for s in t.round_starts)])
    for round_ in range(2, rounds + 1):
        due, start = t.config.round_due(round_), t.round_start(round_)
        if due is None and start is None:
            continue
        line = f"Round {round_}: " + (f"starts by {entries.when(due)}." if due else
                                      "no date set.")
        at = paired.get(round_)
        if at is None:
            lines.append(line)
            continue
        line += f" Started {entries.when(at)}, "
        if start is not None:
            fate = "adjudicated" if start.unfinished == "adjudicate" else "carried"
            games = f"game{'' if len(start.games) == 1 else 's'} {', '.join(start.games)}"
            how = ("on the timetable" if start.timetable else f"early: {start.by} started it "
                   f"before round {round_ - 1} was over ({start.reason})")
            line += f"{how}; round {round_ - 1}'s unfinished {games} {fate}."
        elif due is None or at <= due:
            line += f"early: round {round_ - 1} was over."
        else:
            line += f"late: round {round_ - 1}'s last game ended after the date."
        lines.append(line)
    return lines
