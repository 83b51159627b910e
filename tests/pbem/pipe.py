"""Helpers for the pipe's tests: start and play games, read the log and the outbox, forms."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select

from pbem import clock
from pbem.links import MoveGrant
from pbem.log import store
from pbem.log.games import Loaded, load
from pbem.models import Event, Game, Outbox, Player, Snapshot
from pbem.play import deadlines
from pbem.play.act import Submitted, resign, submit
from pbem.play.start import start_game, start_mirror
from pbem.services import Services

BASE = "http://pbem.test"
PLAYERS = (("ann@example.org", "Ann"), ("bob@example.org", "Bob"))
KIND = "martian-frisby"
# A seat count for each kind of game, for tests that play every kind.
SEATS = {
    "martian-frisby": 2,
    "martian-dice": 3,
    "martian-race": 3,
    "mad-dog": 3,
    "martianopolis-500": 3,
}
CSRF_INPUT = re.compile(r'name="csrf" value="([^"]+)"')


def svc_of(app: Any) -> Services:
    """The services of an app, without needing an app context."""
    return app.extensions["pbem"]  # type: ignore[no-any-return]


def start(app: Any, players: Sequence[tuple[str, str | None]] = PLAYERS, **kw: Any) -> str:
    """Start a Martian Frisby game through the service layer; return its public id."""
    svc = svc_of(app)
    return svc.write(
        lambda s: start_game(s, svc.ctx, KIND, list(players), **kw).game.public_id
    )


def mirror(app: Any) -> tuple[str, str]:
    """Start a short Martian Frisby mirror match; return its two games' public ids."""
    svc = svc_of(app)
    first, second = svc.write(
        lambda s: tuple(
            loaded.game.public_id
            for loaded in start_mirror(s, svc.ctx, KIND, PLAYERS, options={"max_turns": 12})
        )
    )
    return first, second


def loaded(app: Any, public_id: str) -> Loaded:
    """The game rebuilt from its log, in a read session."""
    with svc_of(app).db.read() as s:
        return load(s, public_id)


def awaited(app: Any, public_id: str) -> int:
    """The one seat the game waits for."""
    (seat,) = loaded(app, public_id).awaited()
    return seat


def grant(app: Any, public_id: str, seat: int | None = None) -> MoveGrant:
    """A grant at the current head for a seat (the awaited one by default)."""
    game = loaded(app, public_id)
    seat = awaited(app, public_id) if seat is None else seat
    return MoveGrant(public_id, seat, game.game.head_seq)


def token(app: Any, public_id: str, seat: int | None = None) -> str:
    """A move token at the current head for a seat (the awaited one by default)."""
    return svc_of(app).signer.move_token(grant(app, public_id, seat))


def legal(app: Any, public_id: str, seat: int | None = None) -> tuple[str, ...]:
    """The legal actions of a seat (the awaited one by default)."""
    game = loaded(app, public_id)
    seat = awaited(app, public_id) if seat is None else seat
    return game.rules.legal(game.state, seat)


def illegal(app: Any, public_id: str) -> str:
    """A well-formed turn that the awaited seat may not play now."""
    options = set(legal(app, public_id))
    for text in ("a1-a2 b1-b2", "a1-a3 b1-b3", "a8-a7 b8-b7", "a1-a2 a2-a3"):
        if text not in options:
            return text
    raise AssertionError("every candidate is legal")


def move(app: Any, public_id: str, action: str | None = None) -> Submitted:
    """Play the awaited seat's first legal action (or the given one) through submit()."""
    svc = svc_of(app)
    g = grant(app, public_id)
    text = action or legal(app, public_id)[0]
    return svc.write(lambda s: submit(s, svc.ctx, g, text))


def play_until_over(
    app: Any, public_id: str, choose: Callable[[Loaded, int], str | None]
) -> None:
    """Play the first awaited seat's choice (None: it resigns) until the game is over."""
    svc = svc_of(app)
    while True:
        with svc.db.read() as s:
            game = load(s, public_id)
            if game.game.status != "active":
                return
            seat = game.awaited()[0]
            seat_grant, action = game.grant(seat), choose(game, seat)
        if action is None:
            svc.write(lambda s, g=seat_grant: resign(s, svc.ctx, g))
        else:
            svc.write(lambda s, g=seat_grant, a=action: submit(s, svc.ctx, g, a))


