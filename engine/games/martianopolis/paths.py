"""A racer's possible moves (docs/rulings.md): exact paths, crashes and finishes, found by DP."""

from __future__ import annotations

from functools import lru_cache

from .state import MartianopolisState, Racer, on_track
from .track import LANES, STEPS, column, movement_points

# An end of a racer's move: (kind, lane, steps) with kind "exact" (all points used),
# "finish" (removed on the last lap; lane 0) or "crash" (a maximal shorter path).
End = tuple[str, int, int]


class Paths:
    """Every end one racer can reach with its points, by dynamic programming over squares.

    The states are (lane, steps taken, points left): at most 4 x 20 x 20 of them, so the
    sets of reachable ends are computed once and paths are rebuilt greedily from them; the
    number of raw paths (up to ~2^19) is never enumerated.
    """

    def __init__(
        self, occupied: frozenset[tuple[int, int]], racer: Racer, points: int, finish: int
    ) -> None:
        self.occupied = occupied
        self.lane = racer.lane
        self.progress = racer.progress
        self.points = points
        self.finish = finish
        self._memo: dict[tuple[int, int, int], frozenset[End]] = {}

    def step(self, lane: int, steps: int, left: int, token: str) -> tuple[int, int] | None:
        """Return the lane and points left after one step, or None if it is not allowed."""
        change, cost = STEPS[token]
        target = lane + change
        if cost > left or not 0 <= target < len(LANES):
            return None
        if (target, column(self.progress + steps + 1)) in self.occupied:
            return None
        return target, left - cost

    def terminal(self, lane: int, steps: int, left: int) -> End | None:
        """Return the end a path stopping here makes, or None if it must go on."""
        if steps > 0 and self.progress + steps == self.finish:
            return ("finish", 0, steps)
        if left == 0:
            return ("exact", lane, steps)
        if all(self.step(lane, steps, left, t) is None for t in STEPS):
            return ("crash", lane, steps)
        return None

    def reach(self, lane: int, steps: int, left: int) -> frozenset[End]:
        """Return every end reachable from this point of a path."""
        key = (lane, steps, left)
        found = self._memo.get(key)
        if found is None:
            end = self.terminal(lane, steps, left)
            if end is not None:
                found = frozenset((end,))
            else:
                ends: set[End] = set()
                for token in STEPS:
                    after = self.step(lane, steps, left, token)
                    if after is not None:
                        ends |= self.reach(after[0], steps + 1, after[1])
                found = frozenset(ends)
            self._memo[key] = found
        return found

    def allowed_ends(self) -> frozenset[End]:
        """Return the ends a player may choose: full paths if any exist, else maximal crashes."""
        ends = self.reach(self.lane, 0, self.points)
        full = frozenset(e for e in ends if e[0] != "crash")
        return full or ends

    def path_to(self, end: End) -> tuple[str, ...]:
        """Rebuild a canonical path to an end, preferring straight, then inward, then outward."""
        lane, steps, left = self.lane, 0, self.points
        tokens: list[str] = []
        while self.terminal(lane, steps, left) != end:
            for token in STEPS:
                after = self.step(lane, steps, left, token)
                if after is not None and end in self.reach(after[0], steps + 1, after[1]):
                    tokens.append(token)
                    lane, left = after
                    steps += 1
                    break
            else:
                raise ValueError(f"{end} is not reachable")
        return tuple(tokens)


def paths_for(state: MartianopolisState, racer: Racer) -> Paths:
    """Return the paths of a racer moving with the current group's value."""
    points = movement_points(state.value, racer.size)
    occupied = frozenset((r.lane, column(r.progress)) for r in on_track(state) if r != racer)
    return _paths(occupied, racer, points, state.finish)


@lru_cache(maxsize=1024)
def _paths(
    occupied: frozenset[tuple[int, int]], racer: Racer, points: int, finish: int
) -> Paths:
    # Describing every legal move, and checking each, asks for the same racer's paths again
    # and again; the inputs are immutable, so the searched paths are kept.
    return Paths(occupied, racer, points, finish)
