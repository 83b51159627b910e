"""Random Martian Race and Mad Dog games, and everything the rules answer at each step.

A change meant only to make the movement engine faster must leave every answer as it was.
Each step's picture holds the snapshot, every view, what the game waits for, `legal()`,
the house bot's pick, a menu walked stage by stage, `parse_action` and `annotate`, and the
outcome (the state reached, or the error and its message) of probe events: legal actions,
mutations of them, and illegal ones. The pictures' digests are stored in
mars_equivalence.json; record them again only with code whose behaviour is known good:

    python -m tests.engine.mars_equivalence            # check, naming the first difference
    python -m tests.engine.mars_equivalence --record   # write the digests anew
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from engine import Await, Finished, Played, Resigned, Roll, Rolled
from engine.testing import chance_event

DIGESTS = Path(__file__).with_name("mars_equivalence.json")
STEPS = "FFFUNESW"


@dataclass(frozen=True)
class Game:
    """One recorded game: the rules, seats and options, and how the seats play."""

    name: str
    kind: str
    seats: int
    options: dict[str, Any]
    seed: int
    # The digests were recorded under rules version 3, the newest then; version 4 differs
    # only where a push ends on the Dog (and its snapshots name that switch), which the
    # golden corpus covers. Games without a version of their own are played under 3.
    version: int = 3
    bot_share: float = 0.5  # how often a seat plays the house bot's pick
    resign_share: float = 0.0  # how often a seat resigns instead of acting
    extra: dict[str, Any] = field(default_factory=dict)


SHORT = {"stall_rounds": 12, "max_turns": 250}
LONG = {"stall_rounds": 10_000, "max_turns": 500}
RACE_VARIANTS: list[dict[str, Any]] = [
    {"push_formula": "MD"},
    {"block_partial_min": 1, "block_total_min": 2},
    {"block_partial_min": 2, "block_total_min": 2},
    {"step_usage": "exact"},
    {"step_usage": "exact", "bg_larger_die": True},
    {"bg_larger_die": True},
    {"turn_step": "quarter"},
    {"goal_gates": False},
    {"one_per_colour": "resting"},
    {"growth_on_push_arrival": False},
    {"mad_dog_phase": True, "dog_reduce_by": 3},
    {"mad_dog_phase": True, "dog_phase_round_limit": 4},
]
DOG_VARIANTS: list[dict[str, Any]] = [
    {"step_usage": "up_to_die"},
    {"push_formula": "MR"},
    {"block_partial_min": 2, "block_total_min": 3},
]


def games() -> Iterator[Game]:
    """Every recorded game: each preset at each seat count, option variants, resignations."""
    seed = 0
    for kind in ("martian-race", "mad-dog"):
        rules = engine.rules_for(kind)
        for seats in rules.seats:
            for preset in [None, *rules.presets]:
                seed += 1
                options = {**(rules.presets[preset] if preset else {}), **SHORT}
                yield Game(f"{kind}-{preset or 'default'}-{seats}", kind, seats, options, seed)
        variants = RACE_VARIANTS if kind == "martian-race" else DOG_VARIANTS
        for n, variant in enumerate(variants):
            seed += 1
            seats = rules.seats[n % len(rules.seats)]
            yield Game(f"{kind}-variant{n}-{seats}", kind, seats, {**SHORT, **variant}, seed)
        for version in (1, 2):
            seed += 1
            yield Game(f"{kind}-v{version}", kind, 3, dict(SHORT), seed, version=version)
        for seats in (rules.seats[0], rules.seats[-1]):
            seed += 1
            yield Game(f"{kind}-resign-{seats}", kind, seats, dict(SHORT), seed, resign_share=0.01)
        # Long games reach busy positions, and with bots the Mad Dog phase.
        seed += 1
        yield Game(f"{kind}-long-4", kind, 4, dict(LONG), seed, bot_share=0.2)
        for seats in (2, 3):
            seed += 1
            options = {**LONG, "max_turns": 700}
            if kind == "martian-race":
                options["mad_dog_phase"] = True
            yield Game(f"{kind}-dog-{seats}", kind, seats, options, seed, bot_share=0.9)


def outcome(rules: engine.Rules[Any], state: Any, event: engine.Event) -> Any:
    """What an event leads to: the state's snapshot and pending, or the error it raises."""
    try:
        after = engine.step(rules, state, event)
    except Exception as e:  # every error counts, not only the rules' own
        return ["error", type(e).__name__, str(e)]
    return [rules.dump(after), repr(rules.pending(after))]


