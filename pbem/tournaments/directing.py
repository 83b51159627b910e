"""A tournament director's actions, each logged with who and why; games are directed too.

Withdrawing, disqualifying and replacing players; keeping two players apart; byes;
taking back an unplayed pairing; annulling, adjudicating or extending games; pairing on
request (refused, with the reason, while nothing is due). Actions on a game go through
the play layer's director actions, so the game's own log says what happened as well.
"""

from __future__ import annotations

from datetime import datetime
from email.utils import parseaddr
from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from engine.figures import counted

from .. import clock
from ..context import Context
from ..errors import Forbidden, Rejected
from ..log.games import load
from ..mail import compose
from ..models import Event, Game, Player, Tournament
from ..play import director as games
from ..play.act import ACTING_KINDS
from ..play.start import player_for
from . import mails, service
from .core import formats
from .core.plans import Plan
from .log import Held
from .log import load as load_tournament

BYE_POINTS = (-1000.0, 1000.0)  # what a bye may score: game points run into the hundreds

MAX_MESSAGE = 5000


def may_direct(held: Held, player: Player | None) -> bool:
    """Whether a player directs this tournament: its lead director or a co-director."""
    if player is None:
        return False
    return str(player.id) in held.state.directors or held.row.director_id == player.id


def leads(held: Held, player: Player | None) -> bool:
    """Whether a player is the lead director, who adds co-directors and may hand over."""
    return player is not None and str(player.id) == held.lead


def check_director(held: Held, player: Player | None) -> games.Director:
    """The director acting, or Forbidden naming who may."""
    if not may_direct(held, player):
        raise Forbidden(f"only the director of {held.row.name} may do this")
    assert player is not None
    return games.Director.of(player)


def add_director(session: Session, ctx: Context, held: Held, who: games.Director, email: str,
                 name: str | None, reason: str, *, hand_over: bool = False) -> Held:
    """Add a co-director by address, or hand the event over to them; they are told by mail."""
    newcomer = player_for(session, email, name)
    what = "hand-over" if hand_over else "add-director"
    held = action(session, held, who, reason, what, player=str(newcomer.id),
                  name=newcomer.name)
    if hand_over:
        held.row.director_id = newcomer.id  # the row caches the lead, for pages and summaries
    mails.queue_directing(session, ctx, held, newcomer, who.name, reason, lead=hand_over)
    return held


def invite(session: Session, ctx: Context, held: Held, who: games.Director,
           lines: str) -> list[str]:
    """Mail a registration link to each 'Name <address>' (or address) line; the names stay."""
    invited = []
    inviter = session.get(Player, who.player_id) if who.player_id is not None else None
    for line in lines.splitlines():
        if not line.strip():
            continue
        name, email = parseaddr(line)
        if "@" not in email:
            raise Rejected(f"{line.strip()!r} is not an address: write one a line, "
                           "as Ann Archer <ann@example.org> or ann@example.org")
        player = player_for(session, email, name or None)
        mails.queue_registration(session, ctx, held, player.email, inviter=inviter)
        invited.append(player.name)
    if not invited:
        raise Rejected("write the addresses to invite, one a line")
    return invited


def message(session: Session, ctx: Context, held: Held, who: games.Director, subject: str,
            text: str) -> Held:
    """Mail every entrant and director a message; the event's page keeps it."""
    body = text.strip()
    if not body:
        raise Rejected("write the message: it goes to every entrant")
    if len(body) > MAX_MESSAGE:
        raise Rejected(f"keep a message under {MAX_MESSAGE:,} characters")
    held = action(session, held, who, subject, "message", text=body)
    mails.queue_message(session, ctx, held, held.state.messages[-1])
    return held


def action(session: Session, held: Held, who: games.Director, reason: str,
           what: str, **fields: Any) -> Held:
    """Log a director event: who, why and what."""
    payload = {**who.payload(reason), "action": what, **fields}
    return service.record(session, held, "director", payload)


def unfinished_seats(held: Held, player: str) -> list[tuple[str, int]]:
    """The player's games without a result, with the seat they hold in each."""
    return [
        (t.game, t.seats.index(player))
        for t in held.state.games_of.get(player, ())
        if t.result is None and t.annulled is None
    ]


def resign_all(session: Session, ctx: Context, held: Held, player: str, who: games.Director,
               reason: str) -> Held:
    """Take a leaving player out of their unfinished games (each logged as a withdrawal, with
    who and why, and told to the other seats); results are recorded as the games end."""
    for public_id, seat in unfinished_seats(held, player):
        loaded = load(session, public_id)
        if loaded.game.status == "active":
            games.withdraw_seat(session, ctx, public_id, seat, who, reason)
    return load_tournament(session, held.public_id, for_update=True)


def entrant_player(session: Session, player: str) -> Player | None:
    """The player behind an entrant's id."""
    return session.get(Player, int(player)) if player.isdigit() else None


