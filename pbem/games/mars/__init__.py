"""Martian Race and Mad Dog on the server: one board and notation, each its rulings and rulebook.

Both games use the movement system, so they share the templates and the notation; their
rulings share the movement system's and the Mad Dog phase's sections.
"""

from __future__ import annotations

from pathlib import Path

from ..site import Site

FOLDER = Path(__file__).parent

MARTIAN_RACE = Site(
    FOLDER,
    rulings=("movement.md", "martian-race.md", "dog-phase.md"),
    rulebook="martian-race.txt",
)
MAD_DOG = Site(
    FOLDER,
    rulings=("movement.md", "mad-dog.md", "dog-phase.md"),
    rulebook="mad-dog.txt",
)