def answer(call: Any) -> Any:
    """A call's result, or the error it raises."""
    try:
        return repr(call())
    except Exception as e:
        return ["error", type(e).__name__, str(e)]


def mutations(rng: random.Random, action: str, dice: tuple[int, ...]) -> list[str]:
    """Actions near a legal one: another die, a changed step, a dropped or altered push."""
    out = []
    head, sep, body = action.partition(": ")
    if sep:
        for die in {*dice, rng.randint(1, 6)}:
            out.append(f"{die}: {body}")
        out.append(body)
    parts = action.split(" x ")
    move, clauses = parts[0], parts[1:]
    if move and not move.startswith("x "):
        spot = rng.randrange(len(move))
        if move[spot] in STEPS:
            out.append(move[:spot] + rng.choice(STEPS) + move[spot + 1 :])
        out.append(move + " " + rng.choice(["F", "U", "N", "E", "F2"]))
        words = move.split(" ")
        if len(words) > 2:
            out.append(" ".join(words[:-1]))
    if clauses:
        out.append(move)
        last = clauses[-1]
        out.append(" x ".join([move, *clauses[:-1], last[:-1]]))
        out.append(" x ".join([move, *clauses[:-1], last + rng.choice("NESW")]))
        out.append(" x ".join([move, *clauses[:-1], last.replace(":", "^:")]))
    out.append(action + " x " + rng.choice(["rS:N", "bM:EE", "gL:S"]))
    return out


def probes(rng: random.Random, rules: engine.Rules[Any], state: Any, pending: Any) -> list[Any]:
    """Outcomes of probe events on a state: legal, mutated and illegal."""
    seats = rules.seat_count(state)
    found: list[Any] = []
    if isinstance(pending, Roll):
        rolls = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(3)]
        for values in [*rolls, (0, 3), (7, 1), (2,)]:
            found.append(outcome(rules, state, Rolled(values)))
        found.append(outcome(rules, state, Played(rng.randrange(seats), "5: +E F4")))
        return found
    if not isinstance(pending, Await):
        return found
    (seat,) = pending.seats
    actions = rules.legal(state, seat)
    chosen = set(rng.sample(actions, min(3, len(actions))))
    chosen.update(actions[:1] + actions[-1:])
    texts = sorted(chosen)
    dice = getattr(state, "dice", ())
    for action in sorted(chosen):
        texts.extend(mutations(rng, action, dice))
    texts.extend(["", "garbage", "x rS:N", "5: +Q", "3: a1 F3", "2: dog F2", "1: +U x bS:N"])
    for text in texts:
        found.append([text, outcome(rules, state, Played(seat, text))])
        found.append([text, answer(lambda t=text: rules.parse_action(state, seat, t))])
        found.append([text, answer(lambda t=text: rules.annotate(state, seat, t))])
    other = (seat + 1) % seats
    if actions:
        found.append(outcome(rules, state, Played(other, actions[0])))
    found.append(outcome(rules, state, Rolled((3, 4))))
    found.append(outcome(rules, state, Resigned(rng.randrange(seats))))
    found.append(answer(lambda: rules.legal(state, other)))
    return found


def walk_menu(rng: random.Random, rules: engine.Rules[Any], state: Any, seat: int) -> list[Any]:
    """A menu walked from its first stage, answering each question at random."""
    picked: dict[str, str] = {}
    shown = []
    for _ in range(10):
        menu = rules.menu(state, seat, picked)
        shown.append(repr(menu))
        if menu.question is None:
            break
        picked[menu.question.key] = rng.choice(menu.question.answers)[0]
    return shown


