"""CPU per request of pages at a small and a large size of what they do not show.

Usage: python bench/bench_pages.py [--quick] [--repeat N] [--only NAME] [--dir PATH]

Each subject is built at two sizes on a scratch SQLite file (so the database's work is done
in this thread and counted), then each of its pages is fetched through the app's test client
and timed by this thread's CPU clock (`time.thread_time`), which a busy machine disturbs
far less than the wall clock:

- first: the first request of a fresh app, the process's caches of states emptied, as a
  server just started would answer it;
- each: the median of --repeat requests after it, the two sizes alternated.

Printed per page: both figures at both sizes, the growth exponent between the sizes (log
of the ratio of the figures over log of the ratio of the sizes: 0 is flat, 1 grows as fast
as the size), and whether the targets are met: under 100 ms at the large size, first and
each; an exponent of at most 0.3 (each) for a page that shows a fixed number of rows.

Subjects:

- game: Martian Frisby games of 100 and 2,000 events (random moves that do not win, as
  bench_rebuild plays them), one still played and one that a resignation ended: the game
  page, the history at the head and at events spread over the game, the API's game and
  luck, and three answers that read every event and may grow with them: the audit page
  (which checks the whole chain at every request), the API's log and the log.jsonl export.
  `--quick`: 100 and 500 events.
- dice: /audit/dice and its JSON over 100 and 2,000 finished Martian Dice games (one game
  played by the house bot, its rows copied and counted as a reveal counts them).
  `--quick`: 20 and 200 games.
- tournament: a two-player Swiss of 64 and 1,000 players, four rounds played and a fifth
  half played (real games; random pairings, results logged without playing): the home
  page, the first pages of the standings, the crosstable and the games, a player's card,
  and the API's event with every player's standing (which may grow with them). The fold
  the server stores every FOLD_EVERY events is stored as it would have been (the log is
  built past the service), so a fresh app loads it and folds on the events after it.
  `--quick`: 16 and 64 players.
"""

from __future__ import annotations

import gc
import math
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from sqlalchemy import select
from sqlalchemy.orm import Session

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_luck import copy_game, finished_game  # noqa: E402
from bench.bench_rebuild import build  # noqa: E402
from bench.bench_submit import services_on  # noqa: E402
from pbem.links import MoveGrant  # noqa: E402
from pbem.log import snapshots  # noqa: E402
from pbem.log.chain import now_text  # noqa: E402
from pbem.models import Game, Tournament  # noqa: E402
from pbem.play.act import resign  # noqa: E402
from pbem.play.start import player_for, start_game  # noqa: E402
from pbem.services import Services  # noqa: E402
from pbem.tournaments import log, service  # noqa: E402
from pbem.tournaments.core.fold import fold  # noqa: E402
from pbem.tournaments.log import load as load_tournament  # noqa: E402
from pbem.web.app import create_app  # noqa: E402

Pages = dict[str, str]  # a page's label -> its URL
EVERY = ", every event"  # ends the label of an answer that reads all there is: it may grow
EVERY_PLAYER = ", every player"  # the same, for an answer that lists every player


@dataclass(frozen=True)
class Subject:
    """Pages measured at two sizes of one thing (events of a game, finished games, players)."""

    name: str
    unit: str
    sizes: tuple[int, int]
    quick_sizes: tuple[int, int]
    build: Callable[[Services, int], Pages]


def game_pages(svc: Services, events: int) -> Pages:
    """A game of that many events still played, and one ended by a resignation: their pages."""
    played, ended = (public_id(svc, g) for g in build(svc, (events, events + 1), events).values())
    with svc.db.read() as session:
        game = session.scalars(select(Game).where(Game.public_id == ended)).one()
        seat = next(iter(game.seats)).seat
        grant = MoveGrant(ended, seat, game.head_seq)
    svc.write(lambda s: resign(s, svc.ctx, grant))
    spread = random.Random(events)
    pages = {
        "game page, played": f"/games/{played}",
        "game page, ended": f"/games/{ended}",
        "history at the head": f"/games/{played}/history",
        "history, ended game, at the head": f"/games/{ended}/history",
        f"audit page (chain checked){EVERY}": f"/games/{ended}/audit",
        "API game": f"/api/games/{played}",
        f"API log{EVERY}": f"/api/games/{played}/log",
        f"log.jsonl{EVERY}": f"/games/{ended}/log.jsonl",
        "API luck, ended game": f"/api/games/{ended}/luck",
    }
    for n in range(3):
        pages[f"history at an event ({n + 1} of 3)"] = (
            f"/games/{played}/history/{spread.randrange(events)}"
        )
    return pages


def public_id(svc: Services, game_id: int) -> str:
    """A game's public id from its row id."""
    with svc.db.read() as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game.public_id


