"""A tournament's mails: the registration link, and summaries of standings and games."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.figures import counted

from ..context import Context
from ..mail import compose, outbox
from ..models import Outbox, Player
from . import reports
from .core import formats
from .core.model import Message, RoundStart
from .log import Held


def queue_registration(
    session: Session, ctx: Context, held: Held, email: str, inviter: Player | None = None
) -> None:
    """Mail a signed link that enters the address in the tournament (rate-limited).

    With `inviter` (someone signed in, or the director from the command line) the mail says
    who invites them; without, the address asked for itself. The director's link is an
    invitation, signed with their name: it enters a private event too.
    """
    compose.check_rate(session, email, "register", "registration links")
    director = inviter is not None and inviter.id == held.row.director_id
    by = inviter.name if inviter is not None and director else None
    token = ctx.signer.register_token(held.public_id, email, by)
    link = f"{ctx.base_url}/tournaments/register/{token}"
    config = held.state.config
    text, html = compose.render(
        "tournament_register", held=held, link=link,
        home=f"{ctx.base_url}/tournaments/{held.public_id}",
        inviter=inviter, director=director,
        game=reports.game_title(config.kind), system=formats.format_for(config.system).title,
    )
    outbox.queue(
        session,
        ctx,
        purpose="register",
        to=email,
        subject=f"[{held.row.name}] your registration link",
        text=text,
        html=html,
        key=f"register.{held.public_id}.{int(datetime.now(UTC).timestamp() * 1e6)}",
    )


def queue_summary(session: Session, ctx: Context, held: Held, title: str, key: str) -> int:
    """Mail every active entrant the standings and their games, once per key."""
    domain = outbox.domain_of(ctx.mail_from)
    ids: dict[int, str | None] = {int(e.player): e.player for e in held.state.entrants}
    ids.setdefault(held.row.director_id, None)  # the directors read every summary too
    for director in filter(str.isdigit, held.state.directors):
        ids.setdefault(int(director), None)
    players = [p for p in session.scalars(select(Player).where(Player.id.in_(list(ids))))
               if p.mail_pref != "none"]
    message_id = {p.id: f"<t.{held.public_id}.{key}.{p.id}@{domain}>" for p in players}
    done = set(session.scalars(
        select(Outbox.message_id).where(Outbox.message_id.in_(list(message_id.values())))
    ))
    players = [p for p in players if message_id[p.id] not in done]
    if not players:
        return 0
    table = held.standings
    home = f"{ctx.base_url}/tournaments/{held.public_id}"
    sent = 0
    for player in sorted(players, key=lambda p: p.id):
        entrant = ids[player.id]
        tables = held.state.games_of.get(entrant, ()) if entrant is not None else ()
        games = [
            {"game": t.game, "round": t.round, "over": t.result is not None,
             "url": f"{ctx.base_url}/games/{t.game}",
             "opponents": [reports.name_of(held.state, p) for p in t.seats if p != entrant]}
            for t in tables
        ]
        context: dict[str, Any] = {
            "held": held, "title": title, "player": player, "standings": table[:20],
            "games": games, "home": home,
            "me": next((s for s in table if s.player == entrant), None),
            "director": player.id == held.row.director_id
            or str(player.id) in held.state.directors,
            "away": [reports.name_of(held.state, p) for p in last_away(held)],
            "byes": byes_of(held, entrant),
        }
        text, html = compose.render("tournament_summary", **context)
        outbox.queue(session, ctx, purpose="summary", to=player.email,
                     subject=f"[{held.row.name}] {title}", text=text, html=html,
                     key=f"t.{held.public_id}.{key}.{player.id}")
        sent += 1
    return sent


def byes_of(held: Held, entrant: str | None) -> list[str]:
    """An entrant's points without a game, in words, oldest first: pairing byes, rounds
    missed as a late entrant, and points a director gave."""
    if entrant is None:
        return []
    found = []
    for bye in held.state.byes:
        if bye.player != entrant:
            continue
        when = f"Round {bye.round}: " if bye.round is not None else ""
        points = counted(bye.points, "point")
        if bye.late:
            found.append(f"{when}{points} for a round played before you entered")
        elif bye.by is not None:
            found.append(f"{when}{points} without a game, given by {bye.by}")
        elif bye.points:
            found.append(f"{when}a bye of {points}: no game (nobody was left to pair you with)")
        else:
            found.append(f"{when}no game and no points (away, or a round robin's free round)")
    return found


def last_away(held: Held) -> tuple[str, ...]:
    """Who the latest pairing left out because they were on vacation."""
    pairings = held.state.pairings
    return pairings[-1].away if pairings else ()


def queue_message(session: Session, ctx: Context, held: Held, message: Message) -> int:
    """Mail a director's message to every active entrant and every director, once each."""
    ids = {int(p) for p in held.state.active()} | {int(p) for p in held.state.directors}
    players = [p for p in session.scalars(select(Player).where(Player.id.in_(list(ids))))
               if p.mail_pref != "none"]
    home = f"{ctx.base_url}/tournaments/{held.public_id}"
    for player in sorted(players, key=lambda p: p.id):
        text, html = compose.render("tournament_message", held=held, message=message,
                                    player=player, home=home)
        outbox.queue(session, ctx, purpose="message", to=player.email,
                     subject=f"[{held.row.name}] {message.subject}", text=text, html=html,
                     key=f"t.{held.public_id}.m{message.seq}.{player.id}")
    return len(players)