def picture(rng: random.Random, rules: engine.Rules[Any], state: Any) -> dict[str, Any]:
    """Everything the rules answer about a state, with the probes' outcomes."""
    seats = rules.seat_count(state)
    pending = rules.pending(state)
    pic: dict[str, Any] = {
        "dump": rules.dump(state),
        "views": [rules.view(state, v) for v in [*range(seats), None]],
        "pending": repr(pending),
        "outcome": repr(rules.outcome(state)),
        "address": rules.chance_address(state),
    }
    if isinstance(pending, Await):
        (seat,) = pending.seats
        pic["legal"] = list(rules.legal(state, seat))
        pic["bot"] = answer(lambda: rules.bot_action(state, seat))
        pic["menu"] = walk_menu(rng, rules, state, seat)
    pic["probes"] = probes(rng, rules, state, pending)
    return pic


def digest(pic: Any) -> str:
    """A short hash of a picture."""
    text = json.dumps(pic, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def play(game: Game) -> Iterator[tuple[engine.Event | None, dict[str, Any]]]:
    """Play a game at random, yielding each event (None: the start) and the picture after it."""
    rules = engine.rules_for(game.kind, game.version)
    rng = random.Random(game.seed)
    probe_rng = random.Random(-game.seed)
    state = rules.start(game.seats, game.options)
    yield None, picture(probe_rng, rules, state)
    while not isinstance(pending := rules.pending(state), Finished):
        event: engine.Event
        if isinstance(pending, Await):
            (seat,) = pending.seats
            if rng.random() < game.resign_share:
                event = Resigned(rng.randrange(game.seats))
            elif rng.random() < game.bot_share:
                event = Played(seat, rules.bot_action(state, seat))
            else:
                actions = rules.legal(state, seat)
                event = Played(seat, actions[rng.randrange(len(actions))])
        else:
            event = chance_event(rng, pending)
        try:
            before = state
            state = engine.step(rules, state, event)
        except engine.IllegalAction:
            assert isinstance(event, Resigned)  # a seat that has already resigned
            continue
        pic = picture(probe_rng, rules, state)
        if isinstance(event, Played):
            pic["said"] = [rules.describe(before, event, v) for v in range(game.seats)]
        yield event, pic


def run(game: Game) -> list[str]:
    """The digests of every picture of a game."""
    return [digest(pic) for _, pic in play(game)]


def check(game: Game, want: list[str], steps: int | None = None) -> str | None:
    """None if a game (or its first `steps` steps) gives its recorded digests, else where it
    first differs."""
    count = 0
    for n, (event, pic) in enumerate(play(game)):
        if n == steps:
            return None
        count += 1
        if n >= len(want) or digest(pic) != want[n]:
            return f"{game.name}: step {n} ({event}) differs from the recorded picture"
    if count != len(want):
        return f"{game.name}: ended after {count} steps, not {len(want)}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--only", help="the games whose name contains this")
    parser.add_argument("--jobs", type=int, default=1, help="games checked at once")
    args = parser.parse_args()
    selected = [g for g in games() if not args.only or args.only in g.name]
    if args.record:
        recorded = {g.name: " ".join(run(g)) for g in selected}
        DIGESTS.write_text(json.dumps(recorded, indent=0, sort_keys=True) + "\n")
        steps = sum(len(v.split()) for v in recorded.values())
        print(f"recorded {len(recorded)} games, {steps} steps")
        return
    stored = json.loads(DIGESTS.read_text())
    with multiprocessing.Pool(args.jobs) as pool:
        problems = pool.imap(_check_stored, [(g, stored[g.name].split()) for g in selected])
        failed = 0
        for game, problem in zip(selected, problems, strict=True):
            print(problem or f"{game.name}: same", flush=True)
            failed += problem is not None
    sys.exit(1 if failed else 0)


def _check_stored(job: tuple[Game, list[str]]) -> str | None:
    return check(*job)


if __name__ == "__main__":
    main()
