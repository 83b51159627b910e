"""A mail of commands answered: read-only ones at once, changes listed for confirmation;
a confirmation done. Only registered players get answers (no backscatter)."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from ..clock import utcnow
from ..context import Context
from ..errors import BadLink, PbemError
from ..mail import compose, outbox, sent
from ..mail.inbound import Reply
from ..models import MailCommand, Player
from ..text import bounded
from . import changes, commands

CONFIRM_WITHIN = timedelta(days=3)
ANSWERS_PER_HOUR = 20  # to one address: a loop with a responder stops here
YES = ("yes", "y", "ok", "okay", "confirm", "confirmed", "sure")


def run(session: Session, ctx: Context, reply: Reply) -> tuple[str, str]:
    """Answer a mail of commands; (status, what happened) for the log."""
    player = commands.known_sender(session, reply.sender)
    if player is None:
        return "ignored", f"commands from {reply.sender or 'no sender'}, no player: not answered"
    lines, extra = commands.command_lines(reply.body)
    done: list[dict[str, str]] = []
    pending: list[str] = []
    for line in lines:
        command, args = commands.split(line)
        try:
            if command is None:
                raise PbemError(f"{line.split()[0]!r} is no command; send help for the list")
            if command.changes:
                pending.append(changes.check(session, player, command, args))
                continue
            with session.begin_nested():
                said = commands.read_only(session, player, command, args)
            done.append({"line": line, "answer": said})
        except PbemError as e:
            done.append({"line": line, "answer": f"Not done: {e}"})
    if not lines:
        done.append({"line": "", "answer": "Your mail had no command.\n" + commands.help_text()})
    confirm_ref = None
    if pending:
        row = MailCommand(player_id=player.id, commands=json.dumps(pending), created_at=utcnow())
        session.add(row)
        session.flush()
        confirm_ref = ctx.signer.number_ref("c", row.id)
    summary = f"{len(lines)} commands, {len(pending)} to confirm" + (
        f"; {extra} more lines not read (at most {commands.MAX_COMMANDS})" if extra else ""
    )
    if not answer(session, ctx, reply, player, done=done, pending=pending, extra=extra,
                  confirm_ref=confirm_ref):
        return "ignored", summary + f"; not answered ({ANSWERS_PER_HOUR} answers in the last hour)"
    return "answered", summary


def confirm(session: Session, ctx: Context, reply: Reply) -> tuple[str, str]:
    """Do the changes a confirmation reply names, once; (status, what happened) for the log."""
    try:
        row = session.get(MailCommand, ctx.signer.read_number_ref("c", reply.tag or ""))
    except BadLink:
        row = None
    if row is None:
        return "ignored", f"a confirmation of commands that do not exist ({reply.tag})"
    player = session.get(Player, row.player_id)
    assert player is not None
    first = reply.lines[0].lower().strip(" .!") if reply.lines else ""
    if first not in YES:
        return "ignored", f"commands {row.id} not confirmed: the first line says {first[:40]!r}"
    if row.done_at is not None:
        return "ignored", f"commands {row.id} were confirmed before: nothing done again"
    if utcnow() - _aware(row.created_at) > CONFIRM_WITHIN:
        answer(session, ctx, reply, player, done=[{"line": "yes", "answer": (
            "Not done: these commands waited more than three days for your reply; send them again"
        )}])
        return "rejected", f"commands {row.id} confirmed too late"
    done = []
    for line in json.loads(row.commands):
        try:
            with session.begin_nested():
                said = changes.do(session, ctx, player, line)
            done.append({"line": line, "answer": f"Done: {said}"})
        except PbemError as e:
            done.append({"line": line, "answer": f"Not done: {e}"})
    row.done_at = utcnow()
    row.outcome = bounded("; ".join(d["answer"] for d in done), 2000)
    answer(session, ctx, reply, player, done=done)
    return "done", f"commands {row.id}: {row.outcome}"


def _aware(when: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def answer(
    session: Session,
    ctx: Context,
    reply: Reply,
    player: Player,
    *,
    done: list[dict[str, str]],
    pending: list[str] | None = None,
    extra: int = 0,
    confirm_ref: str | None = None,
) -> bool:
    """Mail the answer to the player's registered address; False when too many went lately."""
    if sent.recent_count(session, player.email, ("command",)) >= ANSWERS_PER_HOUR:
        return False
    body = compose.render_text(
        "command", player=player, done=done, pending=[changes.describe(p) for p in pending or []],
        extra=extra, most=commands.MAX_COMMANDS, days=CONFIRM_WITHIN.days,
    )
    headers = {"In-Reply-To": reply.message_id, "References": reply.message_id}
    if confirm_ref is not None:
        headers["Reply-To"] = compose.reply_address(ctx.mail_from, confirm_ref)
    key = hashlib.sha256(f"{reply.identity}|{body}".encode()).hexdigest()[:32]
    subject = reply.subject.strip() or "your commands"
    outbox.queue(
        session, ctx, purpose="command", to=player.email,
        subject=subject if subject.lower().startswith("re:") else f"Re: {subject}",
        text=body, html=None, key=f"command.{key}", headers=headers,
    )
    return True
