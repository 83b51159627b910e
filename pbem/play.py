"""The service layer: start games, submit actions, roll until someone must decide, notify."""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import exists, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import engine

from . import dice, mail, store
from .errors import NotFound, PbemError, Rejected, StaleTurn, TooMany
from .links import MoveGrant, Signer
from .models import DiceSecret, DiceStream, Event, Game, GameSeat, Player, Submission

# No quotes, comments, groups or control characters: mail must read the address as written.
EMAIL = re.compile(
    r'^[^@\s<>,;:"()\[\]\\\x00-\x1f\x7f]+@(?:[^@\s<>,;:"()\[\]\\\x00-\x1f\x7f]+\.'
    r'[^@\s<>,;:"()\[\]\\\x00-\x1f\x7f]+|localhost)$'
)
ACTING_KINDS = ("move", "resign", "timeout")
GAME_LIMIT = (20, timedelta(hours=1))
TIMEOUT_POLICIES = {"bot": "the house bot plays for you", "forfeit": "you forfeit the game"}


@dataclass(frozen=True)
class Context:
    """What the services need besides a session: settings and the link signer."""

    base_url: str
    mail_from: str
    signer: Signer


@dataclass
class Loaded:
    """A game with its setup, rules and current state, rebuilt from the log."""

    game: Game
    setup: store.Setup
    rules: engine.Rules[Any]
    state: Any

    @property
    def pending(self) -> engine.Pending:
        """What the game waits for now."""
        return self.rules.pending(self.state)

    def awaited(self) -> tuple[int, ...]:
        """The seats that must act now."""
        pending = self.pending
        return pending.seats if isinstance(pending, engine.Await) else ()

    def player(self, seat: int) -> Player:
        """The player in a seat."""
        return self.game.seats[seat].player


@dataclass
class Submitted:
    """What a submission did: the events it appended and who was told."""

    game: str
    seat: int
    head: int
    description: str
    notified: list[str] = field(default_factory=list)
    replayed: bool = False


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def normalize_email(text: str) -> str:
    """A lower-cased, stripped address; Rejected if it does not look like one."""
    address = text.strip().lower()
    if not EMAIL.match(address) or len(address) > 320:
        raise Rejected(f"{text.strip()!r} is not an email address")
    return address


def player_for(session: Session, email: str, name: str | None = None) -> Player:
    """The player with that address, created on first sight."""
    address = normalize_email(email)
    player = session.scalars(select(Player).where(Player.email == address)).first()
    if player is None:
        player = Player(
            email=address,
            name=((name or "").strip() or address.split("@")[0])[:100],
            mail_pref="turn",
            created_at=utcnow(),
        )
        session.add(player)
        session.flush()
    # An existing player keeps the name they chose: whoever invites them may not rename them.
    return player


def new_public_id(session: Session) -> str:
    """A short random game id that is not taken."""
    while True:
        candidate = secrets.token_hex(5)
        if session.scalars(select(Game.id).where(Game.public_id == candidate)).first() is None:
            return candidate


def load(session: Session, public_id: str, *, for_update: bool = False) -> Loaded:
    """Rebuild a game's state from its log (and snapshots); NotFound if no such game."""
    query = select(Game).where(Game.public_id == public_id)
    if for_update:
        query = query.with_for_update()
    game = session.scalars(query).first()
    if game is None:
        raise NotFound(f"there is no game {public_id!r}")
    setup, state = store.current(session, game)
    return Loaded(game, setup, engine.rules_for(setup.kind), state)


