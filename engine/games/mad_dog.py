"""Mad Dog v3.1: Mothers race to the Market, Well and Kennel; the winner runs the Dog."""

from __future__ import annotations

from collections.abc import Mapping

from ..core import Option, OptionValue
from ..errors import SetupError
from .mars import MarsRules, Params, parse_square
from .martian_race import RULE_OPTIONS, older_versions, rule_params, with_defaults

# The rulebook's Settable Parameters table, goals mapped as docs/rulings.md says (Market: H-column
# square where smalls grow, Well = the A-column square).
PRESETS: dict[str, dict[str, OptionValue]] = {
    "standard": {
        "mothers": "5/4/3",
        "home": "a7",
        "market": "h2",
        "well": "a2",
        "kennel": "h7",
        "dog_reduce_by": 1,
        "block_partial_min": 3,
        "block_total_min": 4,
    },
    "beginning": {
        "mothers": "4/3/3",
        "home": "b7",
        "market": "g2",
        "well": "b2",
        "kennel": "g7",
        "dog_reduce_by": 3,
        "block_partial_min": 3,
        "block_total_min": 4,
    },
    "tournament": {
        "mothers": "5/5/5",
        "home": "a8",
        "market": "h1",
        "well": "a1",
        "kennel": "h8",
        "dog_reduce_by": 1,
        "block_partial_min": 3,
        "block_total_min": 4,
    },
    "my_faves": {
        "mothers": "5/5/4",
        "home": "a7",
        "market": "h1",
        "well": "a1",
        "kennel": "h7",
        "dog_reduce_by": 1,  # the table allows 1 or 2: chosen at creation, 1 by default
        "block_partial_min": 4,
        "block_total_min": 4,
    },
}

MAD_DOG_DEFAULTS = {"push_formula": "MD", "step_usage": "exact"}


def _square_option(name: str, default: str, role: str) -> Option:
    return Option(name, default, f"square of the {role} (a1..h8)", str)


class MadDog(MarsRules):
    """Mad Dog v3.1 for 2-4 players: the race, then the Mad Dog phase."""

    kind = "mad-dog"
    title = "Mad Dog"
    # 2: the last event records its whole chain; 3: limits off and named; 4: a push onto the
    # Dog is allowed only where the Dog could then push the piece (its ends' enemies too)
    version = 4
    seats = (2, 3, 4)
    piece_word = "Mother"
    goal_names = ("Home", "Market", "Well", "Kennel")
    options: tuple[Option, ...] = (
        Option("mothers", "5/4/3", "Mothers per player for 2/3/4 players, like 5/4/3", str),
        _square_option("home", "a7", "Home"),
        _square_option("market", "h2", "Market (smalls grow there)"),
        _square_option("well", "a2", "Well (mediums grow there)"),
        _square_option("kennel", "h7", "Kennel (larges finish there)"),
        *with_defaults(RULE_OPTIONS, MAD_DOG_DEFAULTS),
    )
    presets = PRESETS

    def make_params(self, seats: int, options: Mapping[str, OptionValue]) -> Params:
        """Mad Dog's layout, Mothers and parameters; the Mad Dog phase is always on."""
        text = str(options["mothers"])
        try:
            counts = [int(part) for part in text.split("/")]
        except ValueError:
            counts = []
        if len(counts) != 3 or not all(1 <= n <= 5 for n in counts):
            raise SetupError(
                f"option 'mothers': {text!r} is not three counts 1-5 for 2/3/4 players, like 5/4/3"
            )
        squares = []
        for name in ("home", "market", "well", "kennel"):
            try:
                squares.append(parse_square(str(options[name])))
            except ValueError as e:
                raise SetupError(
                    f"option {name!r}: {options[name]!r} is not a square a1..h8"
                ) from e
        return rule_params(
            options,
            squares=(squares[0], squares[1], squares[2], squares[3]),
            martians=counts[seats - 2],
            dog_phase=True,
        )

    def series_by_game_points(self, options: Mapping[str, OptionValue]) -> bool:
        """Always: the rulebook's Tournament or Multi-Game Scoring adds each game's points."""
        return True


RULES = MadDog()
VERSIONS = older_versions(MadDog)