def tell(session: Session, ctx: Context, held: Held, player: str, notice: str, what: str
         ) -> None:
    """Mail an entrant what was done to them in the event, once per event head."""
    person = entrant_player(session, player)
    if person is None:
        return
    compose.queue_player_notice(
        session, ctx, person, f"[{held.row.name}] {what}", notice,
        f"t.{held.public_id}.{held.row.head_seq}.{what}.{person.id}".replace(" ", "-"),
        home=f"{ctx.base_url}/tournaments/{held.public_id}",
    )


def withdraw(session: Session, ctx: Context, held: Held, player: str, reason: str,
             who: games.Director | None = None) -> Held:
    """Take a player out: before the start they leave; after it, their games are resigned.

    `who` is the director who withdrew them; None when the player withdrew themselves.
    """
    person = entrant_player(session, player)
    actor = who or games.Director(person.name if person else "the player",
                                  person.id if person else None)
    fields = actor.payload(reason)
    held = service.record(session, held, "withdraw", {"player": player, **fields})
    service.set_status(session, held, player, "withdrawn")
    if who is None:
        notice = f"You withdrew from {held.row.name} ({fields['reason']})."
    else:
        notice = f"{who.name} withdrew you from {held.row.name} ({fields['reason']})."
    if held.state.started:
        notice += " Your unfinished games there are lost, and you will not be paired again."
    tell(session, ctx, held, player, notice, "you are withdrawn")
    if held.state.started:
        held = resign_all(session, ctx, held, player, actor, fields["reason"])
    return service.carry_on(session, ctx, held, clock.utcnow())


def disqualify(session: Session, ctx: Context, held: Held, who: games.Director,
               player: str, reason: str) -> Held:
    """Stop pairing a player and resign their unfinished games; played games stay."""
    held = action(session, held, who, reason, "disqualify", player=player)
    service.set_status(session, held, player, "disqualified")
    why = " ".join(reason.split())
    tell(session, ctx, held, player,
         f"{who.name} disqualified you from {held.row.name} ({why}). Your unfinished games "
         "there are lost, and you will not be paired again.", "you are disqualified")
    held = resign_all(session, ctx, held, player, who, why)
    return service.carry_on(session, ctx, held, clock.utcnow())


def has_moved(session: Session, public_id: str, seat: int) -> bool:
    """Whether a seat has acted in a game."""
    loaded = load(session, public_id)
    query = select(exists().where(Event.game_id == loaded.game.id, Event.seat == seat,
                                  Event.kind.in_(ACTING_KINDS)))
    return bool(session.scalar(query))


def replace(session: Session, ctx: Context, held: Held, who: games.Director, player: str,
            email: str, name: str | None, reason: str) -> Held:
    """Put a new player in an entrant's place, before the entrant's first move anywhere."""
    seats = unfinished_seats(held, player)
    moved = [g for g, seat in seats if has_moved(session, g, seat)]
    played = [t.game for t in held.state.games_of.get(player, ()) if t.result is not None]
    if moved or played:
        raise Rejected(
            f"a replacement takes a place before its first move; {player} has already "
            f"played in game {(moved + played)[0]}"
        )
    newcomer = player_for(session, email, name)
    fields = who.payload(reason)
    held = service.record(session, held, "replace", {
        "player": player, "by": str(newcomer.id), "name": newcomer.name,
        "director": fields["by"], "reason": fields["reason"],
    })
    service.set_status(session, held, player, "replaced")
    service.set_status(session, held, str(newcomer.id), "active")
    tell(session, ctx, held, player,
         f"{who.name} replaced you by {newcomer.name} in {held.row.name} ({fields['reason']})."
         " Your links for its games no longer work.", "you are replaced")
    for public_id, seat in seats:
        games.replace(session, ctx, public_id, who, reason, seat, newcomer.email, newcomer.name,
                      tell_old=False)
    return held


def forbid(session: Session, held: Held, who: games.Director, a: str, b: str,
           reason: str) -> Held:
    """Keep two players apart in every later pairing."""
    return action(session, held, who, reason, "forbid", players=[a, b])


def close_entries(session: Session, held: Held, who: games.Director, reason: str) -> Held:
    """Take no more entries, late ones included."""
    if held.state.entries_closed is not None:
        raise Rejected(f"the entries of {held.row.name} are closed already")
    return action(session, held, who, reason, "close_entries")


def bye(session: Session, ctx: Context, held: Held, who: games.Director, player: str,
        points: float, reason: str, round_: int | None = None) -> Held:
    """Give a player points without a game (they are still paired as before); they are told."""
    held = action(session, held, who, reason, "bye", player=player, points=points, round=round_)
    why = " ".join(reason.split())
    tell(session, ctx, held, player,
         f"{who.name} gave you {counted(points, 'point')} without a game in {held.row.name} "
         f"({why}). You are paired as before.", "points without a game")
    return held