def start_game(
    session: Session,
    ctx: Context,
    kind: str,
    players: Sequence[tuple[str, str | None]],
    *,
    options: Mapping[str, object] | None = None,
    preset: str | None = None,
    created_by: Player | None = None,
    stream: str | None = None,
    deadline_hours: int = 72,
    timeout_policy: str = "bot",
) -> Loaded:
    """Create a game, log its setup, roll until someone must decide, and mail everyone."""
    try:
        rules = engine.rules_for(kind)
        resolved = rules.resolve_options(options, preset)
        rules.check_seats(len(players))
        state = rules.start(len(players), resolved)
    except engine.RulesError as e:
        raise Rejected(str(e)) from e
    if timeout_policy not in TIMEOUT_POLICIES:
        raise Rejected(
            f"timeout policy {timeout_policy!r} is not one of {', '.join(TIMEOUT_POLICIES)}"
        )
    if not 1 <= deadline_hours <= 24 * 90:
        raise Rejected(f"a deadline of {deadline_hours} hours is not between 1 and 2160")
    if stream is not None and not STREAM_NAME.match(stream):
        raise Rejected(f"dice stream {stream!r}: use up to 64 letters, digits, '.', '_' or '-'")
    if created_by is not None:
        check_creation_rate(session, created_by)
    seated = [player_for(session, email, name) for email, name in players]
    if len({p.id for p in seated}) != len(seated):
        raise Rejected("each seat needs a different player")
    now = utcnow()
    public_id = new_public_id(session)
    game = Game(
        public_id=public_id,
        kind=kind,
        status="active",
        head_seq=-1,
        head_hash=store.GENESIS,
        stream=stream or public_id,
        chances=0,
        deadline_hours=deadline_hours,
        timeout_policy=timeout_policy,
        reminded=False,
        created_by=created_by.id if created_by else None,
        created_at=now,
        updated_at=now,
    )
    session.add(game)
    session.flush()
    for seat, player in enumerate(seated):
        session.add(GameSeat(game_id=game.id, seat=seat, player_id=player.id))
    seed = stream_seed(session, stream) if stream else dice.new_seed()
    session.add(DiceSecret(game_id=game.id, seed=seed))
    setup_payload = {
        "game": kind,
        "rules_version": rules.version,
        "seats": len(players),
        "players": [p.name for p in seated],
        "options": resolved,
        "commitment": dice.commitment(seed),
    }
    store.append(session, game, "setup", setup_payload)
    session.flush()
    session.refresh(game, ["seats"])
    loaded = Loaded(game, store.Setup.from_payload(setup_payload), rules, state)
    advance(session, loaded)
    for seat in range(len(seated)):
        mail.queue_invitation(session, ctx, loaded, seat)
    notify(session, ctx, loaded, before=(), acting=None)
    return loaded


def check_creation_rate(session: Session, creator: Player) -> None:
    """Refuse more than GAME_LIMIT new games per window from one player (each mails people)."""
    count, window = GAME_LIMIT
    since = utcnow() - window
    recent = session.scalar(
        select(func.count())
        .select_from(Game)
        .where(Game.created_by == creator.id, Game.created_at >= since)
    )
    if (recent or 0) >= count:
        raise TooMany(
            f"you started {recent} games in the last {int(window.total_seconds() // 60)} "
            "minutes; wait a little before starting more"
        )


def advance(session: Session, loaded: Loaded) -> None:
    """Answer every chance step from the committed seed; reveal the seed at the end."""
    game = loaded.game
    while True:
        pending = loaded.pending
        if isinstance(pending, engine.Roll):
            values = dice.roll(
                seed_of(session, game), game.stream, game.chances, pending.count, pending.sides
            )
            payload: dict[str, Any] = {
                "count": pending.count,
                "sides": pending.sides,
                "values": values,
            }
            store.append(session, game, "roll", payload)
            loaded.state = engine.step(loaded.rules, loaded.state, engine.Rolled(tuple(values)))
            game.chances += 1
        elif isinstance(pending, engine.Shuffle):
            order = dice.shuffle(seed_of(session, game), game.stream, game.chances, pending.n)
            store.append(session, game, "shuffle", {"n": pending.n, "order": order})
            loaded.state = engine.step(loaded.rules, loaded.state, engine.Shuffled(tuple(order)))
            game.chances += 1
        else:
            break
        store.maybe_snapshot(session, game, loaded.rules, loaded.state)
    if isinstance(loaded.pending, engine.Finished) and game.status == "active":
        game.status = "finished"
        reveal_when_ready(session, game)
    game.updated_at = utcnow()
    store.CACHE.put(game, loaded.setup, loaded.state)


STREAM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def stream_seed(session: Session, name: str) -> str:
    """The seed of a shared dice stream, made on first use; refused once it is public."""
    if not STREAM_NAME.match(name):
        raise Rejected(f"dice stream {name!r}: use up to 64 letters, digits, '.', '_' or '-'")
    if session.scalar(select(exists().where(Game.stream == name, Game.public_id == name))):
        raise Rejected(f"dice stream {name!r} is a game's own stream; choose another name")
    revealed = exists().where(Event.kind == "reveal", Event.game_id == Game.id, Game.stream == name)
    if session.scalar(select(revealed)):
        raise Rejected(f"the dice of stream {name!r} are already public; use a new stream name")
    shared = session.get(DiceStream, name)
    if shared is None:
        shared = DiceStream(name=name, seed=dice.new_seed(), created_at=utcnow())
        session.add(shared)
        session.flush()
    return shared.seed


