"""Starting games: players by address, new game ids, shared dice streams, the setup event."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session

import engine

from ..clock import utcnow
from ..context import Context
from ..errors import Rejected, TooMany
from ..log import dice, store
from ..log.chain import GENESIS
from ..log.games import Loaded
from ..mail import compose
from ..models import DiceSecret, DiceStream, Event, Game, GameSeat, Player
from .chance import advance
from .notify import notify
from .players import clean_name, unnamed

# No quotes, comments, groups or control characters: mail must read the address as written.
EMAIL = re.compile(
    r'^[^@\s<>,;:"()\[\]\\\x00-\x1f\x7f]+@(?:[^@\s<>,;:"()\[\]\\\x00-\x1f\x7f]+\.'
    r'[^@\s<>,;:"()\[\]\\\x00-\x1f\x7f]+|localhost)$'
)
GAME_LIMIT = (20, timedelta(hours=1))
MAX_DEADLINE_HOURS = 24 * 90
TIMEOUT_POLICIES = {"bot": "the house bot plays for you", "forfeit": "you forfeit the game"}


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
            email=address, name=clean_name(name), mail_pref="turn", created_at=utcnow()
        )
        session.add(player)
        session.flush()
        # No part of the address: others would read it, and two "bob"s would look the same.
        player.name = player.name or f"Player {player.id}"
    elif unnamed(player) and clean_name(name):
        # Nobody chose the stand-in name: the first name given for the address replaces it.
        player.name = clean_name(name)
    # An existing player keeps the name they chose: whoever invites them may not rename them.
    return player


def new_public_id(session: Session) -> str:
    """A short random game id that is not taken."""
    while True:
        candidate = secrets.token_hex(5)
        if session.scalars(select(Game.id).where(Game.public_id == candidate)).first() is None:
            return candidate


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
    tournament_id: int | None = None,
    dice_scheme: int = 1,
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
    if not 1 <= deadline_hours <= MAX_DEADLINE_HOURS:
        raise Rejected(f"a deadline of {deadline_hours} hours is not between 1 and "
                       f"{MAX_DEADLINE_HOURS:,}")
    if stream is not None and not dice.STREAM_NAME.fullmatch(stream):
        raise Rejected(f"dice stream {stream!r}: use up to 64 letters, digits, '.', '_' or '-'")
    if dice_scheme not in dice.SCHEMES:
        raise Rejected(f"dice scheme {dice_scheme!r} is not one of {dice.SCHEMES}")
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
        head_hash=GENESIS,
        stream=stream or public_id,
        chances=0,
        deadline_hours=deadline_hours,
        timeout_policy=timeout_policy,
        reminded=False,
        created_by=created_by.id if created_by else None,
        tournament_id=tournament_id,
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
        "log_format": store.LOG_FORMAT,
    }
    if dice_scheme != 1:
        setup_payload["dice_scheme"] = dice_scheme
    if stream:
        check_same_deal(session, stream, setup_payload)
    store.append(session, game, "setup", setup_payload)
    session.flush()
    session.refresh(game, ["seats"])
    loaded = Loaded(game, store.Setup.from_payload(setup_payload), rules, state)
    advance(session, ctx, loaded)
    for seat in range(len(seated)):
        compose.queue_invitation(session, ctx, loaded, seat)
    notify(session, ctx, loaded, before=(), acting=None)
    return loaded


def start_mirror(
    session: Session,
    ctx: Context,
    kind: str,
    players: Sequence[tuple[str, str | None]],
    **settings: Any,
) -> tuple[Loaded, Loaded]:
    """A two-game mirror match: the same dice for the same seat and turn, the seats swapped."""
    if len(players) != 2:
        raise Rejected(f"a mirror match is two players swapping seats, not {len(players)}")
    stream = f"mirror-{secrets.token_hex(5)}"
    pair = [
        start_game(session, ctx, kind, seating, stream=stream, dice_scheme=2, **settings)
        for seating in (players, list(reversed(players)))
    ]
    return pair[0], pair[1]


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


DEAL_FIELDS = ("game", "rules_version", "seats", "options", "dice_scheme")


def check_same_deal(session: Session, stream: str, setup: Mapping[str, object]) -> None:
    """Refuse a game that would share a dice stream with a game of another kind or options."""
    first = session.scalars(
        select(Event.payload)
        .join(Game, Game.id == Event.game_id)
        .where(Game.stream == stream, Event.seq == 0)
        .order_by(Game.id)
        .limit(1)
    ).first()
    if first is None:
        return
    theirs = json.loads(first)
    differs = [
        f"{name} {setup.get(name, 1)!r}, not {theirs.get(name, 1)!r}"
        for name in DEAL_FIELDS
        if setup.get(name, 1) != theirs.get(name, 1)
    ]
    if differs:
        raise Rejected(
            f"the games of dice stream {stream!r} must be the same game with the same options "
            "(duplicate dice); this one has " + ", ".join(differs)
        )


def stream_seed(session: Session, name: str) -> str:
    """The seed of a shared dice stream, made on first use; refused once it is public."""
    if not dice.STREAM_NAME.fullmatch(name):
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
