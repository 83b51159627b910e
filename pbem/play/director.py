"""Director actions on a game, logged as game events with who and why, never as edits.

Adjudicate (set the outcome), abort (end it with no result), replace a seat's player, and
extend the deadline of the decision that is open. A casual game's director is the player
who created it; a tournament's director acts through the tournament; the operator acts
from the command line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

import engine
from engine.figures import counted

from ..context import Context
from ..errors import Rejected, StaleTurn
from ..log import snapshots, store
from ..log.games import Loaded, Ruling, load
from ..mail import compose
from ..models import Game, GameSeat, Player
from .chance import advance, end
from .notify import notify
from .start import player_for

MAX_REASON = 500
MAX_EXTENSION_HOURS = 24 * 30
SCORES = (-1e6, 1e6)  # what a director may set as a seat's score


@dataclass(frozen=True)
class Director:
    """Who acts: a player (shown by name; the id links their page), or the operator."""

    name: str
    player_id: int | None = None

    @classmethod
    def of(cls, player: Player) -> Director:
        """A player acting as director."""
        return cls(player.name, player.id)

    def payload(self, reason: str) -> dict[str, Any]:
        """The fields every director event carries: by whom and why."""
        text = " ".join(reason.split())
        if not text:
            raise Rejected("say why: a director's action is logged with its reason")
        if len(text) > MAX_REASON:
            raise Rejected(f"keep the reason under {MAX_REASON} characters")
        return {"by": self.name, "by_player": self.player_id, "reason": text}


OPERATOR = Director("the operator")


def may_direct(game: Game, player: Player | None) -> bool:
    """Whether a player directs a casual game: its creator does."""
    return player is not None and game.created_by == player.id


def check_ranks(ranks: Sequence[int], seats: int) -> tuple[int, ...]:
    """Ranks one per seat, 1 best, shared places as in sports (1, 1, 3); Rejected otherwise."""
    ranks = tuple(int(r) for r in ranks)
    if len(ranks) != seats:
        raise Rejected(f"give one rank per seat: {seats} ranks, not {len(ranks)}")
    listed = ", ".join(map(str, ranks))
    for rank in ranks:
        if not 1 <= rank <= seats:
            raise Rejected(f"ranks {listed}: a game of {seats} seats has places 1 to {seats}, "
                           f"not {rank}")
        better = sum(other < rank for other in ranks)
        if rank != better + 1:
            raise Rejected(
                f"ranks {listed} do not describe places: a seat ranked {rank} must have "
                f"exactly {counted(rank - 1, 'seat')} ranked better (use 1, 1, 3 for a tie)"
            )
    return ranks


def check_scores(scores: Sequence[float] | None, seats: int) -> list[float] | None:
    """One finite score per seat, or none."""
    if scores is None:
        return None
    values = [float(s) for s in scores]
    low, high = SCORES
    if len(values) != seats or not all(math.isfinite(v) and low <= v <= high for v in values):
        raise Rejected(f"give one score per seat ({seats}), each from {low:,.0f} to "
                       f"{high:,.0f}, or no scores")
    return values


def _open(session: Session, public_id: str) -> Loaded:
    loaded = load(session, public_id, for_update=True)
    if loaded.game.status != "active":
        raise StaleTurn(f"game {public_id} is over already ({loaded.game.status})")
    return loaded


def _ruled(session: Session, ctx: Context, loaded: Loaded, entry: store.LogEntry) -> Loaded:
    loaded.ruling = Ruling.from_entry(entry)
    loaded.game.ruled = True
    status = "finished" if entry.kind == "adjudicate" else "aborted"
    end(session, ctx, loaded, status)
    notify(session, ctx, loaded, before=(), acting=None)
    snapshots.CACHE.put(loaded.game, loaded.setup, loaded.state)
    return loaded


def adjudicate(
    session: Session,
    ctx: Context,
    public_id: str,
    director: Director,
    reason: str,
    ranks: Sequence[int],
    scores: Sequence[float] | None = None,
) -> Loaded:
    """End an active game with the outcome the director sets."""
    loaded = _open(session, public_id)
    seats = len(loaded.game.seats)
    payload = {
        **director.payload(reason),
        "ranks": list(check_ranks(ranks, seats)),
        "scores": check_scores(scores, seats),
    }
    return _ruled(session, ctx, loaded, store.append(session, loaded.game, "adjudicate", payload))


def abort(
    session: Session, ctx: Context, public_id: str, director: Director, reason: str
) -> Loaded:
    """End an active game with no result (it is neither won nor lost, nor rated)."""
    loaded = _open(session, public_id)
    entry = store.append(session, loaded.game, "abort", director.payload(reason))
    return _ruled(session, ctx, loaded, entry)


def extend(
    session: Session, ctx: Context, public_id: str, director: Director, reason: str, hours: int
) -> Loaded:
    """Give the decision that is open more time (a reminder goes out again before it ends)."""
    loaded = _open(session, public_id)
    if not 1 <= hours <= MAX_EXTENSION_HOURS:
        raise Rejected(f"extend by 1 to {MAX_EXTENSION_HOURS} hours, not {hours}")
    if loaded.game.await_since is None:
        raise Rejected(f"game {public_id} has no decision open to extend")
    payload = {**director.payload(reason), "hours": hours}
    store.append(session, loaded.game, "extend", payload)
    loaded.game.extra_hours = (loaded.game.extra_hours or 0) + hours
    loaded.game.reminded = False
    snapshots.CACHE.put(loaded.game, loaded.setup, loaded.state)
    until = compose.deadline_text(loaded)
    notice = (f"{director.name} extended the deadline of this game by {hours} hours "
              f"({payload['reason']}).")
    if until:
        notice += f" The decision open now may be taken until {until}."
    for seat in range(len(loaded.game.seats)):
        compose.queue_notice(session, ctx, loaded, seat, notice, what="extend")
    return loaded


def withdraw_seat(
    session: Session, ctx: Context, public_id: str, seat: int, director: Director, reason: str
) -> Loaded:
    """Take a seat out of a game because its player left the event: it counts as resigned,
    and the log (and every page and mail) says who withdrew them and why."""
    loaded = _open(session, public_id)
    before = loaded.awaited()
    resigned = engine.Resigned(seat)
    secret = loaded.is_secret(loaded.state, resigned)
    try:
        loaded.state = engine.step(loaded.rules, loaded.state, resigned)
    except engine.RulesError as e:
        raise Rejected(str(e)) from e
    payload = {**director.payload(reason), "withdrawn": True}
    store.append(session, loaded.game, "resign", payload, seat=seat, secret=secret)
    loaded.gone[seat] = "withdrawn"
    advance(session, ctx, loaded)
    notify(session, ctx, loaded, before=before, acting=seat)
    if loaded.game.status == "active":
        name = loaded.rules.seat_name(loaded.state, seat)
        notice = (f"{loaded.player(seat).name} ({name}) has left the event "
                  f"({director.name}: {payload['reason']}); the game goes on without them.")
        for other in range(len(loaded.game.seats)):
            compose.queue_notice(session, ctx, loaded, other, notice, what="withdrawn")
    return loaded


def replace(
    session: Session,
    ctx: Context,
    public_id: str,
    director: Director,
    reason: str,
    seat: int,
    email: str,
    name: str | None = None,
    *,
    tell_old: bool = True,
) -> Loaded:
    """Hand a seat to another player; the old player's links stop working for it.

    The other seats are told, and the old player too (`tell_old` False: the caller tells
    them once for several games).
    """
    loaded = _open(session, public_id)
    game = loaded.game
    if not 0 <= seat < len(game.seats):
        raise Rejected(f"game {public_id} has seats 0 to {len(game.seats) - 1}, not {seat}")
    newcomer = player_for(session, email, name)
    if any(s.player_id == newcomer.id for s in game.seats):
        raise Rejected(f"{newcomer.name} already plays in game {public_id}")
    payload = {**director.payload(reason), "name": newcomer.name}
    old = loaded.player(seat)
    store.append(session, game, "replace", payload, seat=seat)
    row = session.get(GameSeat, (game.id, seat))
    assert row is not None
    row.player_id = newcomer.id
    session.flush()
    session.expire(row, ["player"])
    snapshots.CACHE.put(game, loaded.setup, loaded.state)
    compose.queue_invitation(session, ctx, loaded, seat)
    if seat in loaded.awaited():
        compose.queue_turn(session, ctx, loaded, seat)
    name = loaded.rules.seat_name(loaded.state, seat)
    told = f"{director.name} replaced {old.name} by {newcomer.name} as {name} in this game"
    for other in range(len(game.seats)):
        if other != seat:
            compose.queue_notice(session, ctx, loaded, other,
                                 f"{told} ({payload['reason']}).", what="replace")
    if not tell_old:
        return loaded
    compose.queue_player_notice(
        session, ctx, old, compose.thread_subject(loaded),
        f"{director.name} replaced you by {newcomer.name} as {name} in {loaded.rules.title} "
        f"game {public_id} ({payload['reason']}). Your links for this game no longer work.",
        f"{public_id}.{game.head_seq}.replaced.{old.id}",
        game_url=f"{ctx.base_url}/games/{public_id}",
    )
    return loaded
