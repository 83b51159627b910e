"""A player's own settings and sessions: mail, name, vacation, API token, signing in and out."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import delete
from sqlalchemy.orm import Session

from ..clock import utcnow
from ..errors import ExpiredLink, NotFound, Rejected
from ..links import SIGNIN_MAX_AGE, SigninGrant
from ..log.store import racing
from ..models import Player, UsedSignin
from ..text import one_line

MAIL_PREFS = {"turn": "every turn", "digest": "a daily digest", "none": "no mail"}
REPLY_ANSWERS = {
    "needed": "only when it was refused or my turn goes on",
    "every": "for every reply",
}
MAX_AWAY = timedelta(days=30)
NAME_LIMIT = 100  # the name column's size
AWAY_AHEAD = timedelta(days=366)  # how far ahead a vacation may begin
USED = "this sign-in link has been used: each link signs in once; ask for a new one"


def clean_name(text: str | None) -> str:
    """A name as others see it, in pages and mails: one line, at most 100 characters."""
    return one_line(text or "", NAME_LIMIT)


def unnamed(player: Player) -> bool:
    """Tell whether a player has only the stand-in name "Player N", given when none was known."""
    return player.name == f"Player {player.id}"


def give_name(player: Player, name: str | None) -> None:
    """Set the name others see, when one is given (a blank one changes nothing)."""
    cleaned = clean_name(name)
    if (name or "").strip() and not cleaned:
        raise Rejected("a name needs some visible characters")
    if cleaned:
        player.name = cleaned


def set_preferences(
    player: Player, mail_pref: str, name: str, reply_answers: str | None = None
) -> None:
    """Choose how much mail to get, when a reply mail is answered, and (if given) the name
    other players see."""
    if mail_pref not in MAIL_PREFS:
        raise Rejected(f"mail preference {mail_pref!r} is not one of {', '.join(MAIL_PREFS)}")
    if reply_answers is not None:
        if reply_answers not in REPLY_ANSWERS:
            raise Rejected(
                f"answers to replies {reply_answers!r} is not one of {', '.join(REPLY_ANSWERS)}"
            )
        player.reply_answers = reply_answers
    cleaned = clean_name(name)
    if name.strip() and not cleaned:
        raise Rejected("a name needs some visible characters")
    player.mail_pref = mail_pref
    if cleaned:
        player.name = cleaned


def new_api_token(player: Player) -> str:
    """Make a personal API token (only its hash is kept) and return it, once."""
    token = "pbem_" + secrets.token_urlsafe(32)
    player.api_token_hash = hashlib.sha256(token.encode()).hexdigest()
    return token


def set_away(player: Player, first: str, last: str) -> None:
    """Set (or, with both dates empty, clear) a vacation from one day to another, inclusive."""
    if not first.strip() and not last.strip():
        player.away_from = player.away_until = None
        return
    try:
        start = datetime.combine(date.fromisoformat(first.strip()), time(), UTC)
        end = datetime.combine(date.fromisoformat(last.strip()), time(), UTC)
        end += timedelta(days=1)
    except (ValueError, OverflowError) as e:
        raise Rejected(f"give the dates as YYYY-MM-DD, not {first!r} and {last!r}") from e
    if start > datetime.now(UTC) + AWAY_AHEAD:
        raise Rejected(f"a vacation may begin at most {AWAY_AHEAD.days} days from today")
    if end <= start:
        raise Rejected("the last day away must not be before the first")
    if end - start > MAX_AWAY:
        raise Rejected(f"a vacation may last at most {MAX_AWAY.days} days")
    if end <= datetime.now(UTC):
        raise Rejected("that vacation is over already")
    player.away_from, player.away_until = start, end


def signin_player(session: Session, grant: SigninGrant) -> Player:
    """The player a sign-in link is for, if it may still sign them in (ExpiredLink if not)."""
    player = session.get(Player, grant.player)
    if player is None:
        raise NotFound("this sign-in link is for a player who no longer exists")
    if grant.generation != player.session_generation:
        raise ExpiredLink(f"{player.email} signed out everywhere after this sign-in link was "
                          "made, which ended it; ask for a new one")
    if session.get(UsedSignin, grant.nonce) is not None:
        raise ExpiredLink(USED)
    return player


def use_signin(session: Session, grant: SigninGrant) -> Player:
    """Sign in with a link, which is then used up (a second use, even at once, is refused)."""
    player = signin_player(session, grant)
    now = utcnow()
    # A record need only outlive its link: an older link is refused for its age anyway.
    stale = now - timedelta(seconds=2 * SIGNIN_MAX_AGE)
    session.execute(delete(UsedSignin).where(UsedSignin.used_at < stale))
    with racing(session, USED):
        session.add(UsedSignin(nonce=grant.nonce, player_id=player.id, used_at=now))
        session.flush()
    return player


def end_sessions(player: Player, *, api_token: bool = False) -> None:
    """End every browser session of a player and void their unused sign-in links.

    With `api_token`, their personal API token stops working too ("everywhere").
    """
    player.session_generation += 1
    if api_token:
        player.api_token_hash = None
