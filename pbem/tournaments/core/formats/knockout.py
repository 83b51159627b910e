"""Knockouts: two-player single elimination, and multiplayer "top k of each table go on"."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..contract import Format, Setting
from ..errors import BadFormat
from ..history import history
from ..model import Config, Table, Tournament
from ..pairing import penalty
from ..plans import Plan, PlannedBye, make_plan
from ..scoring import average_places
from . import elimination

# Two players: a bracket of the next power of two, seed 1 against the last seed, seeds placed so
# that 1 and 2 can only meet in the final; missing seeds are byes for the top seeds. A drawn game
# is replayed with seats swapped; after 3 draws the higher seed goes on. A player who leaves loses
# their undecided match (a walkover, shown as a bye for the other). An annulled game is replayed
# and is not counted as a draw. Tables: every active entrant is seated, seeds snaked across the
# tables; whoever cannot be seated (the top seeds) goes on with a bye. The top k of each table
# (ties: the better seed) go on, until the survivors fit one table: the final. Too few survivors
# for a table are joined by the best of the last round's losers (place, then seed).

MAX_DRAWS = 3


@dataclass(frozen=True)
class Match:
    """Two bracket slots (None: nobody) in one round; `winner` once decided."""

    high: str | None
    low: str | None
    games: tuple[Table, ...]
    winner: str | None
    decided: bool


def bracket_order(size: int) -> list[int]:
    """Return seed numbers in bracket position order: 1, 16, 8, 9, ... for 16."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def decide(t: Tournament, high: str | None, low: str | None, round_: int) -> Match:
    """Return how the match between two slots stands in a round."""
    if high is None or low is None:
        return Match(high, low, (), high or low, True)
    games = tuple(tb for tb in t.games_of.get(high, ()) if tb.round == round_ and low in tb.seats)
    draws = 0
    for table in games:
        if table.result is None or table.annulled is not None:
            continue
        places = dict(zip(table.seats, average_places(table.result.ranks), strict=True))
        if places[high] != places[low]:
            winner = high if places[high] < places[low] else low
            return Match(high, low, games, winner, True)
        draws += 1
    if draws >= MAX_DRAWS:
        return Match(high, low, games, high, True)
    stayed = [p for p in (high, low) if t.entrant(p).active]
    if len(stayed) < 2:
        return Match(high, low, games, stayed[0] if stayed else None, True)
    return Match(high, low, games, None, False)


def two_player_rounds(t: Tournament) -> list[list[Match]]:
    """Return the bracket's rounds as far as they are known, one list of matches per round."""
    seeds = [e.player for e in t.entrants]
    size = 1
    while size < len(seeds):
        size *= 2
    slots: list[str | None] = [seeds[s - 1] if s <= len(seeds) else None
                               for s in bracket_order(size)]
    rounds: list[list[Match]] = []
    while len(slots) > 1:
        round_ = len(rounds) + 1
        matches = [decide(t, *order(t, slots[i], slots[i + 1]), round_)
                   for i in range(0, len(slots), 2)]
        rounds.append(matches)
        if not all(m.decided for m in matches):
            break
        slots = [m.winner for m in matches]
    return rounds


def order(t: Tournament, a: str | None, b: str | None) -> tuple[str | None, str | None]:
    """Return two slots, the higher seed first."""
    if a is None or (b is not None and t.seeding[b] < t.seeding[a]):
        return b, a
    return a, b


def next_game(match: Match) -> tuple[str, str] | None:
    """Return the seats of the match's next game, or None when it is decided or playing."""
    if match.decided or match.high is None or match.low is None:
        return None
    if any(tb.result is None and tb.annulled is None for tb in match.games):
        return None
    played = [tb for tb in match.games if tb.annulled is None]
    if played and played[-1].seats[0] == match.high:
        return match.low, match.high
    return match.high, match.low


