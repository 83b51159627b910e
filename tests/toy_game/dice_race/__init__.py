"""Dice Race: roll two dice, move by the one you choose, first to the finish wins.

The registration pbem finds through this package's entry point (group `pbem.games`): the
rules (pure, `dice_race.rules`) and the server side (`dice_race.site`, boards and docs).
"""

from __future__ import annotations

from engine import Registration

GAME = Registration("dice-race", rules="dice_race.rules", site="dice_race.site:SITE")