def dice_pages(svc: Services, games: int) -> Pages:
    """That many finished and revealed games (one played, the rest its copies): the audit."""
    copy_game(svc, finished_game(svc), games - 1)
    return {"/audit/dice": "/audit/dice", "API /api/audit/dice": "/api/audit/dice"}


ROUNDS = 5  # rounds of the benchmark's Swiss event, whatever its size


def tournament_pages(svc: Services, players: int) -> Pages:
    """A two-player Swiss of that many players, four rounds played and a fifth half played.

    Its games are real games (started as the service starts them, so the pages can load
    them); its pairings are random and its results are logged without playing the games
    (the pages read the results from the tournament's log). Built past the service's
    checks of the number of entrants, as an event made before those limits would be.
    """
    rng = random.Random(players)

    def setup(session: Session) -> tuple[str, list[str]]:
        director = player_for(session, "dee@bench.example")
        held = service.create(session, director, {
            "name": f"Bench open {players:,}", "system": "swiss", "kind": "martian-frisby",
            "rounds": ROUNDS, "deadline_hours": 72, "timeout_policy": "forfeit",
            "rated": False})
        entrants = []
        for n in range(players):
            player = player_for(session, f"p{n}@bench.example")
            player.name = f"Player {n + 1:04d}"
            entrants.append(str(player.id))
            log.append(session, held.row, "register",
                       {"player": str(player.id), "name": player.name, "rating": None})
        log.append(session, held.row, "start", {"entrants": entrants})
        held.row.status = "running"
        return held.public_id, entrants

    public_id, entrants = svc.write(setup)
    emails = {p: f"p{int(p) - int(entrants[0])}@bench.example" for p in entrants}
    for round_ in range(1, ROUNDS + 1):
        field = list(entrants)
        rng.shuffle(field)

        def pair(session: Session, field: list[str] = field, round_: int = round_) -> None:
            row = session.scalars(select(Tournament).where(Tournament.public_id == public_id)).one()
            tables = []
            for a, b in zip(field[0::2], field[1::2], strict=False):
                game = start_game(session, svc.ctx, "martian-frisby",
                                  [(emails[a], None), (emails[b], None)],
                                  deadline_hours=72, timeout_policy="forfeit",
                                  tournament_id=row.id)
                tables.append({"game": game.game.public_id, "seats": [a, b]})
            byes = [{"player": field[-1], "points": 1}] if len(field) % 2 else []
            log.append(session, row, "pair", {"round": round_, "tables": tables, "byes": byes,
                                              "away": [], "inputs": "0" * 64,
                                              "algorithm": "bench/1"})
            done = tables if round_ < ROUNDS else tables[: len(tables) // 2]
            for table in done:
                ranks = rng.choice([[1, 2], [2, 1], [1, 1]])
                log.append(session, row, "result", {
                    "game": table["game"], "ranks": ranks, "scores": None, "flags": [],
                    "finished_at": now_text(), "head": "ab" * 32})

        svc.write(pair)

    def stored(session: Session) -> None:
        # The server stores the fold when the log reaches a multiple of FOLD_EVERY events (in
        # the transaction appending it); the log built here went round that, so store the
        # one the server would have left: a fresh process folds on the events after it.
        row = session.scalars(select(Tournament).where(Tournament.public_id == public_id)).one()
        events = log.entries(session, row)
        last = row.head_seq - row.head_seq % log.FOLD_EVERY
        log.store(session, row.id, events[last].hash, fold(log.core_events(events[: last + 1])))

    svc.write(stored)
    with svc.db.read() as session:
        held = load_tournament(session, public_id)  # folds the whole log: it must be sound
        player = held.standings[len(entrants) // 2].player
    base = f"/tournaments/{public_id}"
    return {
        "tournament home": base,
        "standings, first page": f"{base}/standings",
        "crosstable, first page": f"{base}/crosstable",
        "pairings (games), first page": f"{base}/games",
        "a player's card": f"{base}/players/{player}",
        f"API standings{EVERY_PLAYER}": f"/api/tournaments/{public_id}",
    }


SUBJECTS = (
    Subject("game", "events", (100, 2_000), (100, 500), game_pages),
    Subject("dice", "finished games", (100, 2_000), (20, 200), dice_pages),
    Subject("tournament", "players", (64, 1_000), (16, 64), tournament_pages),
)
TARGET_MS = 100.0
TARGET_EXPONENT = 0.3


class Compiled(BytecodeCache):
    """Compiled templates kept in memory, shared by the apps made here.

    A server compiles its templates once, whatever the size of the data: a fresh app
    that compiled them again would hide what its first request pays for the data.
    """

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Fill the bucket with what was compiled before, if anything."""
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep what was just compiled."""
        self.kept[bucket.key] = bucket.bytecode_to_string()


COMPILED = Compiled()


def fresh_app(svc: Services) -> Any:
    """A new app on the same database, as a server just started."""
    snapshots.HeadCache.clear_every()
    app = create_app({"SETTINGS": svc.settings})
    app.jinja_env.bytecode_cache = COMPILED
    return app


def first_cpu(svc: Services, url: str) -> float:
    """This thread's CPU seconds for a fresh app's first request."""
    app = fresh_app(svc)
    try:
        return cpu_of(app.test_client(), url)
    finally:
        app.extensions["pbem"].db.dispose()


def cpu_of(client: Any, url: str) -> float:
    """This thread's CPU seconds for one request (which must succeed).

    Python's collection of reference cycles is held off while the request runs, and runs
    between requests: its cost follows the whole process's heap (here the benchmark's
    own, dozens of apps), not the page.
    """
    gc.disable()
    try:
        started = time.thread_time()
        answer = client.get(url)
        spent = time.thread_time() - started
    finally:
        gc.enable()
    if answer.status_code != 200:
        raise SystemExit(f"GET {url}: {answer.status_code}\n{answer.get_data(as_text=True)}")
    return spent


def measure(
    subject: Subject, sizes: tuple[int, int], repeat: int, firsts: int, folder: Path
) -> None:
    """Build the subject at both sizes and print its pages' figures."""
    built = []
    for size in sizes:
        svc = services_on(folder / f"{subject.name}-{size}")
        built.append((svc, subject.build(svc, size)))
    warm = fresh_app(built[0][0])  # the imports and the compiled templates of a running server
    for url in built[0][1].values():
        cpu_of(warm.test_client(), url)
    warm.extensions["pbem"].db.dispose()
    first: list[dict[str, list[float]]] = [{label: [] for label in pages} for _, pages in built]
    for _ in range(firsts):
        for label in built[0][1]:
            for n, (svc, pages) in enumerate(built):
                first[n][label].append(first_cpu(svc, pages[label]))
    apps = [fresh_app(svc) for svc, _ in built]
    clients = [app.test_client() for app in apps]
    for client, (_, pages) in zip(clients, built, strict=True):  # each: once the first is done
        for url in pages.values():
            cpu_of(client, url)
    each: list[dict[str, list[float]]] = [{label: [] for label in pages} for _, pages in built]
    for _ in range(repeat):
        for n, (_, pages) in enumerate(built):
            for label, url in pages.items():
                each[n][label].append(cpu_of(clients[n], url))
    small, large = sizes
    click.echo(f"\n{subject.name}: {small:,} and {large:,} {subject.unit}, CPU ms per request"
               f" (first: the median of {firsts} fresh apps; each: of {repeat} requests after)")
    click.echo(f"  {'page':<40} {'first':>15} {'exp':>5}   {'each':>15} {'exp':>5}  targets")
    for label in built[0][1]:
        a, b = (statistics.median(f[label]) for f in first)
        c, d = (statistics.median(e[label]) for e in each)
        met = max(b, d) * 1e3 < TARGET_MS
        if not label.endswith((EVERY, EVERY_PLAYER)):
            met = met and exponent(c, d, sizes) <= TARGET_EXPONENT
        click.echo(
            f"  {label:<40} {a * 1e3:6.1f} {b * 1e3:8.1f} {exponent(a, b, sizes):5.2f}"
            f"   {c * 1e3:6.1f} {d * 1e3:8.1f} {exponent(c, d, sizes):5.2f}"
            f"  {'met' if met else 'NOT MET'}"
        )
    for app, (svc, _) in zip(apps, built, strict=True):
        app.extensions["pbem"].db.dispose()
        svc.db.dispose()


def exponent(small: float, large: float, sizes: tuple[int, int]) -> float:
    """The growth exponent k in time ~ size ** k between the two sizes."""
    return math.log(large / small) / math.log(sizes[1] / sizes[0])


@click.command()
@click.option("--quick", is_flag=True, help="Smaller sizes and 3 repeats: seconds, not minutes.")
@click.option("--repeat", type=int, help="Requests per page after the first (default 15).")
@click.option("--only", type=click.Choice([s.name for s in SUBJECTS]), multiple=True,
              help="Measure only these subjects.")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path),
              help="Where the databases go (default: a temporary directory).")
def main(quick: bool, repeat: int | None, only: tuple[str, ...], folder: Path | None) -> None:
    """Print the CPU per request of each subject's pages at both its sizes."""
    repeat = repeat or (3 if quick else 15)
    firsts = min(repeat, 3 if quick else 5)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-", dir=folder) as tmp:
        for subject in SUBJECTS:
            if not only or subject.name in only:
                sizes = subject.quick_sizes if quick else subject.sizes
                measure(subject, sizes, repeat, firsts, Path(tmp))


if __name__ == "__main__":
    main()
