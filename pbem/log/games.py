"""A game loaded from its log: the row, its setup, its rules and the state now; game queries."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, exists, func, select
from sqlalchemy.orm import Session, joinedload

import engine

from ..db.kept import PerDatabase
from ..errors import NotFound, PbemError, UnknownRules
from ..links import MoveGrant
from ..models import DEPARTING, DIRECTED, DiceSecret, Event, Game, GameSeat, Player
from . import snapshots, store

RULINGS = ("adjudicate", "abort")


@dataclass(frozen=True)
class Ruling:
    """A director's decision that ended a game outside its rules: adjudicated or aborted."""

    seq: int
    kind: str
    by: str
    reason: str
    outcome: engine.Outcome | None  # None when aborted: nobody won or lost

    @classmethod
    def from_entry(cls, entry: store.LogEntry) -> Ruling:
        """Read an adjudicate or abort event."""
        payload = entry.payload
        outcome = None
        if entry.kind == "adjudicate":
            reason = f"adjudicated by {payload['by']}: {payload['reason']}"
            outcome = engine.Outcome(
                tuple(int(r) for r in payload["ranks"]),
                tuple(float(s) for s in payload["scores"]) if payload.get("scores") else None,
                reason,
            )
        return cls(entry.seq, entry.kind, str(payload["by"]), str(payload["reason"]), outcome)

    @property
    def text(self) -> str:
        """The ruling in words."""
        verb = "adjudicated" if self.kind == "adjudicate" else "aborted"
        return f"the game was {verb} by {self.by}: {self.reason}"


@dataclass
class Loaded:
    """A game with its setup, rules and current state, rebuilt from the log."""

    game: Game
    setup: store.Setup
    rules: engine.Rules[Any]
    state: Any
    ruling: Ruling | None = None
    ending: str | None = None  # how it ended, where the rules' words would mislead
    gone: dict[int, str] = field(default_factory=dict)  # seats that left, other than resigning

    @property
    def pending(self) -> engine.Pending:
        """What the game's rules wait for now."""
        return self.rules.pending(self.state)

    @property
    def outcome(self) -> engine.Outcome | None:
        """How the game ended: a director's adjudication, else the rules' outcome."""
        if self.ruling is not None:
            return self.ruling.outcome
        return self.rules.outcome(self.state)

    def awaited(self) -> tuple[int, ...]:
        """The seats that must act now (none once a director ended the game)."""
        pending = self.pending
        if self.ruling is not None or not isinstance(pending, engine.Await):
            return ()
        return pending.seats

    def player(self, seat: int) -> Player:
        """The player in a seat."""
        return self.game.seats[seat].player

    def grant(self, seat: int) -> MoveGrant:
        """A grant for a seat at the game's current head."""
        return MoveGrant(self.game.public_id, seat, self.game.head_seq)

    def is_secret(self, before: Any, event: engine.Event) -> bool:
        """Whether the log commits to this event instead of chaining its payload (format 2)."""
        return self.setup.log_format >= 2 and self.rules.is_secret(before, event)


# Built once (a query built per call costs more than running it): the seats and their
# players come in the same query, one round trip rather than two.
FIND = select(Game).where(Game.public_id == bindparam("public_id")).options(joinedload(Game.seats))
FIND_FOR_UPDATE = FIND.with_for_update(of=Game)


def find(session: Session, public_id: str, *, for_update: bool = False) -> Game:
    """The game's row; NotFound if there is no such game."""
    query = FIND_FOR_UPDATE if for_update else FIND
    game = session.scalars(query, {"public_id": public_id}).unique().first()
    if game is None:
        raise NotFound(f"there is no game {public_id!r}")
    if for_update:
        store.hold(session, game)
    return game


def load(session: Session, public_id: str, *, for_update: bool = False) -> Loaded:
    """Rebuild a game's state from its log (and snapshots); NotFound if no such game."""
    return loaded_from(session, find(session, public_id, for_update=for_update))


def load_many(session: Session, public_ids: Sequence[str]) -> dict[str, Loaded]:
    """Several games at once, by public id (one query for their rows); missing ones left out."""
    if not public_ids:
        return {}
    query = select(Game).where(Game.public_id.in_(list(public_ids))).options(
        joinedload(Game.seats))
    return {game.public_id: loaded_from(session, game)
            for game in session.scalars(query).unique()}


def loaded_from(session: Session, game: Game) -> Loaded:
    """A game row with its state (from the cache, else the snapshots and the log)."""
    try:
        setup, state = snapshots.current(session, game)
    except engine.UnknownGame as e:
        raise UnknownRules(f"game {game.public_id} cannot be replayed: {e}") from e
    ruling = last_ruling(session, game) if game.ruled else None
    loaded = Loaded(game, setup, setup.rules(), state, ruling)
    loaded.gone = departures(session, game)
    loaded.ending = ending_of(session, loaded)
    return loaded


def departure(kind: str, payload: dict[str, Any]) -> str | None:
    """How a seat left a game by this event, where the rules call it resigning (or None)."""
    if kind == "timeout" and not payload.get("action"):
        return "timed out"
    if kind == "resign" and payload.get("withdrawn"):
        return "withdrawn"
    return None


