"""Martian Race v1.2: Martians race Home, Government Center, Supply Depot, Launch Pad."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..core import Option, OptionValue
from ..errors import SetupError
from .mars import MarsRules, Params, parse_square

# The rulebook's pieces table: Martians per player for each player count, the first the default.
MARTIANS = {2: (5,), 3: (4, 5), 4: (3, 4), 5: (3,)}

RULE_OPTIONS = (
    Option(
        "push_formula",
        "MR",
        "push distance formula (MR: Martian Race, MD: Mad Dog)",
        str,
        ("MR", "MD"),
    ),
    Option(
        "block_partial_min",
        3,
        "blocking strength that stops enemies ending on a square",
        minimum=1,
        maximum=8,
    ),
    Option(
        "block_total_min",
        4,
        "blocking strength that stops enemies entering a square",
        minimum=1,
        maximum=8,
    ),
    Option(
        "step_usage",
        "up_to_die",
        "steps per move: up to the die (wasting) or exactly it",
        str,
        ("up_to_die", "exact"),
    ),
    Option(
        "turn_step",
        "any",
        "one step turns any way, or only a quarter turn",
        str,
        ("any", "quarter"),
    ),
    Option("goal_gates", True, "goal squares admit only the size that grows there", bool),
    Option(
        "one_per_colour",
        "always",
        "one piece per colour on Home and goals at every moment, or only where moves end",
        str,
        ("always", "resting"),
    ),
    Option(
        "growth_on_push_arrival",
        True,
        "a standing piece pushed onto its goal grows (or finishes) there too",
        bool,
    ),
    Option(
        "unusable_die",
        "forfeit",
        "a die that cannot be used is lost (the only ruling so far; see the rules page, "
        "/rules/martian-race)",
        str,
        ("forfeit",),
    ),
    Option(
        "push_queue",
        "fifo",
        "chained pushes are handled first in, first out (the only ruling so far; see the rules "
        "page, /rules/martian-race)",
        str,
        ("fifo",),
    ),
    Option("bg_larger_die", False, "when only one die can be used, it must be the larger", bool),
    Option(
        "dog_reduce_by", 1, "sizes the Mad Dog takes from a Mother it attacks", minimum=1, maximum=3
    ),
    Option(
        "dog_phase_round_limit",
        None,
        "the Mad Dog phase ends after this many Dog turns (empty: no limit)",
        minimum=1,
    ),
    # Limits no rulebook has (see docs/rulings.md): off unless a game's creator sets them.
    Option(
        "stall_rounds",
        0,
        "not in the rulebook: end the game, ranked by finished pieces, after this many rounds "
        "in which no piece grew, finished or was destroyed (0: never)",
        minimum=0,
    ),
    Option(
        "max_turns",
        0,
        "not in the rulebook: end the game, ranked by finished pieces, after this many turns "
        "in all (0: no limit)",
        minimum=0,
    ),
)

# Rules versions 1 and 2 ended every game after 25 stall rounds or 2,000 turns by default.
V2_LIMITS: dict[str, OptionValue] = {"stall_rounds": 25, "max_turns": 2000}


def with_defaults(
    options: tuple[Option, ...], defaults: Mapping[str, OptionValue]
) -> tuple[Option, ...]:
    """The options with some defaults changed."""
    return tuple(replace(o, default=defaults[o.name]) if o.name in defaults else o for o in options)


def rule_params(
    options: Mapping[str, OptionValue],
    *,
    squares: tuple[int, int, int, int],
    martians: int,
    dog_phase: bool,
) -> Params:
    """Params from the options both games share."""
    partial, total = options["block_partial_min"], options["block_total_min"]
    reduce_by, limit = options["dog_reduce_by"], options["dog_phase_round_limit"]
    assert isinstance(partial, int) and isinstance(total, int) and isinstance(reduce_by, int)
    if partial > total:
        raise SetupError(f"option 'block_partial_min': {partial} is above block_total_min {total}")
    if len(set(squares)) != 4:
        raise SetupError("options home/goal squares: the four squares must differ")
    return Params(
        home=squares[0],
        goal1=squares[1],
        goal2=squares[2],
        goal3=squares[3],
        martians=martians,
        push_formula=str(options["push_formula"]),
        block_partial_min=partial,
        block_total_min=total,
        exact_steps=options["step_usage"] == "exact",
        quarter_turns=options["turn_step"] == "quarter",
        goal_gates=bool(options["goal_gates"]),
        one_per_colour_always=options["one_per_colour"] == "always",
        bg_larger_die=bool(options["bg_larger_die"]),
        growth_on_push_arrival=bool(options["growth_on_push_arrival"]),
        dog_phase=dog_phase,
        dog_reduce_by=reduce_by,
        dog_round_limit=limit if isinstance(limit, int) else 0,
        max_turns=int(options["max_turns"] or 0),
        stall_rounds=int(options["stall_rounds"] or 0),
    )


class MartianRace(MarsRules):
    """Martian Race v1.2 for 2-5 players, with the Mad Dog phase as an option."""

    kind = "martian-race"
    title = "Martian Race"
    # 2: the last event records its whole chain; 3: limits off and named; 4: a push onto the
    # Dog is allowed only where the Dog could then push the piece (its ends' enemies too)
    version = 4
    seats = (2, 3, 4, 5)
    options: tuple[Option, ...] = (
        Option(
            "martians",
            None,
            "Martians per player (2 players: 5; 3: 4 or 5; 4: 3 or 4; 5: 3); empty: the smaller",
            minimum=3,
            maximum=5,
        ),
        Option(
            "more_martians", False, "use the larger allowed number of Martians per player", bool
        ),
        Option(
            "mad_dog_phase",
            False,
            "the first to finish controls the Mad Dog until every Martian is done",
            bool,
        ),
        *RULE_OPTIONS,
    )
    presets = {
        "standard": {},
        "more-martians": {"more_martians": True},
        "mad-dog-phase": {"mad_dog_phase": True},
    }

    def make_params(self, seats: int, options: Mapping[str, OptionValue]) -> Params:
        """Martian Race's fixed layout with the chosen numbers and flags."""
        allowed = MARTIANS[seats]
        chosen = options["martians"]
        if chosen is None:
            martians = allowed[-1] if options["more_martians"] else allowed[0]
        elif chosen in allowed:
            martians = int(chosen)
        else:
            shown = " or ".join(str(n) for n in allowed)
            raise SetupError(
                f"option 'martians': {seats} players use {shown} Martians each, not {chosen}"
            )
        squares = (parse_square("a7"), parse_square("h2"), parse_square("a2"), parse_square("h7"))
        return rule_params(
            options,
            squares=squares,
            martians=martians,
            dog_phase=bool(options["mad_dog_phase"]),
        )

    def series_by_game_points(self, options: Mapping[str, OptionValue]) -> bool:
        """With the Mad Dog phase, whose scoring adds each game's points, as in Mad Dog."""
        return bool(options.get("mad_dog_phase"))


def older_versions(newest: type[MarsRules]) -> tuple[MarsRules, ...]:
    """Rules versions 1 to 3 of a movement-system game, made from its newest class.

    Version 3 let a push end on the Dog's square wherever the Dog's push had a path, even
    one whose end held an enemy that could not be pushed (the Mother then stayed on the
    Dog's square); version 2 also had the stall and turn limits on by default and its
    outcomes did not name them; version 1 also kept only the last event's own sentence,
    not its whole chain.
    """
    v3 = type(f"{newest.__name__}V3", (newest,), {"version": 3, "dog_push_ends": False})
    v2 = type(
        f"{newest.__name__}V2",
        (v3,),
        {
            "version": 2,
            "limits_named": False,
            "options": with_defaults(newest.options, V2_LIMITS),
        },
    )
    v1 = type(f"{newest.__name__}V1", (v2,), {"version": 1, "chain_last": False})
    return v1(), v2(), v3()


RULES = MartianRace()
VERSIONS = older_versions(MartianRace)