def plan_two_player(t: Tournament) -> Plan | None:
    """Return the games the bracket needs now: a new round, or replays of drawn games."""
    rounds = two_player_rounds(t)
    if not rounds or all(m.decided for m in rounds[-1]):
        return None
    round_ = len(rounds)
    names = {e.player: e.name for e in t.entrants}
    tables = [seats for m in rounds[-1] if (seats := next_game(m)) is not None]
    notes = [f"{names[a]} and {names[b]} replay with seats swapped after a draw"
             for m in rounds[-1] if (seats := next_game(m)) is not None and m.games
             for a, b in [seats]]
    had = {(b.player, b.round) for b in t.byes}
    byes = [PlannedBye(m.winner, 1.0) for m in rounds[-1]
            if m.winner is not None and None in (m.high, m.low) and (m.winner, round_) not in had]
    notes += [f"{names[b.player]} has a bye in round {round_}" for b in byes]
    if not tables and not byes:
        return None
    h = history(t)
    return make_plan(t, round_, tables, byes, [penalty(a, b, h) for a, b in tables], notes)


def champion(t: Tournament) -> str | None:
    """Return the winner of the bracket once the final is decided."""
    rounds = two_player_rounds(t)
    if not rounds or len(rounds[-1]) != 1 or not rounds[-1][0].decided:
        return None
    return rounds[-1][0].winner


def rounds_to_go(t: Tournament) -> int:
    """Return how many rounds are not over yet, the current one included."""
    size = 1
    while size < len(t.entrants):
        size *= 2
    done = sum(1 for matches in two_player_rounds(t) if all(m.decided for m in matches))
    return size.bit_length() - 1 - done


class Knockout(Format):
    """A bracket for two players; for tables, the top `advance` of each go on.

    The two-player/tables choice is made here once: each question goes to the bracket above
    or to `elimination` according to the event's table sizes.
    """

    system = "knockout"
    title = "Knockout"
    summary = "Knockout: seeded single elimination, or the top of each table goes on"
    settings = (Setting("advance", "Top of each table going on",
                        "how many of each table go on, at tables",
                        most=7, example=1),)
    round_by_round = True
    version = 2  # 2: at tables, nobody has a second bye before everyone has had one
    derives = (1,)

    def check(self, config: Config, where: str) -> None:
        """Two players: the winner goes on; tables: the top k, fewer than a table seats."""
        advance, smallest = config.whole("advance"), config.table_sizes[0]
        if config.two_player and advance not in (None, 1):
            raise BadFormat(f"{where}: a two-player knockout advances the winner only")
        if not config.two_player and advance is None:
            raise BadFormat(f"{where}: a multiplayer knockout needs 'advance' (top k per table)")
        if advance is not None and advance >= smallest:
            raise BadFormat(f"{where}: advance {advance} must be less than the "
                            f"smallest table ({smallest})")

    def plan(self, t: Tournament, now: datetime, away: Collection[str]) -> Plan | None:
        """The bracket's next games, or the next round of tables."""
        return self.plan_as(self.version, t, now, away)

    def plan_as(self, version: int, t: Tournament, now: datetime,
                away: Collection[str]) -> Plan | None:
        """Version 1 gave the byes at tables to the top seeds every round."""
        return plan_two_player(t) if t.config.two_player else elimination.plan_tables(t, version)

    def is_over(self, t: Tournament) -> bool:
        """A champion, or the final table played."""
        if t.config.two_player:
            return champion(t) is not None or len(t.entrants) < 2
        return elimination.stage(t).over

    def forecast(self, t: Tournament, now: datetime, open_end: datetime,
                 step: timedelta) -> datetime:
        """A game's time for each round still to play."""
        to_go = rounds_to_go(t) if t.config.two_player else elimination.rounds_to_go(t)
        current = max((tb.round or 0 for tb in t.tables), default=0)
        playing = any(tb.round == current for tb in t.unfinished())
        return open_end + (to_go - 1) * step if playing else now + to_go * step

    def describe(self, config: Config) -> list[str]:
        """Who goes on."""
        return ["Single elimination, seeded." if config.two_player
                else f"The top {config.whole('advance')} of each table go on to the next round."]

    def expected_games(self, t: Tournament) -> int:
        """One game a player knocked out (tables: about two a table)."""
        n = len(t.entrants)
        return max(1, n - 1) if t.config.two_player else max(1, n // t.config.table_sizes[0] * 2)


FORMAT = Knockout()
