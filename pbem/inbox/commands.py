"""Mail commands, the classic play-by-mail interface: read what a player asks, answer it.

Commands that only read are answered at once. Commands that change anything are listed
in the answer and done only when the player replies to it (the answer goes to their
registered address, so a forged From changes nothing): see `confirm`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.figures import counted

from .. import present
from ..errors import PbemError
from ..log.games import games_of, load
from ..mail.compose import templates
from ..mail.inbound import QUOTE_INTRO
from ..models import Player
from ..tournaments import log as tournament_log

MAX_COMMANDS = 20  # lines read from one mail; the rest are counted and said to be ignored
MAX_LINE = 200


@dataclass(frozen=True)
class Command:
    """One command: its word, how it is written, what it does, and whether it changes things."""

    word: str
    usage: str
    text: str
    changes: bool


COMMANDS = (
    Command("help", "help", "this list of commands", False),
    Command("games", "games", "your games, and which wait for your move", False),
    Command("status", "status GAME", "a game's position and whom it waits for", False),
    Command("standings", "standings EVENT", "an event's standings", False),
    Command("join", "join EVENT", "enter an event that takes entries", True),
    Command(
        "vacation", "vacation N days", "away from today for N days (1 to 30); vacation off ends it",
        True,
    ),
    Command(
        "digest", "digest daily", "one mail a day listing your turns, instead of a mail a turn",
        True,
    ),
    Command("digest", "digest off", "back to a mail for every turn", True),
    Command("resign", "resign GAME", "resign your seat in a game", True),
)
WORDS = {c.word: c for c in COMMANDS}


def help_text() -> str:
    """The list of commands, as `help` answers and docs/playing.md shows it."""
    width = max(len(c.usage) for c in COMMANDS)
    return "\n".join(f"  {c.usage:<{width}}  {c.text}" for c in COMMANDS)


def command_lines(body: str) -> tuple[list[str], int]:
    """The command lines of a mail (unquoted, above any signature), and how many more
    lines beyond MAX_COMMANDS were left unread."""
    found: list[str] = []
    extra = 0
    for raw in body.replace("\r\n", "\n").split("\n"):
        line = raw.strip()
        if line.startswith(">") or QUOTE_INTRO.match(line) or line in ("--", "-- ", "end"):
            break
        if not line:
            continue
        if len(found) == MAX_COMMANDS:
            extra += 1
            continue
        found.append(" ".join(line.split())[:MAX_LINE])
    return found, extra


def split(line: str) -> tuple[Command | None, list[str]]:
    """A line's command and its arguments (None for an unknown word)."""
    words = re.split(r"\s+", line.strip())
    return WORDS.get(words[0].lower().rstrip(":")), words[1:]


def read_only(session: Session, player: Player, command: Command, args: list[str]) -> str:
    """Answer a command that changes nothing; PbemError when it cannot be answered."""
    if command.word == "help":
        return "The commands:\n" + help_text()
    if command.word == "games":
        return your_games(session, player)
    if command.word == "status":
        return game_status(session, player, one_arg(command, args))
    return event_standings(session, one_arg(command, args))


def one_arg(command: Command, args: list[str]) -> str:
    """The one argument a command takes."""
    if len(args) != 1:
        raise PbemError(f"write it as: {command.usage}")
    return args[0].lower()


def your_games(session: Session, player: Player) -> str:
    """The player's active games, each with whom it waits for."""
    lines = []
    for game in games_of(session, player):
        if game.status != "active":
            continue
        loaded = load(session, game.public_id)
        mine = [s for s in loaded.awaited() if loaded.game.seats[s].player_id == player.id]
        waits = "waits for your move" if mine else "waits for another player"
        lines.append(f"  {loaded.rules.title} game {game.public_id}: {waits}")
    return "Your active games:\n" + "\n".join(lines) if lines else "You have no active game."


def game_status(session: Session, player: Player, public_id: str) -> str:
    """A game's position as text, and whom it waits for."""
    loaded = load(session, public_id)
    seats = [s.seat for s in loaded.game.seats if s.player_id == player.id]
    pos = present.of_game(loaded, seats[0] if seats else None)
    board = templates.get_template(f"games/{loaded.game.kind}/board.txt").render(
        view=pos["view"], pos=pos
    )
    return (
        f"{loaded.rules.title} game {public_id} ({loaded.game.status}), "
        f"after event {loaded.game.head_seq}:\n{board.rstrip()}\n{pos['awaited_text']}"
    )


def event_standings(session: Session, public_id: str) -> str:
    """An event's standings: place, name, points."""
    held = tournament_log.load(session, public_id)
    rows = held.standings
    lines = [f"  {r.place:>3}. {r.name}  {counted(r.points, 'point')} "
             f"({counted(r.games, 'game')})" for r in rows]
    return f"Standings of {held.row.name}:\n" + ("\n".join(lines) or "  nobody has played yet")


def known_sender(session: Session, sender: str) -> Player | None:
    """The player a mail comes from, if the address is registered."""
    if not sender:
        return None
    return session.scalars(select(Player).where(Player.email == sender)).first()
