"""A director's view of an event: entrants, games in play, the next pairing, the actions taken."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from engine.figures import figure as fmt

from .. import clock
from ..log.games import dice_held, last_ruling
from ..log.games import load as load_game
from ..models import Game, Player, Tournament, TournamentEntrant, TournamentEvent
from . import directing, reports
from .core import formats
from .core.model import Event
from .log import Held, core_events, entries, load

# The log's kinds that a person took, shown with who and why; the rest is the server's doing.
ACTS = ("withdraw", "replace", "director")


@dataclass(frozen=True)
class EntrantRow:
    """One entrant as the director sees them."""

    player: str
    name: str
    status: str
    place: int | None
    points: str
    playing: int
    away_until: datetime | None
    mail_failing: str | None

    @property
    def active(self) -> bool:
        """Whether the entrant is still paired."""
        return self.status == "active"


@dataclass(frozen=True)
class GameRow:
    """One unfinished game: who plays, who is awaited and until when."""

    game: str
    round: int | None
    names: tuple[str, ...]
    awaited: tuple[str, ...]
    until: datetime | None
    overdue: bool
    held: bool  # a duplicate round's dice are still secret: nothing of it is shown
    moved: bool  # somebody has acted: it can be annulled, no longer taken back


@dataclass(frozen=True)
class Act:
    """One action from the log: when, who, what and why."""

    at: datetime
    who: str
    what: str
    why: str


@dataclass(frozen=True)
class Dashboard:
    """Everything the director page shows."""

    round: int
    rounds: int | None
    late_entries: bool  # entries stay open after the start
    entrants: tuple[EntrantRow, ...]
    games: tuple[GameRow, ...]
    next_pairing: str
    ends: datetime | None  # the forecast end, if every game takes its full time
    forecast: list[str] | None
    why_not: str | None
    acts: tuple[Act, ...]
    directors: tuple[tuple[str, str], ...]  # names, the lead first, and "lead" or "co-director"
    next_round: int | None = None  # a round that may start early: the last one's games hold it
    next_due: datetime | None = None  # when the timetable starts it at the latest
    early: tuple[str, ...] = ()  # the games of the last round that hold it, as "id (A v B)"
    unfinished_games: str | None = None  # what the timetable does to them

    @property
    def overdue(self) -> tuple[GameRow, ...]:
        """The games past their deadline (the next tick applies the timeout policy)."""
        return tuple(g for g in self.games if g.overdue)

    @property
    def away(self) -> tuple[EntrantRow, ...]:
        """The entrants on vacation now."""
        return tuple(e for e in self.entrants if e.away_until is not None)

    @property
    def failing(self) -> tuple[EntrantRow, ...]:
        """The entrants whose mail bounces."""
        return tuple(e for e in self.entrants if e.mail_failing is not None)


def build(session: Session, held: Held, now: datetime) -> Dashboard:
    """Gather the event at a glance for its director."""
    t = held.state
    people = {str(p.id): p for p in session.scalars(
        select(Player).where(Player.id.in_([int(e.player) for e in t.entrants]))
    )} if t.entrants else {}
    ranked = {r.player: r for r in held.standings} if t.started else {}
    playing = {e.player: 0 for e in t.entrants}
    games = []
    for table in t.unfinished():
        for p in table.seats:
            playing[p] = playing.get(p, 0) + 1
        games.append(game_row(session, held, table.game, now))
    rows = []
    order = sorted(t.entrants, key=lambda e: (ranked[e.player].place, t.seeding[e.player])
                   if e.player in ranked else (0, t.seeding[e.player]))
    for e in order:
        person = people.get(e.player)
        row = ranked.get(e.player)
        away = person.away_until if person is not None and clock.is_away(person, now) else None
        failing = None
        if person is not None and person.mail_failing_at is not None:
            failing = person.mail_failure or "mail bounces"
        rows.append(EntrantRow(
            e.player, e.name, e.status, row.place if row else None,
            fmt(row.points) if row else "", playing.get(e.player, 0),
            None if away is None else clock.as_utc(away), failing,
        ))
    plan = directing.preview(session, held, now) if t.started and not t.closed else None
    return Dashboard(
        round=t.last_round(),
        rounds=t.config.rounds if formats.format_of(t).round_by_round else None,
        late_entries=formats.format_of(t).takes_late_entries(t.config),
        entrants=tuple(rows),
        games=tuple(games),
        next_pairing=reports.next_pairing(held, now),
        ends=formats.forecast_end(t, now),
        forecast=reports.plan_lines(held, plan) if plan else None,
        why_not=None if plan or not t.started else directing.why_nothing_is_due(held, now),
        acts=tuple(reversed(acts(held, logged(session, held), rulings(session, held)))),
        directors=directors(session, held),
        **next_round(held),
    )


def next_round(held: Held) -> dict[str, Any]:
    """The next round of a Swiss that may start before the last one is over: its number,
    its date on the timetable, and the games that hold it."""
    t = held.state
    last = t.last_round()
    if (not t.started or t.closed or not last or not formats.format_of(t).takes_timetable
            or last >= (t.config.whole("rounds") or 0)):
        return {}
    holding = t.holding(last)
    return {
        "next_round": last + 1 if holding else None,
        "next_due": t.config.round_due(last + 1),
        "early": tuple(f"{tb.game} ({' v '.join(reports.name_of(t, p) for p in tb.seats)})"
                       for tb in holding),
        "unfinished_games": t.config.unfinished_games,
    }


def directors(session: Session, held: Held) -> tuple[tuple[str, str], ...]:
    """Who directs the event: the lead first, then the co-directors."""
    ids = list(held.state.directors) or [str(held.row.director_id)]
    people = {str(p.id): p.name for p in session.scalars(
        select(Player).where(Player.id.in_([int(i) for i in ids])))}
    return tuple((people.get(p, p), "lead" if i == 0 else "co-director")
                 for i, p in enumerate(ids))


def game_row(session: Session, held: Held, public_id: str, now: datetime) -> GameRow:
    """An unfinished game of the event: its players, who it waits for and until when."""
    t = held.state
    table = t.by_game[public_id]
    names = tuple(reports.name_of(t, p) for p in table.seats)
    loaded = load_game(session, public_id)
    moved = any(directing.has_moved(session, public_id, s) for s in range(len(table.seats)))
    if dice_held(session, loaded.game):
        return GameRow(public_id, table.round, names, (), None, False, True, moved)
    awaited = loaded.awaited() if loaded.game.status == "active" else ()
    until = clock.deadline_of(loaded.game, [loaded.player(s) for s in awaited])
    return GameRow(public_id, table.round, names,
                   tuple(loaded.player(s).name for s in awaited), until,
                   until is not None and until <= now, False, moved)


def rulings(session: Session, held: Held) -> dict[str, tuple[str, str]]:
    """Who adjudicated each adjudicated game and why, from the games' own logs."""
    wanted = [t.game for t in held.state.tables
              if t.result is not None and "adjudicated" in t.result.flags]
    found = {}
    if wanted:  # each game's last ruling is one event: no game is replayed for it
        for game in session.scalars(select(Game).where(Game.public_id.in_(wanted))):
            ruling = last_ruling(session, game)
            if ruling is not None:
                found[game.public_id] = (ruling.by, ruling.reason)
    return found


