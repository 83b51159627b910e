"""Moves by mail: play a reply's move lines, all or none, and answer (docs/architecture.md §7)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import present
from ..context import Context
from ..errors import PbemError
from ..links import MoveGrant
from ..log.games import Loaded, load
from ..mail import compose, outbox, sent
from ..mail.inbound import Reply, parse
from ..models import Player
from .act import submit

# At most this many answers to one address an hour: a responder that marks nothing as
# automatic and answers every answer still stops here.
ANSWERS_PER_HOUR = 20

# "Re:" and its translations (AW, SV, VS, Antw), however many, as mail clients stack them.
RE_PREFIX = re.compile(r"^(\s*(re|aw|sv|vs|antw)(\[\d+\])?\s*:\s*)+", re.IGNORECASE)


@dataclass(frozen=True)
class Ingested:
    """What became of a mail: played, rejected (and answered), or ignored."""

    status: str
    message: str


def ingest(session: Session, ctx: Context, raw: bytes) -> Ingested:
    """Play the moves of a reply mail, all or none, and queue the answer."""
    return play_reply(session, ctx, parse(raw))


def reference(session: Session, reply: Reply) -> str | None:
    """The decision a reply answers: its plus address or subject, else the mail it answers."""
    return reply.ref or sent.answered_ref(session, reply.answers)


def play_reply(session: Session, ctx: Context, reply: Reply) -> Ingested:
    """Play a parsed reply's moves, all or none; answer when it was refused or the turn goes
    on (or always, if the player asked for every answer). Automatic mail is never played."""
    if reply.automatic:
        why = reply.automatic
        return Ingested("ignored", f"automatic mail, neither played nor answered: {why}")
    ref = reference(session, reply)
    if ref is None:
        return Ingested("ignored", "no reply reference in the addresses, subject or In-Reply-To")
    try:
        grant = ctx.signer.read_reply_ref(ref)
        loaded = load(session, grant.game)
    except PbemError as e:
        answer_stranger(session, ctx, reply, str(e))
        return Ingested("ignored", str(e))
    player = loaded.player(grant.seat) if grant.seat < len(loaded.game.seats) else None
    if player is None:
        return Ingested("ignored", f"game {grant.game} has no seat {grant.seat}")
    if not reply.lines:
        problem = "your reply had no move: write it on the first line, above the quoted mail"
        answer(session, ctx, reply, loaded, player, grant, ok=False, text=problem)
        return Ingested("rejected", problem)
    # One nonce per mail and reference: a Message-ID reused in another game blocks nothing.
    nonce = "mail:" + hashlib.sha256(f"{ref}|{reply.identity}".encode()).hexdigest()[:40]
    done: list[str] = []
    try:
        with session.begin_nested():
            current = grant
            for number, line in enumerate(reply.lines):
                if number and current.seat not in load(session, current.game).awaited():
                    raise PbemError(
                        f"your turn ended after {done[-1]!r}; {line!r} and what follows "
                        "were not played"
                    )
                result = submit(session, ctx, current, line, nonce=nonce if number == 0 else None)
                if result.replayed:
                    return Ingested("ignored", "this mail was already played")
                done.append(result.description)
                current = MoveGrant(current.game, current.seat, result.head)
    except PbemError as e:
        answer(session, ctx, reply, loaded, player, grant, ok=False, text=str(e))
        return Ingested("rejected", str(e))
    # A turn that goes on gets no new turn mail: this answer says so, shows the position
    # (a new roll, say) and carries a fresh reply address.
    now = load(session, current.game)
    still = (
        present.of_game(now, current.seat)
        if current.seat in now.awaited()
        else None
    )
    if still is None and player.reply_answers != "every":
        return Ingested("played", "; ".join(done) + " (not answered: the turn passed on)")
    answer(session, ctx, reply, loaded, player, current, ok=True, text="; ".join(done), still=still)
    return Ingested("played", "; ".join(done))


def re_subject(subject: str) -> str:
    """An answer's subject: one "Re:" however many the reply's subject had."""
    return "Re: " + RE_PREFIX.sub("", subject)


def answer(
    session: Session,
    ctx: Context,
    reply: Reply,
    loaded: Loaded,
    player: Player,
    grant: MoveGrant,
    *,
    ok: bool,
    text: str,
    still: dict[str, Any] | None = None,
) -> None:
    """Tell the seat's player (never just the sender) what became of their mail."""
    if sent.recent_count(session, player.email, ("reply",)) >= ANSWERS_PER_HOUR:
        return  # a mail loop with a responder that says nothing of being one
    link = f"{ctx.base_url}/play/{ctx.signer.move_token(grant)}"
    body = compose.render_text(
        "reply",
        player=player,
        ok=ok,
        text=text,
        lines=reply.lines,
        link=link,
        game=grant.game,
        still=still,
    )
    key = hashlib.sha256(f"{reply.identity}|{ok}|{text}".encode()).hexdigest()[:32]
    root = compose.thread_root(ctx, loaded, grant.seat)
    headers = {
        "In-Reply-To": reply.message_id,
        "References": " ".join(i for i in (root, reply.message_id) if i),
    }
    if still is not None:  # a reply to this answer plays the next decision of the turn
        headers["Reply-To"] = compose.reply_address(ctx.mail_from, ctx.signer.reply_ref(grant))
    outbox.queue(
        session,
        ctx,
        purpose="reply",
        to=player.email,
        subject="Re: " + compose.thread_subject(loaded),
        text=body,
        html=None,
        key=f"reply.{key}",
        game_id=loaded.game.id,
        headers=headers,
    )


def answer_stranger(session: Session, ctx: Context, reply: Reply, problem: str) -> None:
    """Answer a bad reference only to a known player, never to any address (backscatter)."""
    player = session.scalars(select(Player).where(Player.email == reply.sender)).first()
    if player is None or sent.recent_count(session, player.email, ("reply",)) >= ANSWERS_PER_HOUR:
        return
    body = compose.render_text(
        "reply", player=player, ok=False, text=problem, lines=reply.lines, link=None, game=None
    )
    key = hashlib.sha256(f"{reply.identity}|bad|{problem}".encode()).hexdigest()[:32]
    outbox.queue(
        session,
        ctx,
        purpose="reply",
        to=player.email,
        subject=re_subject(reply.subject),
        text=body,
        html=None,
        key=f"reply.{key}",
    )