def reveal_when_ready(session: Session, game: Game) -> None:
    """Publish the seed once no game rolling from it is still going on."""
    sharing = [game]
    if game.stream != game.public_id:
        sharing = list(session.scalars(select(Game).where(Game.stream == game.stream)))
        if any(other.status == "active" for other in sharing):
            return  # the seed would give away the dice still to come in those games
    for finished in sharing:
        already = exists().where(Event.game_id == finished.id, Event.kind == "reveal")
        if finished.status != "active" and not session.scalar(select(already)):
            store.append(session, finished, "reveal", {"seed": seed_of(session, finished)})


def is_revealed(session: Session, game: Game) -> bool:
    """Whether the game's log holds the reveal of its seed."""
    query = select(exists().where(Event.game_id == game.id, Event.kind == "reveal"))
    return bool(session.scalar(query))


def seed_of(session: Session, game: Game) -> str:
    """The game's secret seed."""
    secret = session.get(DiceSecret, game.id)
    if secret is None:
        raise PbemError(f"game {game.public_id} has no dice secret")
    return secret.seed


def has_acted_since(session: Session, game: Game, seat: int, seq: int) -> bool:
    """Whether the seat has moved, resigned or timed out after that seq."""
    query = select(
        exists().where(
            Event.game_id == game.id,
            Event.seat == seat,
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


def check_grant(loaded: Loaded, grant: MoveGrant) -> None:
    """Refuse a grant for another game or a seat that does not exist."""
    if grant.game != loaded.game.public_id:
        raise StaleTurn("this link belongs to another game")
    if not 0 <= grant.seat < len(loaded.game.seats):
        raise Rejected(f"this game has no seat {grant.seat}")


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
    check_grant(loaded, grant)
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
        description = loaded.rules.describe(loaded.state, action)
        state = engine.step(loaded.rules, loaded.state, engine.Played(seat, action))
    except engine.RulesError as e:
        raise Rejected(str(e)) from e
    store.append(session, loaded.game, "move", {"action": action}, seat=seat)
    loaded.state = state
    store.maybe_snapshot(session, loaded.game, loaded.rules, state)
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
    advance(session, loaded)
    # The same seat deciding again within its turn needs no mail; a new turn does.
    continuing = seat if loaded.rules.same_turn(previous, loaded.state) else None
    notified = notify(session, ctx, loaded, before=before, acting=seat, continuing=continuing)
    return Submitted(loaded.game.public_id, seat, loaded.game.head_seq, description, notified)


def resign(session: Session, ctx: Context, grant: MoveGrant) -> Submitted:
    """Log a resignation of the granted seat."""
    loaded = load(session, grant.game, for_update=True)
    check_grant(loaded, grant)
    if loaded.game.status != "active":
        raise StaleTurn("the game is over")
    before = loaded.awaited()
    try:
        loaded.state = engine.step(loaded.rules, loaded.state, engine.Resigned(grant.seat))
    except engine.RulesError as e:
        raise Rejected(str(e)) from e
    store.append(session, loaded.game, "resign", {}, seat=grant.seat)
    advance(session, loaded)
    notified = notify(session, ctx, loaded, before=before, acting=grant.seat)
    who = loaded.rules.seat_name(loaded.state, grant.seat)
    return Submitted(
        loaded.game.public_id, grant.seat, loaded.game.head_seq, f"{who} resigns", notified
    )


def awaited_words(loaded: Loaded) -> str:
    """Say what the game waits for."""
    return engine.awaited_text(loaded.rules, loaded.state, loaded.pending)


def notify(
    session: Session,
    ctx: Context,
    loaded: Loaded,
    *,
    before: Sequence[int],
    acting: int | None,
    continuing: int | None = None,
) -> list[str]:
    """Mail the seats that must now decide (not one continuing its own turn), or the result."""
    game = loaded.game
    if game.status == "finished":
        game.await_since = None
        revealed = is_revealed(session, game)
        for seat in range(len(game.seats)):
            mail.queue_result(session, ctx, loaded, seat, revealed=revealed)
        return [loaded.player(s).email for s in range(len(game.seats))]
    awaited = loaded.awaited()
    # A new decision starts a new deadline; a decision still open keeps its clock.
    if any(seat == acting or seat not in before for seat in awaited):
        game.await_since = utcnow()
        game.reminded = False
    told = []
    for seat in awaited:
        # A decision within the player's own turn needs no mail, nor does one still open.
        if seat == continuing or (seat in before and seat != acting):
            continue
        if mail.queue_turn(session, ctx, loaded, seat):
            told.append(loaded.player(seat).email)
    return told


def grant_for(loaded: Loaded, seat: int) -> MoveGrant:
    """A grant for a seat at the game's current head."""
    return MoveGrant(loaded.game.public_id, seat, loaded.game.head_seq)


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