def undo(session: Session, ctx: Context, held: Held, who: games.Director, game: str,
         reason: str) -> Held:
    """Take back a pairing whose game nobody has moved in yet: the game is aborted."""
    table = held.state.by_game.get(game)
    if table is None:
        raise Rejected(f"game {game} is not part of {held.row.name}")
    if any(has_moved(session, game, seat) for seat in range(len(table.seats))):
        raise Rejected(f"game {game} has been played; annul it instead of undoing it")
    held = action(session, held, who, reason, "undo", game=game)
    if load(session, game).game.status == "active":
        games.abort(session, ctx, game, who, reason)
    return held


def annul(session: Session, held: Held, who: games.Director, game: str, reason: str) -> Held:
    """Make a game count for nobody (it stays in the crosstable, marked annulled)."""
    return action(session, held, who, reason, "annul", game=game)


def extend(session: Session, ctx: Context, held: Held, who: games.Director, hours: int,
           reason: str, game: str | None = None, round_: int | None = None) -> Held:
    """Give one game, or every unfinished game of a round, more time."""
    targets = [t.game for t in held.state.tables
               if (t.game == game if game else t.round == round_) and t.result is None]
    if not targets:
        raise Rejected("name an unfinished game of this tournament, or a round with one")
    for public_id in targets:
        if load(session, public_id).game.status == "active":
            games.extend(session, ctx, public_id, who, reason, hours)
    fields: dict[str, Any] = {"hours": hours}
    fields.update({"game": game} if game else {"round": round_})
    return action(session, held, who, reason, "extend", **fields)


def adjudicate(session: Session, ctx: Context, held: Held, who: games.Director, game: str,
               ranks: list[int], scores: list[float] | None, reason: str) -> Held:
    """Set an unfinished game's result; the game's end records it in the tournament."""
    if game not in held.state.by_game:
        raise Rejected(f"game {game} is not part of {held.row.name}")
    games.adjudicate(session, ctx, game, who, reason, ranks, scores)
    return load_tournament(session, held.public_id)


def start_round(session: Session, ctx: Context, held: Held, who: games.Director,
                unfinished: str, reason: str) -> Held:
    """Start the next round before the last one is over, its unfinished games adjudicated
    or carried (logged with who and why, mailed to their players); then pair it."""
    held = service.start_round(session, ctx, held, who, unfinished, reason)
    return service.tick(session, ctx, held, clock.utcnow())


def why_nothing_is_due(held: Held, now: datetime) -> str:
    """Say why a pairing asked for now would pair nobody."""
    state = held.state
    if not state.started:
        return f"{held.row.name} has not started"
    if state.closed or formats.is_over(state):
        return f"{held.row.name} is over"
    return formats.format_of(state).nothing_due(state)


def preview(session: Session, held: Held, now: datetime) -> Plan | None:
    """What would be paired now, with each table's penalty, without pairing it."""
    return formats.plan(held.state, now, service.away_players(session, held, now))


def pair_now(session: Session, ctx: Context, held: Held, now: datetime) -> Held:
    """Pair what is due now; Rejected saying why when nothing is."""
    due = preview(session, held, now)
    if due is None:
        raise Rejected(f"nothing to pair: {why_nothing_is_due(held, now)}")
    held = service.pair(session, ctx, held, due)
    return service.tick(session, ctx, held, now)


def event_of(session: Session, game: Game, *, for_update: bool = False) -> Held | None:
    """The tournament a game belongs to, if any."""
    if game.tournament_id is None:
        return None
    row = session.get(Tournament, game.tournament_id)
    return load_tournament(session, row.public_id, for_update=for_update) if row else None


def extend_game(session: Session, ctx: Context, public_id: str, who: games.Director,
                hours: int, reason: str) -> None:
    """Give a game's open decision more time; in a tournament, through its event's log."""
    held = event_of(session, load(session, public_id).game, for_update=True)
    if held is None:
        games.extend(session, ctx, public_id, who, reason, hours)
    else:
        extend(session, ctx, held, who, hours, reason, game=public_id)


def replace_seat(session: Session, ctx: Context, public_id: str, who: games.Director,
                 seat: int, email: str, name: str | None, reason: str) -> None:
    """Hand a seat to another player; in a tournament, the entrant is replaced in the event
    (in every game of theirs not yet played), since its standings follow the entrant."""
    loaded = load(session, public_id)
    held = event_of(session, loaded.game, for_update=True)
    if held is None:
        games.replace(session, ctx, public_id, who, reason, seat, email, name)
        return
    table = held.state.by_game.get(public_id)
    if table is None:
        raise Rejected(f"game {public_id} is no longer part of {held.row.name}")
    if not 0 <= seat < len(table.seats):
        raise Rejected(f"game {public_id} has seats 0 to {len(table.seats) - 1}")
    replace(session, ctx, held, who, table.seats[seat], email, name, reason)