def logged(session: Session, held: Held) -> list[Event]:
    """The events people cause, from the tournament's log, oldest first."""
    return core_events(entries(session, held.row, kinds=(*ACTS, "register", "result")))


def acts(held: Held, events: list[Event], ruled: dict[str, tuple[str, str]]) -> list[Act]:
    """The actions people took on the event, oldest first, each with who and why.

    A game adjudicated on its own page ends with a `result`; its game's log says who and why.
    """
    t = held.state
    found = []
    for event in events:
        p = event.payload
        if event.kind == "result" and str(p.get("game")) in ruled:
            who, why = ruled[str(p["game"])]
            found.append(Act(event.at, who, f"adjudicated game {p['game']}", why))
        if event.kind not in ACTS:
            continue
        who = str(p.get("by") or "")
        if event.kind == "withdraw":
            name = reports.name_of(t, str(p.get("player")))
            what = "withdrew" if who == name else f"withdrew {name}"
        elif event.kind == "replace":  # its `by` is the newcomer; `director` who replaced
            what = (f"replaced {former_name(held, events, str(p.get('player')))} "
                    f"by {p.get('name') or p.get('by')}")
            who = str(p.get("director") or "")
        else:
            what = action_words(held, p)
        found.append(Act(event.at, who or "the director", what, str(p.get("reason") or "")))
    return found


