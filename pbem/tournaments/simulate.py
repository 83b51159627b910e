"""A whole tournament played by the house bots through the service layer, for tests and demos.

Nothing is done around the server: the event is created, entered and started by the
service, every move is a submission with a move grant, and results and pairings follow
from the games' ends exactly as they do for people. Simulated players get no mail.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from engine.testing import with_limits

from .. import clock
from ..errors import PbemError
from ..links import MoveGrant
from ..log.games import load
from ..models import Game
from ..play.act import submit
from ..play.start import player_for
from ..services import Services
from . import reports, service
from .core import fairness, formats
from .log import Held
from .log import load as load_tournament

MOVES_PER_GAME = 20_000  # a bound, far above any real game: a stuck game is a bug


@dataclass
class Report:
    """What a simulation did: the event, its standings and how fairly it was paired."""

    public_id: str
    lines_of_standings: list[str]
    figures: fairness.Fairness
    games: int
    moves: int
    seconds: float
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report as text."""
        f = self.figures
        return [
            *self.lines_of_standings,
            "",
            f"{self.games} games, {self.moves} moves in {self.seconds:.1f} s",
            f"fairness: {f.rematch_games} rematches ({f.rematch_rate:.0%} of pairings), "
            f"score spread at tables "
            f"{f.mean_spread:.2f} on average ({f.largest_spread:.2f} at most), "
            f"seat imbalance {f.seat_imbalance}, byes {sum(n for _, n in f.byes)}",
            *self.notes,
        ]


def enter_players(session: Session, held: Held, count: int, prefix: str) -> Held:
    """Register `count` simulated players, who want no mail."""
    for number in range(1, count + 1):
        player = player_for(session, f"{prefix}-{number:03d}@sim.invalid", f"Sim {number:03d}")
        player.mail_pref = "none"
        held = service.register(session, held, player)
    return held


def open_games(svc: Services, public_id: str) -> list[str]:
    """The tournament's games still being played."""
    with svc.db.read() as session:
        held = load_tournament(session, public_id)
        query = select(Game.public_id).where(
            Game.tournament_id == held.row.id, Game.status == "active"
        ).order_by(Game.id)
        return list(session.scalars(query))


def play_out(svc: Services, public_id: str) -> int:
    """Play one game to its end with the house bot for every seat; return the moves made."""
    for moves in range(MOVES_PER_GAME):
        with svc.db.read() as session:
            loaded = load(session, public_id)
            awaited = loaded.awaited()
            if loaded.game.status != "active" or not awaited:
                return moves
            grant = loaded.grant(awaited[0])
            action = loaded.rules.bot_action(loaded.state, awaited[0])

        def move(s: Session, grant: MoveGrant = grant, action: str = action) -> None:
            submit(s, svc.ctx, grant, action)

        svc.write(move)
    raise PbemError(f"game {public_id} did not end within {MOVES_PER_GAME} moves")


Progress = Callable[..., AbstractContextManager[Any]]


def run(
    svc: Services,
    system: str,
    kind: str,
    players: int,
    table_sizes: list[int] | None,
    seed: int,
    settings: dict[str, Any],
    progress: Progress | None = None,
) -> Report:
    """Create, fill, start and play out a tournament; return its report."""
    started = time.perf_counter()
    prefix = f"sim{seed}-{system}-{kind}"
    fields = {"name": f"Simulated {system} of {kind} ({players} players)", "system": system,
              "kind": kind, "table_sizes": table_sizes, "timeout_policy": "bot", **settings}
    # Bots need not end a game under a rulebook alone: simulated games set the optional limits.
    limited = with_limits(engine.rules_for(kind), fields.get("options"))
    if limited != (fields.get("options") or {}):
        fields["options"] = limited

    def setup(session: Session) -> str:
        director = player_for(session, f"{prefix}-director@sim.invalid", "Sim director")
        director.mail_pref = "none"
        held = service.create(session, director, fields)
        held = enter_players(session, held, players, prefix)
        return service.start(session, svc.ctx, held, clock.utcnow()).public_id

    public_id = svc.write(setup)
    played, moves = 0, 0
    bar = progress(length=expected_games(svc, public_id), label="games") if progress else None
    with bar if bar is not None else nullcontext() as shown:
        for game in games_until_done(svc, public_id):
            moves += play_out(svc, game)
            played += 1
            if shown is not None:
                shown.update(1)
    with svc.db.read() as session:
        held = load_tournament(session, public_id)
        lines = reports.standings_lines(held)
        figures = fairness.fairness(held.state)
    return Report(public_id, lines, figures, played, moves, time.perf_counter() - started)


def games_until_done(svc: Services, public_id: str) -> Iterator[str]:
    """Each game to play, as pairings make them, until the event closes."""
    while True:
        waiting = open_games(svc, public_id)
        if not waiting:
            # Nothing in play: a tick pairs what the clock allows, or the event is over.
            held = svc.write(lambda s: service.tick(s, svc.ctx, load_tournament(
                s, public_id, for_update=True), clock.utcnow()))
            if held.state.closed or not open_games(svc, public_id):
                return
            continue
        yield from waiting


def expected_games(svc: Services, public_id: str) -> int:
    """About how many games the event will have, for the progress bar."""
    with svc.db.read() as session:
        t = load_tournament(session, public_id).state
    return formats.format_of(t).expected_games(t)