def resign_until_over(app: Any, public_id: str) -> None:
    """Resign an awaited seat after another until the game is over."""
    play_until_over(app, public_id, lambda game, seat: None)


def log(app: Any, public_id: str) -> list[store.LogEntry]:
    """Every event of a game, in order."""
    with svc_of(app).db.read() as s:
        game = s.scalars(select(Game).where(Game.public_id == public_id)).one()
        return store.entries(s, game)


def game_row(app: Any, public_id: str) -> Game:
    """The game's row."""
    with svc_of(app).db.read() as s:
        return s.scalars(select(Game).where(Game.public_id == public_id)).one()


def outbox(app: Any, **where: Any) -> list[Outbox]:
    """Outbox rows in id order, filtered by column values."""
    with svc_of(app).db.read() as s:
        query = select(Outbox).filter_by(**where).order_by(Outbox.id)
        return list(s.scalars(query))


def counts(app: Any) -> dict[str, Any]:
    """What a request that changes nothing must leave alone."""
    with svc_of(app).db.read() as s:
        games = s.scalars(select(Game).order_by(Game.id)).all()
        return {
            "events": s.scalar(select(func.count()).select_from(Event)),
            "outbox": s.scalar(select(func.count()).select_from(Outbox)),
            "snapshots": s.scalar(select(func.count()).select_from(Snapshot)),
            "heads": [(g.public_id, g.head_seq, g.head_hash, g.status) for g in games],
            "updated": [g.updated_at for g in games],
        }


def csrf_in(page: str) -> str:
    """The CSRF token of the first form on a page."""
    found = CSRF_INPUT.search(page)
    assert found, "the page has no csrf field"
    return html.unescape(found[1])


def csrf(client: Any, **kw: Any) -> str:
    """This client's CSRF token (read from the sign-in form)."""
    return csrf_in(client.get("/signin", **kw).get_data(as_text=True))


def path_of(link: str) -> str:
    """The path of a link the server built; it must start with the configured base URL."""
    assert link.startswith(BASE + "/"), link
    return link.removeprefix(BASE)


def link_in(text: str, what: str) -> str:
    """The first link in a mail body whose path starts with /<what>/."""
    found = re.search(rf"https?://\S+?/{what}/\S+", text)
    assert found, f"no /{what}/ link in the mail"
    return found[0]


def sign_in(app: Any, client: Any, email: str) -> None:
    """Sign a client in the way a person does: ask for a link, open it, press the button."""
    token = csrf(client)
    response = client.post("/signin", data={"email": email, "csrf": token})
    assert response.status_code == 200
    mail = outbox(app, purpose="signin", to_addr=email)[-1]
    path = path_of(link_in(mail.body_text, "signin"))
    page = client.get(path)
    assert page.status_code == 200
    signed = client.post(path, data={"csrf": csrf_in(page.get_data(as_text=True))})
    assert signed.status_code == 303


def answer_every_reply(app: Any) -> None:
    """Every player asks for an answer to each reply (the default answers only when needed)."""
    with svc_of(app).db.write() as s:
        for player in s.scalars(select(Player)):
            player.reply_answers = "every"


THREE = (("ann@example.org", "Ann"), ("bob@example.org", "Bob"), ("cy@example.org", "Cy"))


def forfeit_one(app: Any) -> tuple[str, int]:
    """A three-seat Martian Dice game whose first awaited seat timed out and forfeited (the
    two others play on): its id and that seat."""
    svc = svc_of(app)
    public_id = svc.write(lambda s: start_game(
        s, svc.ctx, "martian-dice", list(THREE), deadline_hours=10, timeout_policy="forfeit",
    ).game.public_id)
    (seat,) = loaded(app, public_id).awaited()
    since = clock.as_utc(game_row(app, public_id).await_since)
    deadlines.tick(svc.write, svc.ctx, [public_id], since + timedelta(hours=11))
    return public_id, seat