# Asked at every load: built once, as FIND is. The kinds are written into the SQL, not
# bound, so that both databases see the condition of the index that holds only these
# events (ix_events_departures) and read those rows, not the whole log.
DEPARTURES = select(Event.seat, Event.kind, Event.payload).where(
    Event.game_id == bindparam("game_id"),
    Event.kind.in_(bindparam("departing", DEPARTING, expanding=True, literal_execute=True)),
    Event.seat.is_not(None))


def departures(session: Session, game: Game) -> dict[int, str]:
    """The seats that timed out and forfeited, or were withdrawn, in words."""
    rows = session.execute(DEPARTURES, {"game_id": game.id})
    found = {}
    for seat, kind, payload in rows:
        words = departure(kind, json.loads(payload))
        if words is not None and seat is not None:
            found[seat] = words
    return found


ENDING_KINDS = ("move", "resign", "timeout")


def ending_of(session: Session, loaded: Loaded) -> str | None:
    """How a game ended by a timeout or a withdrawal, which its rules call a resignation.

    The rules see a seat that timed out (forfeit) or was withdrawn from its event as a seat
    that resigned; the log knows better, and players are told what happened.
    """
    game, outcome = loaded.game, loaded.outcome
    if game.status != "finished" or loaded.ruling is not None or outcome is None:
        return None
    row = last_event(session, game, ENDING_KINDS)
    if row is None or row.seat is None or row.kind == "move":
        return None
    payload = store.LogEntry.from_row(row).payload
    name = loaded.rules.seat_name(loaded.state, row.seat)
    if departure(row.kind, payload) == "timed out":
        what = f"{name} timed out and forfeits"
    elif departure(row.kind, payload) == "withdrawn":
        what = f"{name} left the event ({payload.get('by')}: {payload.get('reason')})"
    else:
        return None
    winners = [loaded.rules.seat_name(loaded.state, s) for s in outcome.winners]
    if not winners:
        return what
    verb = "wins" if len(winners) == 1 else "win"
    return f"{what}; {' and '.join(winners)} {verb}"


def last_event(session: Session, game: Game, kinds: Sequence[str]) -> Event | None:
    """The latest event of a game of one of these kinds, if any."""
    return session.scalars(
        select(Event)
        .where(Event.game_id == game.id, Event.kind.in_(kinds))
        .order_by(Event.seq.desc())
        .limit(1)
    ).first()


def last_ruling(session: Session, game: Game) -> Ruling | None:
    """The latest adjudicate or abort event of a game, if any."""
    row = last_event(session, game, RULINGS)
    return Ruling.from_entry(store.LogEntry.from_row(row)) if row is not None else None


# Asked by the game's page: read through the index that holds only these events
# (ix_events_directed), with the kinds written into the SQL as for DEPARTURES.
DIRECTED_EVENTS = select(Event).where(
    Event.game_id == bindparam("game_id"),
    Event.kind.in_(bindparam("directed", DIRECTED, expanding=True, literal_execute=True)),
).order_by(Event.seq)


def directed(session: Session, game: Game) -> list[store.LogEntry]:
    """A game's director actions (and withdrawals from its event), in order."""
    rows = session.scalars(DIRECTED_EVENTS, {"game_id": game.id})
    entries = [store.LogEntry.from_row(row) for row in rows]
    return [e for e in entries if e.kind != "resign" or e.payload.get("withdrawn")]


def is_revealed(session: Session, game: Game) -> bool:
    """Whether the game's log holds the reveal of its seed."""
    query = select(exists().where(Event.game_id == game.id, Event.kind == "reveal"))
    return bool(session.scalar(query))


def shares_dice(game: Game) -> bool:
    """Whether the game rolls from a named stream, which other games may roll from too."""
    return game.stream != game.public_id


def dice_held(session: Session, game: Game) -> bool:
    """Whether a game's log must stay with its players: its dice are another table's to come.

    A game on a shared stream is held until every game on that stream has ended; a game on
    its own stream never is.
    """
    if not shares_dice(game):
        return False
    playing = exists().where(Game.stream == game.stream, Game.status == "active")
    return bool(session.scalar(select(playing)))


SEEDS: PerDatabase[dict[int, str]] = PerDatabase(dict)  # a game's seed never changes
SEEDS_KEPT = 10_000


def seed_of(session: Session, game: Game) -> str:
    """The game's secret seed (asked of the database once per process and game)."""
    seeds = SEEDS.of(session)
    seed = seeds.get(game.id)
    if seed is None:
        secret = session.get(DiceSecret, game.id)
        if secret is None:
            raise PbemError(f"game {game.public_id} has no dice secret")
        seed = seeds[game.id] = secret.seed
        if len(seeds) > SEEDS_KEPT:
            del seeds[next(iter(seeds))]  # the oldest asked
    return seed


def games_of(session: Session, player: Player) -> list[Game]:
    """The games a player sits in, newest first."""
    query = (
        select(Game)
        .join(GameSeat, GameSeat.game_id == Game.id)
        .where(GameSeat.player_id == player.id)
        .order_by(Game.updated_at.desc())
    )
    return list(session.scalars(query))


def recent_games(session: Session, limit: int = 30) -> list[Game]:
    """The most recently active games."""
    return list(session.scalars(select(Game).order_by(Game.updated_at.desc()).limit(limit)))


def count_games(session: Session) -> int:
    """How many games exist."""
    return int(session.scalar(select(func.count()).select_from(Game)) or 0)
