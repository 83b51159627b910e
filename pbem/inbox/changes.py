"""Mail commands that change something: checked when they arrive, done once confirmed."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from ..clock import utcnow
from ..context import Context
from ..errors import PbemError, Rejected
from ..links import MoveGrant
from ..log.games import load
from ..models import Player
from ..play import act, players
from ..ratings.current import rating_of
from ..tournaments import log as tournament_log
from ..tournaments import service
from .commands import Command

MAX_DAYS = 30


def check(session: Session, player: Player, command: Command, args: list[str]) -> str:
    """The change as it will be done (a normalised line); Rejected names what is wrong now."""
    word = command.word
    if word == "vacation":
        if [a.lower() for a in args] == ["off"]:
            return "vacation off"
        if len(args) in (1, 2) and args[0].isascii() and args[0].isdigit() and (
            len(args) == 1 or args[1].lower() in ("day", "days")
        ):
            days = int(args[0])
            if 1 <= days <= MAX_DAYS:
                return f"vacation {days} days"
        raise Rejected(
            f"write it as: vacation N days, with N from 1 to {MAX_DAYS}; or vacation off"
        )
    if word == "digest":
        choice = " ".join(args).lower()
        if choice not in ("daily", "off"):
            raise Rejected("write it as: digest daily, or digest off")
        return f"digest {choice}"
    if len(args) != 1:
        raise Rejected(f"write it as: {command.usage}")
    target = args[0].lower()
    if word == "join":
        held = tournament_log.load(session, target)
        if held.row.status != "registering":
            raise Rejected(f"{held.row.name} takes no more entries")
        if player.id in service.entrant_ids(session, held.row, ("active",)):
            raise Rejected(f"you are already entered in {held.row.name}")
        return f"join {target}"
    loaded = load(session, target)
    if loaded.game.status != "active":
        raise Rejected(f"game {target} is over already")
    if not [s for s in loaded.game.seats if s.player_id == player.id]:
        raise Rejected(f"you have no seat in game {target}")
    return f"resign {target}"


def describe(line: str) -> str:
    """What a checked change will do, in words."""
    word, _, rest = line.partition(" ")
    return {
        "vacation": "end your vacation"
        if rest == "off"
        else f"go on vacation for {rest}, from today",
        "digest": "get a daily digest instead of a mail each turn"
        if rest == "daily"
        else "get a mail each turn instead of the daily digest",
        "join": f"enter event {rest}",
        "resign": f"resign your seat in game {rest}",
    }.get(word, line)


def do(session: Session, ctx: Context, player: Player, line: str) -> str:
    """Make one confirmed change through the services; say what was done."""
    word, _, rest = line.partition(" ")
    if word == "vacation":
        if rest == "off":
            players.set_away(player, "", "")
            return "your vacation is over"
        days = int(rest.split()[0])
        today = utcnow().date()
        last = today + timedelta(days=days - 1)
        players.set_away(player, today.isoformat(), last.isoformat())
        return f"you are away from {today:%d %B} to {last:%d %B %Y} (inclusive)"
    if word == "digest":
        players.set_preferences(player, "digest" if rest == "daily" else "turn", "")
        return "you get a daily digest" if rest == "daily" else "you get a mail each turn"
    if word == "join":
        held = tournament_log.load(session, rest, for_update=True)
        service.register(session, held, player, rating_of(session, player.id, held.row.kind))
        return f"you are entered in {held.row.name}"
    if word == "resign":
        loaded = load(session, rest, for_update=True)
        seats = [s.seat for s in loaded.game.seats if s.player_id == player.id]
        if not seats:
            raise Rejected(f"you have no seat in game {rest}")
        for seat in seats:  # (one player in two seats: each resigns at the head it sees)
            act.resign(session, ctx, MoveGrant(rest, seat, load(session, rest).game.head_seq))
        return f"you resigned in game {rest}"
    raise PbemError(f"{line!r} is no change a mail command makes")