def former_name(held: Held, events: list[Event], player: str) -> str:
    """The name a player entered under, even after they were replaced."""
    for event in events:
        if event.kind == "register" and event.payload.get("player") == player:
            return str(event.payload.get("name") or player)
    return reports.name_of(held.state, player)


def action_words(held: Held, p: Any) -> str:
    """A director event's action in words."""
    t = held.state
    action = str(p.get("action"))
    game = p.get("game")
    player = reports.name_of(t, str(p.get("player"))) if p.get("player") else ""
    words: dict[str, Callable[[], str]] = {
        "forbid": lambda: "kept apart " + " and ".join(
            reports.name_of(t, str(x)) for x in p.get("players") or ()),
        "bye": lambda: f"gave {player} a bye of {fmt(float(p.get('points') or 0))} points",
        "disqualify": lambda: f"disqualified {player}",
        "undo": lambda: f"took back the pairing of game {game}",
        "annul": lambda: f"annulled game {game}",
        "adjudicate": lambda: f"adjudicated game {game}",
        "add-director": lambda: f"made {p.get('name')} a co-director",
        "hand-over": lambda: f"handed the event over to {p.get('name')}",
        "message": lambda: "wrote to every entrant",
        "close_entries": lambda: "closed the entries",
        "start-round": lambda: (
            f"started round {p.get('round')} "
            f"{'on the timetable' if p.get('timetable') else 'early'}, "
            f"{'adjudicating' if p.get('unfinished') == 'adjudicate' else 'carrying'} "
            f"game{'s' if len(p.get('games') or ()) != 1 else ''} "
            f"{', '.join(map(str, p.get('games') or ()))}"),
        "extend": lambda: (f"gave game {game}" if game else f"gave round {p.get('round')}")
        + f" {fmt(float(p.get('hours') or 0))} more hours",
    }
    said = words.get(action)
    return said() if said is not None else action.replace("-", " ")


@dataclass(frozen=True)
class Mine:
    """One tournament a player takes part in, for their own page."""

    public_id: str
    name: str
    status: str
    role: str  # "lead director", "co-director", "entrant", "entrant (withdrawn)"
    playing: int  # their games in play


def tournaments_of(session: Session, player: Player) -> list[Mine]:
    """The tournaments a player directs or entered, running ones first, then the newest."""
    me = str(player.id)
    entered = set(session.scalars(
        select(TournamentEntrant.tournament_id).where(TournamentEntrant.player_id == player.id)))
    # A co-director is found in the log: its add-director events name them.
    named = set(session.scalars(
        select(TournamentEvent.tournament_id).where(
            TournamentEvent.kind == "director",
            TournamentEvent.payload.contains(f'"player":"{me}"'))))
    rows = session.scalars(select(Tournament).where(or_(
        Tournament.director_id == player.id,
        Tournament.id.in_(list(entered | named)))))
    found = []
    for row in rows:
        held = load(session, row.public_id)
        t = held.state
        if me in t.directors or row.director_id == player.id:
            role = "lead director" if (t.directors or (me,))[0] == me else "co-director"
        elif me in t.seeding:
            status = t.entrant(me).status
            role = "entrant" if status == "active" else f"entrant ({status})"
        else:
            continue
        playing = sum(1 for table in t.unfinished() if me in table.seats)
        found.append(Mine(row.public_id, row.name, row.status, role, playing))
    order = {"running": 0, "registering": 1, "closed": 2}
    rank = {row.public_id: row.updated_at for row in session.scalars(
        select(Tournament).where(Tournament.public_id.in_([m.public_id for m in found])))}
    found.sort(key=lambda m: (order.get(m.status, 3), -clock.as_utc(rank[m.public_id])
                              .timestamp()))
    return found
