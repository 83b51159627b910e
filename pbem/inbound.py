"""Moves by mail: find a reply's reference, play its first lines, and answer (DESIGN §6)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from email.utils import getaddresses, parseaddr
from html import unescape

from sqlalchemy import select
from sqlalchemy.orm import Session

from . import mail
from .errors import PbemError
from .links import MoveGrant
from .models import Player
from .play import Context, load, submit

REF = r"([0-9a-f]{4,32}\.\d{1,3}\.\d{1,9}\.[a-z2-7]{16})"
ADDRESS_REF = re.compile(rf"\+{REF}@", re.I)
SUBJECT_REF = re.compile(rf"#{REF}", re.I)
ADDRESS_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")
# Lines that start the quoted original in common mail clients.
QUOTE_INTRO = re.compile(
    r"^(on .+ wrote:|-+ ?original message ?-+|from: .+|le .+ a écrit ?:|am .+ schrieb .+:)$",
    re.I,
)
MAX_LINES = 10


@dataclass(frozen=True)
class Reply:
    """What a reply mail says: its reference, sender and move lines."""

    ref: str | None
    sender: str
    subject: str
    message_id: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Ingested:
    """What became of a mail: played, rejected (and answered), or ignored."""

    status: str
    message: str


def parse(raw: bytes) -> Reply:
    """Read a mail: the reference from its addresses or subject, and its move lines."""
    message = message_from_bytes(raw, policy=default)
    assert isinstance(message, EmailMessage)
    subject = str(message.get("Subject", ""))
    ref = None
    for header in ADDRESS_HEADERS:
        for _, address in getaddresses([str(v) for v in message.get_all(header, [])]):
            found = ADDRESS_REF.search(address)
            if found:
                ref = found[1].lower()
                break
        if ref:
            break
    if ref is None:
        found = SUBJECT_REF.search(subject)
        ref = found[1].lower() if found else None
    sender = parseaddr(str(message.get("From", "")))[1].lower()
    message_id = str(message.get("Message-ID", "")).strip()
    return Reply(ref, sender, subject, message_id, move_lines(body_text(message)))


def body_text(message: EmailMessage) -> str:
    """The plain text of a mail (HTML stripped when there is no text part)."""
    part = message.get_body(("plain", "html"))
    if part is None:
        return ""
    try:
        content = part.get_content()
    except (LookupError, ValueError):
        return ""
    if part.get_content_subtype() == "html":
        # The quoted original: blockquotes, and Gmail's quote block to the end of the mail.
        content = re.sub(r"(?is)<(script|style|blockquote)\b.*?</\1>", "", content)
        content = re.sub(r"(?is)<div[^>]*gmail_quote.*", "", content)
        content = re.sub(r"(?i)<br\s*/?>|</p>|</div>", "\n", content)
        content = unescape(re.sub(r"<[^>]+>", "", content))
    return str(content)


def move_lines(text: str) -> tuple[str, ...]:
    """The first paragraph of unquoted lines: the moves, one per line."""
    lines: list[str] = []
    for raw_line in text.replace("\r\n", "\n").split("\n"):
        line = raw_line.strip()
        if line.startswith(">") or QUOTE_INTRO.match(line) or line == "--":
            break
        if not line:
            if lines:
                break
            continue
        lines.append(line)
        if len(lines) == MAX_LINES:
            break
    return tuple(lines)


def ingest(session: Session, ctx: Context, raw: bytes) -> Ingested:
    """Play the moves of a reply mail, all or none, and queue the answer."""
    reply = parse(raw)
    if reply.ref is None:
        return Ingested("ignored", "no reply reference in the addresses or the subject")
    try:
        grant = ctx.signer.read_reply_ref(reply.ref)
        loaded = load(session, grant.game)
    except PbemError as e:
        answer_stranger(session, ctx, reply, str(e))
        return Ingested("ignored", str(e))
    player = loaded.player(grant.seat) if grant.seat < len(loaded.game.seats) else None
    if player is None:
        return Ingested("ignored", f"game {grant.game} has no seat {grant.seat}")
    if not reply.lines:
        problem = "your reply had no move: write it on the first line, above the quoted mail"
        answer(session, ctx, reply, player, grant, ok=False, text=problem)
        return Ingested("rejected", problem)
    nonce = "mail:" + hashlib.sha256(reply.message_id.encode()).hexdigest()[:40]
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
        answer(session, ctx, reply, player, grant, ok=False, text=str(e))
        return Ingested("rejected", str(e))
    answer(session, ctx, reply, player, grant, ok=True, text="; ".join(done))
    return Ingested("played", "; ".join(done))


def answer(
    session: Session,
    ctx: Context,
    reply: Reply,
    player: Player,
    grant: MoveGrant,
    *,
    ok: bool,
    text: str,
) -> None:
    """Tell the seat's player (never just the sender) what became of their mail."""
    link = f"{ctx.base_url}/play/{ctx.signer.move_token(grant)}"
    body = mail.render_text(
        "reply", player=player, ok=ok, text=text, lines=reply.lines, link=link, game=grant.game
    )
    key = hashlib.sha256(f"{reply.message_id}|{ok}|{text}".encode()).hexdigest()[:32]
    mail.queue(
        session,
        ctx,
        purpose="reply",
        to=player.email,
        subject=f"Re: {reply.subject}" if reply.subject else f"Your move in {grant.game}",
        text=body,
        html=None,
        key=f"reply.{key}",
        headers={"In-Reply-To": reply.message_id, "References": reply.message_id},
    )


def answer_stranger(session: Session, ctx: Context, reply: Reply, problem: str) -> None:
    """Answer a bad reference only to a known player, never to any address (backscatter)."""
    player = session.scalars(select(Player).where(Player.email == reply.sender)).first()
    if player is None:
        return
    body = mail.render_text(
        "reply", player=player, ok=False, text=problem, lines=reply.lines, link=None, game=None
    )
    key = hashlib.sha256(f"{reply.message_id}|bad|{problem}".encode()).hexdigest()[:32]
    mail.queue(
        session,
        ctx,
        purpose="reply",
        to=player.email,
        subject=f"Re: {reply.subject}",
        text=body,
        html=None,
        key=f"reply.{key}",
    )
