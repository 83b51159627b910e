"""Martian Race move generation and replay, against python-chess in the same run.

Usage: python bench/bench_race.py [--quick] [--seed N]

1. Replay: a long recorded 4-player Martian Race game (random legal play with the stall
   guard widened, so that it lasts) is replayed with engine.replay, which checks every
   action as the server does. The baseline is python-chess replaying a long random game
   from its SAN moves with Board.push_san, which also parses and checks each move.
   Printed: actions per second of each and the ratio (target >= 1).
2. legal(): the busiest positions met in that game (most legal actions), each timed,
   against python-chess generating the legal moves of a busy middlegame position.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import click

import engine
from engine.testing import chance_event

try:
    import chess
except ImportError:  # pragma: no cover - a helpful message beats a traceback
    sys.exit("python-chess is needed: pip install -e '.[bench]'")

# A position with many legal moves (Kiwipete, the perft test position: 48 moves).
BUSY_CHESS = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def record_race(seed: int, options: dict[str, Any]) -> tuple[list[engine.Event], list[Any]]:
    """Play a 4-player game with random legal actions; keep its events and busy states."""
    rules = engine.rules_for("martian-race")
    rng = random.Random(seed)
    state = rules.start(4, options)
    events: list[engine.Event] = []
    busiest: list[tuple[int, int, Any]] = []
    with click.progressbar(
        length=int(options["max_turns"]), label="recording a race", file=sys.stderr
    ) as bar:
        turns = 0
        while not isinstance(pending := rules.pending(state), engine.Finished):
            if isinstance(pending, engine.Await):
                (seat,) = pending.seats
                actions = rules.legal(state, seat)
                busiest.append((len(actions), len(events), state))
                busiest = sorted(busiest, key=lambda b: -b[0])[:3]
                event: engine.Event = engine.Played(seat, actions[rng.randrange(len(actions))])
            else:
                event = chance_event(rng, pending)
            state = engine.step(rules, state, event)
            events.append(event)
            now = rules.view(state, None)["turns"]
            bar.update(now - turns)
            turns = now
    return events, [(n, s) for n, _, s in busiest]


def record_chess(seed: int, plies: int) -> list[str]:
    """SAN moves of a random legal chess game (restarted at each game end)."""
    rng = random.Random(seed)
    board = chess.Board()
    sans: list[str] = []
    while len(sans) < plies:
        moves = list(board.legal_moves)
        if not moves or board.is_game_over(claim_draw=False):
            board = chess.Board()
            sans.append("")  # marks a new game
            continue
        move = moves[rng.randrange(len(moves))]
        sans.append(board.san(move))
        board.push(move)
    return sans


def replay_chess(sans: list[str]) -> None:
    """Replay SAN moves as a client would: parse and check each one."""
    board = chess.Board()
    for san in sans:
        if not san:
            board = chess.Board()
        else:
            board.push_san(san)


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """The fastest of several timed runs, in seconds (the least disturbed by other jobs)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a shorter game, fewer repeats")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    rules = engine.rules_for("martian-race")
    options = rules.resolve_options(
        {"max_turns": 400 if args.quick else 1200, "stall_rounds": 10_000}
    )

    events, busiest = record_race(args.seed, options)
    actions = sum(isinstance(e, engine.Played) for e in events)
    race_s = best_of(repeat, lambda: engine.replay(rules, 4, options, events))
    sans = record_chess(args.seed, plies=max(actions, 500))
    chess_moves = sum(1 for s in sans if s)
    chess_s = best_of(repeat, lambda: replay_chess(sans))

    race_rate = actions / race_s
    chess_rate = chess_moves / chess_s
    print(f"python {sys.version.split()[0]}, python-chess {chess.__version__}")
    print(f"{'Martian Race replay':44} {len(events)} events, {actions} actions, 4 players")
    print(f"{'  actions/s (engine.replay, every step checked)':44} {race_rate:,.0f}")
    print(f"{'  chess moves/s (Board.push_san)':44} {chess_rate:,.0f}")
    verdict = "OK" if race_rate >= chess_rate else "BELOW TARGET"
    print(f"{'  ratio (target >= 1)':44} {race_rate / chess_rate:.2f} {verdict}")

    board = chess.Board(BUSY_CHESS)
    chess_legal = best_of(repeat, lambda: [list(board.legal_moves) for _ in range(200)]) / 200
    print(f"{'legal() on the busiest positions met':44} actions  ms/call  calls/s")
    timings = []
    for count, state in busiest:
        seat = rules.pending(state).seats[0]
        each = best_of(repeat, lambda s=state, t=seat: rules.legal(s, t))
        timings.append(each)
        print(f"{'':44} {count:7}  {each * 1000:7.2f}  {1 / each:7,.0f}")
    print(f"{'  chess legal moves, Kiwipete (48 moves)':44} {'':7}  {chess_legal * 1000:7.3f}")
    ratio = statistics.median(timings) / chess_legal
    print(f"{'  median busy legal() / chess legal moves':44} {ratio:.0f}x the time")


if __name__ == "__main__":
    main()