def queue_directing(session: Session, ctx: Context, held: Held, player: Player, by: str,
                    reason: str, *, lead: bool) -> None:
    """Tell a player they now direct the event (as its lead, or beside the lead)."""
    home = f"{ctx.base_url}/tournaments/{held.public_id}"
    text, html = compose.render("tournament_directing", held=held, player=player, by=by,
                                reason=reason, lead=lead, home=home,
                                dashboard=f"{home}/director")
    role = "you now lead" if lead else "you now co-direct"
    outbox.queue(session, ctx, purpose="directing", to=player.email,
                 subject=f"[{held.row.name}] {role} this tournament", text=text, html=html,
                 key=f"t.{held.public_id}.d{held.state.head}.{player.id}")


def queue_round_start(session: Session, ctx: Context, held: Held, start: RoundStart) -> None:
    """Tell each player of a game a round's early start adjudicates or carries, and each
    director, who started the round and why, and what becomes of the game."""
    t, home = held.state, f"{ctx.base_url}/tournaments/{held.public_id}"
    last = start.round - 1
    what = (f"{start.by} started round {start.round} of {held.row.name} before round {last} "
            f"was over ({start.reason}).")
    told: set[int] = set()
    for game in start.games:
        seats = t.by_game[game].seats
        for player in seats:
            others = " and ".join(reports.name_of(t, p) for p in seats if p != player)
            fate = (f"Your round {last} game {game} against {others} is ended by adjudication "
                    "on the scores so far; its result mail follows."
                    if start.unfinished == "adjudicate" else
                    f"Your round {last} game {game} against {others} goes on: play it to the "
                    f"end, its result counts for round {last}. You are paired in round "
                    f"{start.round} as well, on the points known so far.")
            notice(session, ctx, held, player, f"round {start.round} has started",
                   f"{what} {fate}", f"{ctx.base_url}/games/{game}", home, start.seq)
            told.add(int(player))
    games = ", ".join(f"{g} ({' v '.join(reports.name_of(t, p) for p in t.by_game[g].seats)})"
                      for g in start.games)
    fate = "adjudicated on the scores so far" if start.unfinished == "adjudicate" else \
        "carried: they go on and count for their own round"
    for director in directors(held):
        if int(director) not in told:
            notice(session, ctx, held, director, f"round {start.round} has started",
                   f"{what} The unfinished games of round {last} are {fate}: {games}.",
                   f"{home}/director", home, start.seq)


def notice(session: Session, ctx: Context, held: Held, player: str, subject: str, text: str,
           url: str, home: str, seq: int) -> None:
    """Mail one person a notice about the event, once per event and log entry."""
    person = session.get(Player, int(player)) if player.isdigit() else None
    if person is None:
        return
    compose.queue_player_notice(session, ctx, person, f"[{held.row.name}] {subject}", text,
                                f"t.{held.public_id}.s{seq}.{person.id}", home=home,
                                game_url=url)


def queue_problem(session: Session, ctx: Context, held: Held, problem: str) -> None:
    """Tell each director that the server cannot carry the event on, and why; once for each
    problem at each head of the log (a tick that meets it again sends nothing)."""
    home = f"{ctx.base_url}/tournaments/{held.public_id}"
    text = (f"The server could not carry {held.row.name} on (pair the next games, start them "
            f"or close the event): {problem}. Nothing is lost: every result so far is "
            "recorded. The server tries again at every tick, and the dashboard shows the "
            "problem until it carries on; you can also act from the dashboard.")
    digest = hashlib.sha256(problem.encode()).hexdigest()[:12]
    for director in directors(held):
        person = session.get(Player, int(director))
        if person is not None:
            compose.queue_player_notice(
                session, ctx, person, f"[{held.row.name}] the server cannot carry on", text,
                f"t.{held.public_id}.p{held.state.head}.{digest}.{person.id}",
                home=home, game_url=f"{home}/director")


def directors(held: Held) -> list[str]:
    """The player ids of everyone who directs the event: the lead, then co-directors."""
    named = dict.fromkeys((*held.state.directors, str(held.row.director_id)))
    return [d for d in named if d.isdigit()]
