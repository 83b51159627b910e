"""Swiss rounds: the next round once the last one is over, by matching or by seating tables."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from engine.figures import counted

from .. import dutch, entries, pairing
from ..contract import Format, Setting
from ..draft import Draft
from ..errors import BadFormat, IllegalEvent
from ..history import History, history
from ..model import Config, Tournament
from ..plans import Plan, PlannedBye, make_plan
from ..scoring import bye_points
from ..seating import seat_pool, table_sizes

ROUNDS = Setting("rounds", "Rounds", "how many", most=30, example=3)
LATE = Setting("late_entry", "Late entrants score per round missed",
               "0: nothing, 0.5: half a bye; left out: no entries after the start",
               whole=False, least=0, most=0.5)
LATE_SHARES = {0.0: "nothing", 0.5: "half a bye"}
FATES = {
    "adjudicate": "are ended by adjudication on the scores so far (a level game is drawn)",
    "carry": "go on and count for their own round; their players are paired in the new round "
             "on the points known so far",
}


def plan_swiss(t: Tournament, away: Collection[str], version: int = 2) -> Plan | None:
    """Return the next Swiss round, or None while a round is open or when all are played.

    Two players from version 2: FIDE's colour rules, and the bye chosen with the pairs.
    """
    last, rounds = t.last_round(), t.config.whole("rounds")
    if rounds is None or last >= rounds or (last and t.holding(last)):
        return None
    round_ = last + 1
    h = history(t)
    names = {e.player: e.name for e in t.entrants}
    resting = [p for p in t.active() if p in away]
    pool = h.by_standing(p for p in t.active() if p not in away)
    byes = [PlannedBye(p, 0.0) for p in resting]
    notes = [f"{names[p]} is away and sits round {round_} out (0 points)" for p in resting]
    points = bye_points(t)
    why = "the lowest score among those with the fewest byes"
    if version >= 2 and t.config.two_player:
        fewest = min((h.byes[p] for p in pool), default=0)
        pairs, left = dutch.pair_players(pool, h, [p for p in reversed(pool)
                                                   if h.byes[p] == fewest])
        tables: tuple[tuple[str, ...], ...] = pairs
        penalties = tuple(pairing.penalty(a, b, h) for a, b in pairs)
        chosen = [] if left is None else [left]
        if left is not None and left != pairing.choose_bye(pool, h):
            why = ("the lowest among those with the fewest byes whom the others can be paired "
                   "without, with no rematch and no colour beyond the limits")
    else:
        sizes = table_sizes(len(pool), t.config.table_sizes)
        chosen = choose_byes(pool, len(pool) - sum(sizes), h)
        tables, penalties = seat_pool(pool, sizes, h)
    for player in chosen:
        byes.append(PlannedBye(player, points))
        notes.append(f"{names[player]} gets the bye ({counted(points, 'point')}): {why}")
    return make_plan(t, round_, tables, byes, penalties, notes, resting)


def choose_byes(pool: list[str], count: int, h: History) -> list[str]:
    """Take `count` players out of the pool for byes, one at a time by the bye rule."""
    chosen = []
    for _ in range(count):
        player = pairing.choose_bye(pool, h)
        pool.remove(player)
        chosen.append(player)
    return chosen


class Swiss(Format):
    """Swiss in rounds, each paired by standing once the last one is over."""

    system = "swiss"
    title = "Swiss"
    summary = "Swiss in rounds: a round closes when its last game ends"
    settings = (ROUNDS, LATE)
    round_by_round = True
    allows_duplicate = True
    takes_timetable = True
    version = 2  # 2: two players by FIDE's colour rules, the bye chosen with the pairs
    derives = (1,)

    def check(self, config: Config, where: str) -> None:
        """A Swiss needs its number of rounds."""
        if config.whole("rounds") is None:
            raise BadFormat(f"{where}: a Swiss event needs 'rounds'")
        late = config.number("late_entry")
        if late is not None and late not in LATE_SHARES:
            raise BadFormat(f"{where}: late_entry must be 0 (a late entrant scores nothing for "
                            f"a round missed) or 0.5 (half a bye), not {late:g}")

    def late_entry(self, config: Config, last_round: int) -> str | None:
        """Before any round but the last is paired, when the director takes late entries."""
        rounds = config.whole("rounds") or 0
        if config.number("late_entry") is None:
            return "entries closed when the event started (it takes no late entries)"
        if last_round >= rounds:
            return f"the last round ({rounds}) is paired already"
        return None

    def late_byes(self, config: Config, last_round: int) -> list[tuple[int, float]]:
        """The rounds paired before the entry, each at the director's share of a bye."""
        share = config.number("late_entry") or 0.0
        points = share * (1.0 if config.scoring == "places" else 0.0)
        return [(r, points) for r in range(1, last_round + 1)]

    def check_round(self, d: Draft, round_: int | None, where: str) -> None:
        """Round by round, and never past the last round."""
        super().check_round(d, round_, where)
        rounds = d.config.whole("rounds") if d.config is not None else None
        if round_ is not None and rounds is not None and round_ > rounds:
            raise IllegalEvent(f"{where}: round {round_} is past the last round ({rounds})")

    def plan(self, t: Tournament, now: datetime, away: Collection[str]) -> Plan | None:
        """The next round, once the last one is over."""
        return plan_swiss(t, away, self.version)

    def plan_as(self, version: int, t: Tournament, now: datetime,
                away: Collection[str]) -> Plan | None:
        """Version 1 paired two players with the first-seat balance as a weight only."""
        return plan_swiss(t, away, version)

    def is_over(self, t: Tournament) -> bool:
        """Every round has been paired (and played)."""
        return t.last_round() >= (t.config.whole("rounds") or 0)

    def forecast(self, t: Tournament, now: datetime, open_end: datetime,
                 step: timedelta) -> datetime:
        """Each round left takes one game's time after the round in play."""
        left = (t.config.whole("rounds") or 0) - t.last_round()
        return (open_end if t.unfinished() else now) + left * step

    def describe(self, config: Config) -> list[str]:
        """How many rounds, when a round closes, and what a late entrant scores."""
        lines = [f"{counted(config.whole('rounds') or 0, 'round')}; a round closes the moment "
                 "its last game ends."]
        late = config.number("late_entry")
        if late is not None:
            lines.append("Late entries are taken until the last round is paired; a late entrant "
                         f"scores {LATE_SHARES.get(late, f'{late:g}')} for each round missed.")
        return lines

    def next_pairing(self, t: Tournament) -> str:
        """When the last game of the round ends, or by the round's date on the timetable."""
        last = t.last_round()
        holding = t.holding(last) if last else ()
        if not holding:
            return super().next_pairing(t)
        some = "game" if len(holding) == 1 else f"{len(holding)} games"
        said = f"when the last {some} of round {last} {'ends' if len(holding) == 1 else 'end'}"
        due = t.config.round_due(last + 1)
        return said if due is None else f"{said}, or by {entries.when(due)} (the timetable)"

    def nothing_due(self, t: Tournament) -> str:
        """The round's games still unfinished (carried ones do not hold it)."""
        last = t.last_round()
        holding = t.holding(last) if last else ()
        if not holding or last >= (t.config.whole("rounds") or 0):
            return super().nothing_due(t)
        names = ", ".join(tb.game for tb in holding[:5]) + (", ..." if len(holding) > 5 else "")
        return (f"round {last} is still open: {counted(len(holding), 'game')} "
                f"{'is' if len(holding) == 1 else 'are'} unfinished ({names}); you may start "
                f"round {last + 1} now, adjudicating or carrying "
                f"{'it' if len(holding) == 1 else 'them'}")

    def expected_games(self, t: Tournament) -> int:
        """A table per round."""
        return (t.config.whole("rounds") or 1) * (len(t.entrants) // t.config.table_sizes[0])


FORMAT = Swiss()
