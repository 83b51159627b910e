"""Acting in a game: submit an action through a move grant, or resign; stale links refused."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import exists, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import engine

from ..clock import utcnow
from ..context import Context
from ..errors import Forbidden, Rejected, StaleTurn
from ..links import MoveGrant
from ..log import snapshots, store
from ..log.games import Loaded, load
from ..models import Event, Game, Submission
from .chance import advance
from .notify import notify

ACTING_KINDS = ("move", "resign", "timeout")
SEAT_KINDS = "pbem.seat_kinds"  # session.info key prefix: seat_kinds_since, asked once


@dataclass
class Submitted:
    """What a submission did: the events it appended and who was told."""

    game: str
    seat: int
    head: int
    description: str
    notified: list[str] = field(default_factory=list)
    replayed: bool = False
    # The game as the submission left it, for a caller that shows it in the same transaction.
    loaded: Loaded | None = field(default=None, compare=False, repr=False)


def seat_kinds_since(session: Session, game: Game, seat: int, seq: int) -> frozenset[str]:
    """The kinds of the seat's own events (acting, or handed over) logged after that seq.

    One query answers both questions a link asks (was its turn played, was its seat handed
    over); it is asked once per transaction, link and head.
    """
    if seq >= game.head_seq:
        return frozenset()  # nothing was logged after it: no need to ask the database
    key = (SEAT_KINDS, game.id, seat, seq, game.head_seq)
    kinds = session.info.get(key)
    if kinds is None:
        query = select(Event.kind).distinct().where(
            Event.game_id == game.id,
            Event.seat == seat,
            Event.seq > seq,
            Event.kind.in_((*ACTING_KINDS, "replace")),
        )
        kinds = session.info[key] = frozenset(session.scalars(query))
    return kinds


def has_acted_since(session: Session, game: Game, seat: int, seq: int) -> bool:
    """Whether the seat has moved, resigned or timed out after that seq."""
    return not seat_kinds_since(session, game, seat, seq).isdisjoint(ACTING_KINDS)


def others_acted_since(session: Session, game: Game, seat: int, seq: int) -> bool:
    """Whether any other seat has moved, resigned or timed out after that seq."""
    query = select(
        exists().where(
            Event.game_id == game.id,
            Event.seat != seat,
            Event.seq > seq,
            Event.kind.in_(ACTING_KINDS),
        )
    )
    return bool(session.scalar(query))


def grant_state(session: Session, loaded: Loaded, grant: MoveGrant) -> str:
    """'current' if the link may act now, 'stale' if its turn was played, 'waiting' if not."""
    if loaded.game.status != "active":
        return "over"
    awaited = grant.seat in loaded.awaited()
    if has_acted_since(session, loaded.game, grant.seat, grant.seq):
        return "stale-awaited" if awaited else "stale"
    return "current" if awaited else "waiting"


def check_grant(session: Session, loaded: Loaded, grant: MoveGrant) -> None:
    """Refuse a grant for another game, a seat that does not exist, or a replaced player."""
    if grant.game != loaded.game.public_id:
        raise StaleTurn("this link belongs to another game")
    if not 0 <= grant.seat < len(loaded.game.seats):
        raise Rejected(f"this game has no seat {grant.seat}")
    if "replace" in seat_kinds_since(session, loaded.game, grant.seat, grant.seq):
        raise Forbidden(
            "a director handed this seat to another player after this link was sent; "
            "it no longer acts for the seat"
        )


def previous_submission(session: Session, nonce: str | None) -> Submission | None:
    """The submission already made with this form nonce, if any."""
    return session.get(Submission, nonce[:64]) if nonce else None  # stored cut to 64


def submit(
    session: Session,
    ctx: Context,
    grant: MoveGrant,
    text: str,
    *,
    nonce: str | None = None,
) -> Submitted:
    """Check and log one action of the granted seat, then advance and notify."""
    done = previous_submission(session, nonce)
    if done is not None:
        game_id = session.scalar(select(Game.id).where(Game.public_id == grant.game))
        # A nonce answers only for the move it made: same game and seat, after this grant.
        if (done.game_id, done.seat) != (game_id, grant.seat) or done.seq <= grant.seq:
            raise Rejected("this nonce was already used for another move; send a new one")
        return Submitted(grant.game, done.seat, done.seq, "this form was already sent", [], True)
    loaded = load(session, grant.game, for_update=True)
    check_grant(session, loaded, grant)
    status = grant_state(session, loaded, grant)
    who = loaded.rules.seat_name(loaded.state, grant.seat)
    if status == "over":
        raise StaleTurn("the game is over; no more moves can be made")
    if status in ("stale", "stale-awaited"):
        raise StaleTurn(f"this turn was already played by {who}; open the game for the position")
    if status == "waiting":
        raise StaleTurn(f"it is not {who}'s turn: " + awaited_words(loaded))
    return act(session, ctx, loaded, grant.seat, text, nonce=nonce)


def act(
    session: Session, ctx: Context, loaded: Loaded, seat: int, text: str, *, nonce: str | None
) -> Submitted:
    """Parse, check and log an action of an awaited seat; the caller checked the seat."""
    before = loaded.awaited()
    previous = loaded.state
    try:
        action = loaded.rules.parse_action(loaded.state, seat, text)
        played = engine.Played(seat, action)
        description = loaded.rules.describe(loaded.state, played, seat)
        state = engine.step(loaded.rules, loaded.state, played)
    except engine.RulesError as e:
        raise Rejected(str(e)) from e
    secret = loaded.is_secret(previous, played)
    store.append(session, loaded.game, "move", {"action": action}, seat=seat, secret=secret)
    loaded.state = state
    snapshots.maybe_snapshot(session, loaded.game, loaded.rules, state)
    if nonce:
        session.add(
            Submission(
                nonce=nonce[:64],
                game_id=loaded.game.id,
                seat=seat,
                seq=loaded.game.head_seq,
                created_at=utcnow(),
            )
        )
        try:
            with session.begin_nested():
                session.flush()
        except IntegrityError as e:
            raise StaleTurn("this form was already sent") from e
    advance(session, ctx, loaded)
    # The same seat deciding again within its turn needs no mail; a new turn does.
    continuing = seat if loaded.rules.same_turn(previous, loaded.state) else None
    notified = notify(session, ctx, loaded, before=before, acting=seat, continuing=continuing)
    store.write_game(session, loaded.game)  # one plain UPDATE, not the unit of work's
    return Submitted(
        loaded.game.public_id, seat, loaded.game.head_seq, description, notified, loaded=loaded
    )


def resign(session: Session, ctx: Context, grant: MoveGrant) -> Submitted:
    """Log a resignation of the granted seat."""
    loaded = load(session, grant.game, for_update=True)
    check_grant(session, loaded, grant)
    if loaded.game.status != "active":
        raise StaleTurn("the game is over")
    before = loaded.awaited()
    resigned = engine.Resigned(grant.seat)
    secret = loaded.is_secret(loaded.state, resigned)
    try:
        loaded.state = engine.step(loaded.rules, loaded.state, resigned)
    except engine.RulesError as e:
        raise Rejected(str(e)) from e
    store.append(session, loaded.game, "resign", {}, seat=grant.seat, secret=secret)
    advance(session, ctx, loaded)
    notified = notify(session, ctx, loaded, before=before, acting=grant.seat)
    store.write_game(session, loaded.game)
    who = loaded.rules.seat_name(loaded.state, grant.seat)
    return Submitted(
        loaded.game.public_id, grant.seat, loaded.game.head_seq, f"{who} resigns", notified
    )


def awaited_words(loaded: Loaded) -> str:
    """Say what the game waits for."""
    return engine.awaited_text(loaded.rules, loaded.state, loaded.pending)
