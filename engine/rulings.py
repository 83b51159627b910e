"""The rulings each game follows where its rulebook is silent, ambiguous or contradicts itself.

A game's page lists them with the rulebook section each concerns. docs/rulings.md says the
same for readers of the docs; a test keeps the two identical (text in Markdown).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownGame


@dataclass(frozen=True)
class Ruling:
    """One ruling: its topic, the rulebook section, the question and what the engine does."""

    topic: str
    section: str
    question: str
    answer: str


FRISBY: tuple[Ruling, ...] = (
    Ruling(
        "Martian Frisby",
        "Setup",
        "Names of the squares",
        (
            "Files `a` and `b`, ranks `1` to `8`. South starts with nests on a1 and b1, "
            "North on a8 and b8. Each player's goal squares are the other's start "
            "squares."
        ),
    ),
    Ruling(
        "Martian Frisby",
        'Setup: "Choose a player to go first"',
        "How?",
        (
            "A roll of one two-sided die: 1, South starts; 2, North starts. The option "
            "`first_player` names a seat instead."
        ),
    ),
    Ruling(
        "Martian Frisby",
        'Setup: "The loser of each game goes first in the next game"',
        "Matches",
        (
            "Each game stands alone. To follow this rule over a match, create the next "
            "game with `first_player` set to the loser's seat."
        ),
    ),
    Ruling(
        "Martian Frisby",
        "Turn Actions",
        "Doubles",
        ('Two moves of the same length, not four. The rulebook only speaks of using "each die".'),
    ),
    Ruling(
        "Martian Frisby",
        "Turn Actions",
        "Squares between the start and the end of a move",
        (
            "Do not matter: a piece jumps over whatever lies between. Only the "
            "destination is checked."
        ),
    ),
    Ruling(
        "Martian Frisby",
        'Turn Actions: no "undo"',
        "When is a second move an undo?",
        (
            "When the position after both moves equals the position before the turn, "
            "compared square by square as ordered stacks of (colour, size). The same "
            "piece may move twice, in opposite directions, if the position changes."
        ),
    ),
    Ruling(
        "Martian Frisby",
        'Turn Actions: "If you cannot make both moves, you must pass"',
        "Who passes?",
        (
            "The server. If no legal pair exists after the roll, the turn passes "
            "automatically and the player is not asked. There is no partial use of one "
            "die. Typing `pass` while a legal pair exists is refused."
        ),
    ),
    Ruling(
        "Martian Frisby",
        'Turn Actions: "VARIANT: You may" (move between columns)',
        "How exactly?",
        (
            "With `change_columns`, a move of *d* goes from rank *r* to rank *r* ± *d* "
            "in either column, at no extra cost. Everything else is unchanged."
        ),
    ),
    Ruling(
        "Martian Frisby",
        'Goal: "whether your turn is over or not"',
        "A first move that completes the nests",
        (
            "Wins at once. That single move is a complete turn even if no second move "
            "would be legal, and it counts as a legal turn when deciding whether the "
            "player must pass. Writing a second move after a winning first move is "
            "refused."
        ),
    ),
    Ruling(
        "Martian Frisby",
        "Goal",
        "What is a win?",
        (
            "All six of the mover's pieces on its two goal squares. Since sizes must "
            "increase upward, that is exactly the two nests. The engine checks both "
            "players after each turn."
        ),
    ),
    Ruling(
        "Martian Frisby",
        "Laws of the Pyramids: No Stacking",
        "Equal sizes",
        (
            "A piece may only land on an empty square or on a smaller top piece, of "
            "either colour. Equal or larger is refused."
        ),
    ),
)

DICE: tuple[Ruling, ...] = (
    Ruling(
        "Martian Dice",
        "Components",
        "How does a six-sided roll become a Martian die?",
        (
            "Face 1 is a Tank, 2 and 3 are Death Rays, 4 a Human, 5 a Cow, 6 a Chicken: "
            "one Tank, two Rays, one of each earthling, as on the real die."
        ),
    ),
    Ruling(
        "Martian Dice",
        'Introduction: "A game for 2 or more Martians"',
        "How many?",
        "2 to 8 seats.",
    ),
    Ruling(
        "Martian Dice",
        'Getting Started: "Pick a starting player"',
        "How?",
        (
            "A roll of one die with as many faces as there are players: face *k* means "
            "seat *k* − 1 starts. The option `first_player` names a seat instead. A "
            "round starts with the starting player and goes round in seat order."
        ),
    ),
    Ruling(
        "Martian Dice",
        "On Your Turn, step 2",
        "Tanks",
        (
            "Set aside automatically after every roll. A Tank can never be picked; "
            "naming one is refused."
        ),
    ),
    Ruling(
        "Martian Dice",
        "On Your Turn, steps 3 and 4",
        "May a player stop without picking?",
        (
            "No. Whenever something can be picked, the player picks one type (all dice "
            "of it) and, in the same answer, says whether to roll again or stop: `H "
            "roll`, `R stop`."
        ),
    ),
    Ruling(
        "Martian Dice",
        'On Your Turn, step 3: "If you cannot set aside any dice"',
        "Who notices?",
        (
            "The server: when nothing can be picked (only Tanks, or only earthlings "
            "already taken), the turn is scored at once."
        ),
    ),
    Ruling(
        "Martian Dice",
        'On Your Turn, step 1: "If there are no available dice"',
        "A pick that sets aside the last dice",
        ("Ends the turn and scores it; the answer carries no roll-or-stop (`K`, not `K roll`)."),
    ),
    Ruling(
        "Martian Dice",
        "Scoring",
        "Restated",
        (
            "Zero if Tanks outnumber Death Rays. Otherwise one point per Human, Cow and "
            "Chicken set aside, plus 3 if all three kinds are there."
        ),
    ),
    Ruling(
        "Martian Dice",
        "Game End",
        "When exactly does it end?",
        (
            "When a player's total reaches 25 or more, the current round is finished: "
            "every seat that has not yet played in this round plays, then the game "
            "ends. If the last seat of the round triggers it, the game ends at once."
        ),
    ),
    Ruling(
        "Martian Dice",
        'Game End: "each tied player rolls 6 of the Martian Dice"',
        "Order, and a second tie",
        (
            "The tied players roll six dice each, one after the other in seat order; "
            "most Death Rays wins. If the duel ties again, the still-tied players roll "
            "again (`duel_retie = repeat`, the default), until one is left. With "
            "`shared`, the tie stands and they share first place."
        ),
    ),
    Ruling(
        "Martian Dice",
        "Game End",
        "Ranks",
        "By total; among duelists, by each duel round's rays.",
    ),
)

MOVEMENT: tuple[Ruling, ...] = (
    Ruling(
        "Board and pieces",
        "Equipment",
        "Which way is north?",
        (
            "Algebraic squares a1 to h8, a1 at the bottom left: north is towards rank "
            "8, east towards file h. The rulebooks use only compass words; this is the "
            'only orientation that fits Mad Dog\'s "clockwise from one corner" '
            "sentence."
        ),
    ),
    Ruling(
        "Board and pieces",
        "Turn",
        "Directions",
        (
            "Four: north, east, south and west. There are no diagonal steps. The "
            "rulebooks never say so, but the Mad Dog examples describe every push as "
            'orthogonal legs ("west one square and north one square"), a corner square '
            'has "either of the squares" next to it (two neighbours), and the 43-move '
            "minimum in Mad Dog's notes on the length of a game only works out with "
            "orthogonal steps."
        ),
    ),
    Ruling(
        "Board and pieces",
        "Start of Game",
        "Pieces",
        (
            "Every piece starts off the board, in reserve, as a small. A piece is one "
            "token whose size changes (small, medium, large); the stash never runs out."
        ),
    ),
    Ruling(
        "Board and pieces",
        'Start of Game: "Decide order of play"',
        "Who starts?",
        "Seat order as the game was created; the first seat (Red) rolls first.",
    ),
    Ruling(
        "Steps and moves",
        'Turn: "1 move = 1-6 steps"',
        "How many steps does a move take?",
        (
            'Martian Race (v1.1 "allow the wasting of steps"): 1 up to the die\'s '
            "value; steps not taken are lost. Mad Dog, written before that rule: "
            "exactly the die's value. The option `step_usage` (`up_to_die` or `exact`) "
            "chooses. A move always takes at least one step."
        ),
    ),
    Ruling(
        "Steps and moves",
        "Turn",
        "May a move end where it started?",
        (
            "Yes, for example a piece that only turns, provided it may end on that "
            "square. A move may cross a square more than once."
        ),
    ),
    Ruling(
        "Steps and moves",
        "Turn",
        "Doubles",
        'Two moves, not four ("1 turn = 2 moves").',
    ),
    Ruling(
        "Steps and moves",
        'Turn: "the move indicated by each die must be legal"',
        "Order of the dice",
        (
            "The player plays the dice in either order; one piece may use both. The "
            "second move is checked on the board as the first left it, pushes and "
            "growth included."
        ),
    ),
    Ruling(
        "Steps and moves",
        'Turn / "if you can\'t use it, you lose it"',
        "Must a player use both dice?",
        (
            "Yes when possible, as in backgammon: if some pair of legal moves uses both "
            "dice, the player must play such a pair; a first move that would strand the "
            "other die is refused. If only one die can be used, the player plays one "
            "move. A usable die may not be given up."
        ),
    ),
    Ruling(
        "Steps and moves",
        "same",
        "Which die, when only one can be used?",
        (
            "With steps up to the die, only the larger die: any move the smaller die "
            "allows, the larger allows too. With exact steps, either die, unless the "
            "option `bg_larger_die` demands the larger."
        ),
    ),
    Ruling(
        "Steps and moves",
        "same",
        "No die can be used",
        ("The turn is forfeited automatically after the roll; the player is not asked."),
    ),
    Ruling(
        "Squares: gates, one per colour, blocking",
        (
            'Turn: "Only a small piece may end a move on or pass through the Government '
            'Center" (and so on)'
        ),
        "Gates",
        (
            "With `goal_gates` (default on), goal 1 admits only smalls, goal 2 only "
            "mediums, goal 3 only larges, for passing, ending and being pushed there. "
            "Home has no gate."
        ),
    ),
    Ruling(
        "Squares: gates, one per colour, blocking",
        'same, and the example "arrives on a 4, grows, leaves with a 5"',
        "A piece that grew on its gate square",
        (
            "It may turn there and leave with its next move, but may not end a move "
            "there. It does not have to move at once."
        ),
    ),
    Ruling(
        "Squares: gates, one per colour, blocking",
        'Turn: "Only one piece of any one color can occupy the Home, ... at a time"',
        "When is it checked?",
        (
            "With `one_per_colour = always` (default), at every moment: a piece may not "
            "enter, cross, end on, or be pushed onto Home or a goal that already holds "
            "a piece of its colour. With `resting`, only where moves and pushes end. "
            "Entering a new piece while one of yours is on Home is refused either way."
        ),
    ),
    Ruling(
        "Squares: gates, one per colour, blocking",
        "Blocking",
        "Strength",
        (
            "On a square, each colour's strength is 1 per lying piece and 2 per "
            "standing piece; sizes do not count. For a piece of colour K, a square is "
            "**partially blocked** if another colour's strength there is at least "
            "`block_partial_min` (3), and **totally blocked** if at least "
            "`block_total_min` (4). Partial: K may pass through and turn there, but not "
            "end a move or a push there. Total: K may not enter. Your own pieces never "
            "block you."
        ),
    ),
    Ruling(
        "Squares: gates, one per colour, blocking",
        "Blocking (pushed pieces)",
        "Whose blocks apply to a pushed piece?",
        "Those of every colour but the pushed piece's own.",
    ),
    Ruling(
        "Squares: gates, one per colour, blocking",
        (
            'Pushing: "If there are no (non-zero) pushes possible, then the attacker '
            '... may not move onto the square"'
        ),
        "When may a move end on an occupied square?",
        (
            "Only if the square is not blocked for the mover, the gate and "
            "one-per-colour allow it, and every enemy piece there can be pushed at "
            "least one square."
        ),
    ),
    Ruling(
        "Pushes",
        "Pushing",
        "Who is pushed?",
        (
            "A piece that ends a move on a square with enemy pieces pushes every one of "
            "them. Passing through pushes nothing."
        ),
    ),
    Ruling(
        "Pushes",
        'Pushing: "as decided by the owner of the newly arriving Martian"',
        "Who chooses?",
        "The arriving piece's owner chooses the order of the pushes and each path.",
    ),
    Ruling(
        "Pushes",
        "Pushing",
        "Distance",
        (
            "Computed for each occupant. Martian Race formula (`push_formula = MR`): 1, "
            "+1 if the arriving piece is bigger, +1 if it is standing and the occupant "
            "lying. Mad Dog formula (`MD`): 1, +1 if the arriving piece ends standing, "
            "+1 if the occupant is lying, +1 if the arriving piece is bigger."
        ),
    ),
    Ruling(
        "Pushes",
        'Pushing: "Multi-square pushes do not have to be in a straight line"',
        "What is a path?",
        (
            "As many orthogonal steps as the distance, through different squares, never "
            "back to the square pushed from, never off the board. Squares on the way "
            "may not be totally blocked for the pushed piece, and gates and "
            "one-per-colour apply. The last square must be one where the pushed piece "
            "may end. Pushed pieces keep their orientation."
        ),
    ),
    Ruling(
        "Pushes",
        'Pushing: "the push distance is reduced by just enough"',
        "Reduction",
        (
            "If no path of the full distance exists, the longest possible shorter "
            "distance is used, and must be used: the pusher may not choose shorter "
            "still."
        ),
    ),
    Ruling(
        "Pushes",
        'Pushing: "the initial pushee becomes the new pusher"',
        "Chains",
        (
            "A pushed piece that lands among enemies pushes them in turn, with its own "
            "size and orientation, and **its** owner chooses. The game waits for that "
            "player's answer."
        ),
    ),
    Ruling(
        "Pushes",
        ('Pushing (Martian Race is silent; Mad Dog: "handle it like a queue, not a stack")'),
        "Order of a chain",
        "A first-in, first-out queue of arrivals in both games.",
    ),
    Ruling(
        "Pushes",
        'Picking up Stuff: "Push first; then change size"',
        "Growth",
        (
            "After its pushes, a piece standing on its own goal grows (small to medium "
            "at goal 1, medium to large at goal 2) or, at goal 3, finishes and leaves "
            "the board."
        ),
    ),
    Ruling(
        "Pushes",
        "same",
        "A standing piece pushed onto its goal",
        (
            "Grows or finishes too (Mad Dog's End of Move Timing applies \"as part of "
            "some other player's push\"; the engine applies it to Martian Race as "
            "well). Option `growth_on_push_arrival`."
        ),
    ),
    Ruling(
        "Pushes",
        "Winning the Game",
        "When does a player win?",
        (
            "The moment their last piece finishes, even in the middle of a turn or of "
            "another player's push chain."
        ),
    ),
)

RACE: tuple[Ruling, ...] = (
    Ruling(
        "Martian Race",
        'Players: "2-4 players"',
        "Five players?",
        "2 to 5 seats: the pieces table of v1.2 has a row for five.",
    ),
    Ruling(
        "Martian Race",
        "Equipment: the pieces table",
        "Which number when two are allowed?",
        (
            "2 players: 5 each; 3: 4 (or 5); 4: 3 (or 4); 5: 3. The smaller is the "
            "default (`martians` or `more_martians` choose)."
        ),
    ),
    Ruling(
        "Martian Race",
        "Winning the Game",
        "Ranks",
        "The winner ranks first; everyone else shares second place.",
    ),
    Ruling(
        "Martian Race",
        (
            'P.S.: The Mad Dog ("As an option to Martian Race you can try adding the '
            'Mad Dog phase back in")'
        ),
        "What exactly is added?",
        (
            "With `mad_dog_phase`, the Mad Dog phase of [Mad Dog](#the-mad-dog-phase) "
            "is played, with its scoring. The Martian Race push formula stays: the P.S. "
            "adds back only the Dog and the End of Move Timing, not Mad Dog's pushing "
            "calculation."
        ),
    ),
)

MAD_DOG: tuple[Ruling, ...] = (
    Ruling(
        "Mad Dog",
        (
            'Equipment: "Going clockwise from one corner, they are Home, the Kennel, '
            'the Market, the Well. (Home - A7, Well - H2, Market - A2, Kennel - H7)"'
        ),
        (
            "The two statements disagree: clockwise from a7 runs a7, h7, h2, a2, which "
            "puts the Market on h2 and the Well on a2. Which is right?"
        ),
        (
            "The Market, where smalls grow first, is the H-column square (h2), "
            "diagonally across from Home; the Well is the A-column square (a2). This "
            "follows the clockwise sentence, gives the figure-eight route of "
            "History/Design Philosophy, matches the 43-move minimum under Bugs and "
            "Known Issues, and is the layout Martian Race kept (Government Center h2, "
            "Supply Depot a2)."
        ),
    ),
    Ruling(
        "Mad Dog",
        "Settable Parameters",
        (
            "The table labels the square on Home's far side (column H, or G in "
            'Beginning) "Well" in every column'
        ),
        (
            "Mapped the same way: in every preset that square is the Market and the one "
            "on Home's side (column A, or B) the Well (see the presets above). The "
            "names only matter for display."
        ),
    ),
    Ruling(
        "Mad Dog",
        "Turn",
        (
            "The Turn section has only its opening paragraph; the step, entry, gate and "
            "one-per-colour rules are not there"
        ),
        (
            "The engine uses Martian Race's, which was made from Mad Dog v3 with no "
            'change listed for them. One-per-colour is confirmed by the History ("no '
            'more than one piece of a given color on the corner squares").'
        ),
    ),
    Ruling(
        "Mad Dog",
        'Turn: "1 move = 1-6 steps"',
        "Wasting steps?",
        (
            "No: a move uses exactly the die (`step_usage = exact`). Wasting came only "
            "with Martian Race v1.1."
        ),
    ),
    Ruling(
        "Mad Dog",
        'Revision History, v2: "added the triple-block rule"',
        "The rule's text is not in the rulebook",
        (
            "Dice that cannot be used are lost, as in Martian Race, which replaced the "
            'triple-block rule with "if you can\'t use it, you lose it".'
        ),
    ),
    Ruling(
        "Mad Dog",
        'Bugs and Known Issues: "Possibility of a Double Block"',
        "The proposed remedy (blocked players win)",
        "Not implemented: it is a proposal in the History, not a v3.1 rule.",
    ),
    Ruling(
        "Mad Dog",
        "Pushing",
        "Formula",
        (
            "1, +1 if the arriving piece ends standing, +1 if the occupant is lying, +1 "
            "if the arriving piece is bigger."
        ),
    ),
    Ruling(
        "Mad Dog",
        'Settable Parameters: My Faves "1 or 2"',
        "Which reduction?",
        "Chosen at creation with `dog_reduce_by`; the `my_faves` preset uses 1.",
    ),
    Ruling(
        "Mad Dog",
        "Settable Parameters: My Faves blocking 4 / 4",
        "Partial equals total",
        (
            "A strength of 3 is vulnerable and 4 or more blocks totally; there is no "
            'partially blocked square. The rulebook says so ("one standing and one '
            'lying down are vulnerable").'
        ),
    ),
)

DOG_PHASE: tuple[Ruling, ...] = (
    Ruling(
        "The Mad Dog phase",
        "Releasing the Mad Dog",
        "Release",
        (
            "The first player whose last piece finishes wins. That piece stays on goal "
            "3, standing, as the Dog, and the winner controls it. If this happens on "
            "the winner's own move, the rest of their turn is lost."
        ),
    ),
    Ruling(
        "The Mad Dog phase",
        "same",
        "Turns afterwards",
        (
            "Play goes on in seat order. On the winner's turns they roll two dice and "
            "move the Dog, one move per die, with the steps of a large piece (and the "
            "game's step usage). A die the Dog cannot use is lost. Players with no "
            "pieces left in reserve or on the board are skipped."
        ),
    ),
    Ruling(
        "The Mad Dog phase",
        'same, and End of Move Timing ("possibly at their destination corner")',
        "Gates and one-per-colour for the Dog",
        "The Dog ignores both: it may stand on any goal.",
    ),
    Ruling(
        "The Mad Dog phase",
        ('Settable Parameters: "two standing Mothers are still safe from the Mad Dog"'),
        "Blocks and the Dog",
        (
            "The Dog obeys blocking: it may not enter a totally blocked square or end "
            "on a partially blocked one (every colour counts against it)."
        ),
    ),
    Ruling(
        "The Mad Dog phase",
        'End of Move Timing: "Push enemy Mothers (not the Mad Dog)"',
        "Can the Dog be pushed?",
        "Never.",
    ),
    Ruling(
        "The Mad Dog phase",
        "Releasing the Mad Dog (first example)",
        "The Dog ends a move on pieces",
        (
            "Each piece there is attacked first: it loses `dog_reduce_by` sizes, and is "
            "destroyed if it would drop below small. Then the Dog pushes each survivor; "
            "the Dog's controller chooses the paths; the distance uses the game's "
            "formula with the Dog as a large. The Dog may end there only if every piece "
            "would be destroyed or can be pushed."
        ),
    ),
    Ruling(
        "The Mad Dog phase",
        "End of Move Timing",
        "A piece ends a move (or a push) on the Dog's square",
        (
            "In this order: it is attacked; it pushes enemy pieces there (not the Dog); "
            "the Dog pushes it (the controller chooses); it grows or finishes if it is "
            "still there. It may end there only if it would be destroyed, or the Dog "
            "could then push it. Further pushes go into the queue."
        ),
    ),
    Ruling(
        "The Mad Dog phase",
        ('P.S. in Martian Race: "would have to revisit one or more of the goal squares"'),
        "A reduced piece",
        "Heads for the goal of its new size again.",
    ),
    Ruling(
        "The Mad Dog phase",
        "(not stated)",
        "When does the game end?",
        "When every piece of every player has finished or been destroyed.",
    ),
    Ruling(
        "The Mad Dog phase",
        "Tournament or Multi-Game Scoring",
        "Scores and ranks",
        (
            "One point per finished piece; the winner also gets 5, plus 1 per piece of "
            "another player the Dog destroyed (reduced pieces do not count). Players "
            "are ranked by these scores."
        ),
    ),
)

MARTIANOPOLIS: tuple[Ruling, ...] = (
    Ruling(
        "Martianopolis 500",
        'Setup: "twelve chess wedges in a circle ... a circumference of 48 squares"',
        "The shape of the track",
        (
            "A ring 48 columns long and 4 lanes wide: lanes `a` (inner edge) to `d` "
            "(outer edge), columns 1 to 48 in the racing direction. A wedge is taken as "
            "a 4 by 4 section, so twelve of them give 48 by 4, and lanes run straight "
            "across the joins. Squares are written lane then column: `b17`."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        (
            'Setup: the start/finish line, marked "pointing to opposite ends of any '
            'join between two wedges"'
        ),
        "Where?",
        (
            "Between column 48 and column 1. The two marker pyramids stand off the "
            "track and are not obstacles."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        'Play: "Move orthogonally or diagonally forward"',
        "Which steps?",
        (
            "`F`: same lane, next column, 1 point. `I`: one lane inward, next column, 2 "
            "points. `O`: one lane outward, next column, 2 points. No sideways or "
            "backward steps, no steps off either edge."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        'Play: "No more than one racer may be in a given square"',
        "Passing",
        (
            "A step into an occupied square is refused. A diagonal step is allowed even "
            "when both squares beside it are occupied."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        'Setup: "three squares in a single file behind the starting line"',
        "Which squares?",
        (
            "Each player's own lane (seat order gives lanes a, b, c, d; the `lanes` "
            "option changes that), columns 48 (front), 47 and 46, all lying flat, "
            "pointing forward."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        'Setup: "The player may choose the order of the pyramids"',
        "How?",
        (
            "Every player answers `order L M S` (front to back) at the same time and in "
            "secret; the answers are shown when all are in."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        'Setup: "Shuffle and divide the entire deck evenly"',
        "The deck",
        (
            "52 cards, no jokers. With 3 players, one face card (J, Q or K) is set "
            "aside for the whole game before the first deal, chosen at random and "
            "announced: 51 cards, 17 each. Cards are dealt one at a time in seat order; "
            "each hand is a face-down pile."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        ('Setup: "Rank of cards is Ace high ... Values of Aces and face cards are all 10"'),
        "Ranks and values",
        (
            "Ace high, then K, Q, J, 10 down to 2. Ace, King, Queen, Jack and 10 are "
            "worth 10 points of value; 2 to 9 their number. Suits do not matter."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        ('Play: "each player takes a card from the top of their hand, and looks at it"'),
        "The only decision",
        (
            "The server shows each player the top card of their own pile. Each answers "
            "`up` or `down`, at the same time and in secret. Players never choose which "
            "card to play."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        ('Play: "tying players play new cards face-up until all face-up cards differ"'),
        "What happens to the first card?",
        (
            "A tied player's new card replaces the old one, which is discarded. Ties "
            "are by rank. A new card that ties with a player who was not tied pulls "
            "that player into the next round of the tie-break. This repeats until all "
            "ranks in the group differ."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        "Play",
        "Face-up group",
        (
            "Moves first, highest card first. Everyone in it moves by the value of the "
            "**lowest** face-up card. A lone face-up player uses their own card."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        "Play",
        "Face-down group",
        (
            "Its cards are turned over after the face-up group has moved; ties are "
            "broken the same way. It moves highest card first, everyone by the value of "
            "the **highest** face-down card. A lone face-down player uses their own "
            "card."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        "Play",
        "Can a face-up card tie a face-down card?",
        "No: the two groups are settled separately.",
    ),
    Ruling(
        "Martianopolis 500",
        'Play: "A player moves all three pyramids each turn"',
        "Order",
        (
            "One racer at a time, in the order the player chooses; each finishes its "
            "move before the next starts."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        'Play: "twice the value of the movement card, minus the number of pips"',
        "Movement points",
        "2 × value − pips (small 1, medium 2, large 3): from 1 to 19.",
    ),
    Ruling(
        "Martianopolis 500",
        'Play: "All movement points must be used"',
        "Must the whole amount be used?",
        ("Yes: if any path costs exactly the racer's points, the player must choose one."),
    ),
    Ruling(
        "Martianopolis 500",
        'Play: "finds itself unable to move forward with movement points to spare"',
        "Crashing",
        (
            "Only when no exact path exists. The player then chooses any path that ends "
            "where no further step is affordable and legal; the racer stands upright "
            'there and still occupies the square. "Forced off the track" is the same '
            "situation. On its next turn the racer only lies flat again: this is "
            "automatic, and a clause given for it is ignored. The turn after, it moves "
            "normally."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        'Finish and Win: "Race for five laps"',
        "Counting laps",
        (
            "The first crossing of the line is the start, not a lap. The racer on "
            "column 48 travels 48 × laps + 1 squares (241 for five laps); those behind "
            "it one and two more. On the step that completes the last lap, the racer "
            "leaves the track at once and any points left are lost. That step must "
            "itself be legal (its square free)."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        ('Finish and Win: "The player who gets all three pyramids off the track first, wins"'),
        "When?",
        (
            "At once, in the middle of a turn if need be; the rest of the turn is not "
            "played. Other players are ranked by distance covered."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        (
            'Play: "When any player exhausts his or her supply of cards, shuffle the '
            'whole deck, and re-deal"'
        ),
        "When exactly?",
        (
            "At the start of a turn, if any player's pile is empty, all cards (every "
            "pile and the discards) are shuffled and dealt again. Cards played in a "
            "turn, tie-break cards included, go to the discards."
        ),
    ),
    Ruling(
        "Martianopolis 500",
        "same",
        "A pile runs out in the middle of a tie-break",
        (
            "Every card not on the table is shuffled and dealt one at a time from the "
            "first seat; the tie-break goes on. The next start-of-turn check evens the "
            "piles when someone runs out again."
        ),
    ),
)

RULINGS: dict[str, tuple[Ruling, ...]] = {
    "martian-frisby": FRISBY,
    "martian-dice": DICE,
    "martian-race": MOVEMENT + RACE + DOG_PHASE,
    "mad-dog": MOVEMENT + MAD_DOG + DOG_PHASE,
    "martianopolis-500": MARTIANOPOLIS,
}


def rulings_for(kind: str) -> tuple[Ruling, ...]:
    """The rulings of a game kind, in the order docs/rulings.md gives them."""
    if kind not in RULINGS:
        raise UnknownGame(f"unknown game {kind!r}; games: {', '.join(RULINGS)}")
    return RULINGS[kind]
