"""The Format contract: what a tournament format provides, with defaults for what is optional.

A format is the `system` of a `create` event (round robin, Swiss, rolling Swiss, knockout,
or one an installed package adds), one object behind this contract, registered once under
its system name (see `formats`). The split follows lichess's tournament `System` and its
`PairingSystem`: the host folds the log, stamps each plan with the hash of its inputs,
starts the games, scores, ranks and verifies; the format names and checks its settings,
plans the games due from the folded state, the time and who is away, says when the event
is over, and gives its words for the pages. A format does no I/O and reads no clock.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence, Set
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from engine.figures import counted

from .draft import Draft
from .errors import IllegalEvent, optional_number, optional_whole
from .model import Config, Tournament
from .plans import Plan
from .tiebreaks import TITLES


@dataclass(frozen=True)
class Setting:
    """A setting a format reads from the `create` event, and how forms and commands ask for it."""

    name: str  # the create event's field, e.g. "rounds"
    label: str  # how a form names it, e.g. "Rounds"
    help: str  # what it does, in a few words
    whole: bool = True  # a whole number; False: any number
    least: int = 1  # the smallest whole number allowed
    most: float = 1000  # the largest a new event may ask for (docs/tournaments.md, "Limits")
    unit: str = ""  # what a number counts, e.g. "hours"
    example: int | float | None = None  # a value the contract test plays the format with

    def read(self, payload: Mapping[str, Any], where: str) -> int | float | None:
        """Read the setting from a `create` payload (None when left out); InvalidEvent if bad."""
        if self.whole:
            return optional_whole(payload, self.name, where, self.least)
        return optional_number(payload, self.name, where)


class Format(ABC):
    """One tournament format. Required: the names, `plan`, `is_over` and `describe`."""

    system: str  # the create event's `system`: lower case, letters, digits and '-', <= 20
    title: str  # its name on pages: "Swiss"
    summary: str  # one line for the new-event form
    settings: tuple[Setting, ...] = ()
    version: int = 1  # raised whenever the same log would be paired differently
    derives: tuple[int, ...] = ()  # earlier versions `plan_as` still pairs by, for verify
    has_rounds: bool = True  # pair events carry a round number (False: their round is null)
    round_by_round: bool = False  # a round is paired once the one before is over
    allows_duplicate: bool = False  # the tables of a round may share one deal of dice
    takes_timetable: bool = False  # rounds may start by dates, before the last round is over

    def check(self, config: Config, where: str) -> None:  # noqa: B027 - optional, no check
        """Raise BadFormat when the event's settings contradict each other or the format."""

    def fewest_entrants(self, config: Config) -> int:
        """Return how many entrants the event needs to start."""
        return config.table_sizes[0]

    def most_entrants(self, config: Config) -> int:
        """Return how many players the event may enter (512 unless the format says fewer)."""
        return 512

    def late_entry(self, config: Config, last_round: int) -> str | None:
        """Say why nobody may enter once the event has started, or None when a late entrant
        may (asked after the start, while entries are open; `last_round` is 0 before round 1).
        By default an event takes no entries after its start."""
        return "entries closed when the event started"

    def takes_late_entries(self, config: Config) -> bool:
        """Tell whether the event takes entries after its start at all."""
        return self.late_entry(config, 0) is None

    def late_byes(self, config: Config, last_round: int) -> Sequence[tuple[int, float]]:
        """Return what a late entrant scores for each round they missed: (round, points)."""
        return ()

    def check_round(self, d: Draft, round_: int | None, where: str) -> None:
        """Raise IllegalEvent when a pair event's round cannot come now (round by round:
        the last round again, or the next one once every game of the last has ended)."""
        if not self.round_by_round or round_ is None:
            return
        last = max((p.round for p in d.pairings if p.round is not None), default=0)
        if round_ < last or round_ > last + 1:
            raise IllegalEvent(f"{where}: round {round_} cannot follow round {last}")
        if round_ > last:
            games = (g for p in d.pairings if p.round == last for g in p.games)
            still = sorted(g for g in games if g in d.tables and d.is_open(d.tables[g]))
            if still:
                raise IllegalEvent(
                    f"{where}: round {last} is still open: games {still} have no result"
                )

    def check_players(self, d: Draft, players: Set[str], where: str) -> None:  # noqa: B027
        """Raise IllegalEvent when the newly paired players break the format's limits."""

    @abstractmethod
    def plan(self, t: Tournament, now: datetime, away: Collection[str]) -> Plan | None:
        """Return the games due now (see `plans.make_plan`), or None when none are.

        Asked once the event has started and until it closes, by the server and again by
        `verify` for every logged pairing, so it must be a function of its arguments alone.
        """

    def plan_as(self, version: int, t: Tournament, now: datetime,
                away: Collection[str]) -> Plan | None:
        """Return the plan an earlier version of the algorithm (one of `derives`) made, so that
        `verify` re-derives pair events logged before the version was raised."""
        return self.plan(t, now, away)

    @abstractmethod
    def is_over(self, t: Tournament) -> bool:
        """Tell whether nothing is left to pair (asked once every paired game has ended)."""

    def algorithm(self, config: Config, version: int | None = None) -> str:
        """Return the name and version (by default the current one) of the pairing algorithm
        that pair events record."""
        shape = "pairs" if config.two_player else "tables"
        return f"pbem-{self.system}-{shape}/{self.version if version is None else version}"

    def forecast(self, t: Tournament, now: datetime, open_end: datetime,
                 step: timedelta) -> datetime:
        """Return when the event should end if every game takes its full time (`step`);
        `open_end` is when the games in play end at the latest, and never before `now`."""
        return open_end

    def placing(self, t: Tournament) -> Sequence[tuple[str, str]] | None:
        """Return the format's own order of every entrant, each with the reason for their
        place, or None (the default) to rank by points and then the tie-breaks."""
        return None

    @abstractmethod
    def describe(self, config: Config) -> list[str]:
        """Return the format's rules in sentences, for the event's home page and mails."""

    def ordering(self, config: Config) -> str:
        """Say how the standings are ordered."""
        return "points, then " + ", ".join(TITLES.get(n, n) for n in config.tiebreaks)

    def next_pairing(self, t: Tournament) -> str:
        """Say when the next games will be paired (asked after the start, before the close)."""
        if not self.round_by_round:
            return "whenever enough players are free"
        going = t.unfinished()
        last = "game" if len(going) == 1 else f"{len(going)} games"
        return (f"when the last {last} of round {t.last_round()} "
                f"{'ends' if len(going) == 1 else 'end'}" if going else "now")

    def nothing_due(self, t: Tournament) -> str:
        """Say why nothing can be paired now, to a director who asked for a pairing."""
        going = t.unfinished()
        if self.round_by_round and going:
            names = ", ".join(tb.game for tb in going[:5])
            more = ", ..." if len(going) > 5 else ""
            return (f"round {t.last_round()} is still open: {counted(len(going), 'game')} "
                    f"{'is' if len(going) == 1 else 'are'} unfinished ({names}{more})")
        return "not enough players are free yet (or none has waited long enough)"

    def expected_games(self, t: Tournament) -> int:
        """Return about how many games the event will have (the length of a progress bar)."""
        return max(len(t.tables), 1)
