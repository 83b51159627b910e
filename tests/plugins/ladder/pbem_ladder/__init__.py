"""A ladder, as a pbem tournament format from its own package: challenge up to k rungs above.

The rules, as a director reads them:

- Two players a game. The ladder starts in seeding order: the top seed on rung 1.
- Whenever a player is free (in no game, not away) and has challenges left, they challenge a
  free player at most `reach` rungs above them, the one they have played least (then the
  highest). Going down the ladder from rung 2, each free player challenges before those
  below may pick them; a player is in one game at a time. The challenger sits first.
- A challenger who wins takes the defender's rung; the defender and everyone between move
  down one. A draw or a defender's win changes nothing. Games count in the order their
  results were logged; an annulled game (by the director, or a player's later timeout loss)
  changes nothing and gives the challenge back.
- Each player makes `challenges` challenges. The ladder is over once every player below
  rung 1 has made theirs and no game is going.
- Standings are the ladder, top rung first; players who left stand below the others. Points
  and tie-breaks are shown beside it but do not order it.

The pairing is a function of the folded log, the time and who is away, so `pbem tournament
verify` re-derives every pairing of a ladder like any other format's.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem.tournaments.core.contract import Format, Setting
from pbem.tournaments.core.errors import BadFormat
from pbem.tournaments.core.history import history
from pbem.tournaments.core.model import Config, Tournament
from pbem.tournaments.core.pairing import penalty
from pbem.tournaments.core.plans import Plan, make_plan
from pbem.tournaments.core.scoring import scored_games


@dataclass(frozen=True)
class Ladder:
    """Every entrant top rung first, each with why they stand there, and challenges made."""

    rungs: tuple[str, ...]
    reasons: dict[str, str]
    made: dict[str, int]


def climb(t: Tournament) -> Ladder:
    """Replay the counted results in the order they were logged, from the seeding order."""
    names = {e.player: e.name for e in t.entrants}
    rungs = [e.player for e in t.entrants]
    reasons = {p: f"seed {i + 1}, no result has moved them" for i, p in enumerate(rungs)}
    made = dict.fromkeys(rungs, 0)
    logged = {tb.game: tb.result.seq for tb in t.tables if tb.result is not None}
    counted = [g for g in scored_games(t) if not g.annulled]
    for game in sorted(counted, key=lambda g: logged[g.game]):
        challenger, defender = game.seats
        made[challenger] += 1
        high, low = rungs.index(defender), rungs.index(challenger)
        if game.ranks[0] >= game.ranks[1] or low < high:
            continue
        rungs.insert(high, rungs.pop(low))
        reasons[challenger] = f"beat {names[defender]} in game {game.game} and took the rung"
        for moved in rungs[high + 1:low + 1]:
            reasons[moved] = f"moved down one when {names[challenger]} won game {game.game}"
    return Ladder(tuple(rungs), reasons, made)


def pair_challenges(t: Tournament, away: Collection[str]) -> list[tuple[str, str]]:
    """Return (challenger, defender) pairs for the free players, from rung 2 down."""
    ladder = climb(t)
    reach, most = t.config.whole("reach") or 1, t.config.whole("challenges") or 0
    rungs = [p for p in ladder.rungs if t.entrant(p).active]
    busy = {p for table in t.unfinished() for p in table.seats}
    free = {p for p in rungs if p not in busy and p not in away}
    h = history(t)
    pairs: list[tuple[str, str]] = []
    for rung, player in enumerate(rungs):
        if rung == 0 or player not in free or ladder.made[player] >= most:
            continue
        above = [q for q in rungs[max(0, rung - reach):rung]
                 if q in free and not h.kept_apart(player, q)]
        if above:
            defender = min(above, key=lambda q: (h.times_met(player, q), rungs.index(q)))
            pairs.append((player, defender))
            free -= {player, defender}
    return pairs


class LadderFormat(Format):
    """A challenge ladder: win against someone up to `reach` rungs above to take their rung."""

    system = "ladder"
    title = "Ladder"
    summary = "Ladder: challenge anyone up to k rungs above you, and take their rung if you win"
    settings = (
        Setting("reach", "Challenge up to (rungs above)", "how far up a player may challenge",
                example=2),
        Setting("challenges", "Challenges per player", "how many challenges each player makes",
                example=2),
    )
    has_rounds = False

    def check(self, config: Config, where: str) -> None:
        """Two players a game; reach and challenges are needed."""
        if not config.two_player:
            raise BadFormat(f"{where}: a ladder seats two players a game, not "
                            f"{list(config.table_sizes)}")
        for name in ("reach", "challenges"):
            if config.whole(name) is None:
                raise BadFormat(f"{where}: a ladder needs {name!r}")

    def plan(self, t: Tournament, now: datetime, away: Collection[str]) -> Plan | None:
        """Every free player with challenges left takes on someone free within reach above."""
        pairs = pair_challenges(t, away)
        if not pairs:
            return None
        names = {e.player: e.name for e in t.entrants}
        rungs = [p for p in climb(t).rungs if t.entrant(p).active]
        notes = [f"{names[a]} (rung {rungs.index(a) + 1}) challenges {names[b]} "
                 f"(rung {rungs.index(b) + 1})" for a, b in pairs]
        h = history(t)
        resting = [p for p in t.active() if p in away]
        return make_plan(t, None, pairs, (), [penalty(a, b, h) for a, b in pairs], notes,
                         resting)

    def is_over(self, t: Tournament) -> bool:
        """Everyone below the top rung has made every challenge."""
        ladder, most = climb(t), t.config.whole("challenges") or 0
        rungs = [p for p in ladder.rungs if t.entrant(p).active]
        return all(ladder.made[p] >= most for p in rungs[1:])

    def forecast(self, t: Tournament, now: datetime, open_end: datetime,
                 step: timedelta) -> datetime:
        """The most challenges anyone has left, one game's time each."""
        ladder, most = climb(t), t.config.whole("challenges") or 0
        left = max((most - ladder.made[p] for p in t.active()), default=0)
        return open_end + max(left, 0) * step

    def placing(self, t: Tournament) -> Sequence[tuple[str, str]]:
        """The ladder, top rung first, then those who left."""
        ladder = climb(t)
        active = [p for p in ladder.rungs if t.entrant(p).active]
        gone = [p for p in ladder.rungs if not t.entrant(p).active]
        return ([(p, f"rung {i + 1}: {ladder.reasons[p]}") for i, p in enumerate(active)]
                + [(p, f"{t.entrant(p).status}: {ladder.reasons[p]}") for p in gone])

    def describe(self, config: Config) -> list[str]:
        """The ladder's rules in two sentences."""
        reach, made = config.whole("reach") or 1, config.whole("challenges") or 1
        return [f"A ladder: players start in seeding order and challenge anyone up to {reach} "
                f"rung{'s' * (reach != 1)} above; a challenger who wins takes the rung and "
                "everyone between moves down one.",
                f"Each player makes {made} challenge{'s' * (made != 1)}."]

    def ordering(self, config: Config) -> str:
        """The ladder orders the standings."""
        return "the ladder, top rung first (points and tie-breaks are shown beside it)"

    def next_pairing(self, t: Tournament) -> str:
        """As challengers become free."""
        return "whenever a challenger and someone within reach above are both free"

    def nothing_due(self, t: Tournament) -> str:
        """Nobody free can challenge."""
        return "no free player with challenges left has a free player within reach above"

    def expected_games(self, t: Tournament) -> int:
        """Each player below the top makes every challenge."""
        return max(1, (t.config.whole("challenges") or 1) * (len(t.entrants) - 1))


FORMAT = LadderFormat()
