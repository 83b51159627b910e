"""The server side of a game: the folder of its templates and docs, found through its registration.

A game's registration (engine/games/__init__.py, or an installed package's entry point)
names its site as "module:attribute". The folder holds `templates/` (the boards and the
mail help, see TEMPLATES), the Markdown of its rulings and notation, and its rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import import_module
from pathlib import Path

from engine.games import Registration, registration

# Every game's templates: the board on pages, the board in text mail, the board in HTML
# mail, and how to answer a turn mail. Optional: the move notation's legend on the move page.
TEMPLATES = ("board.html", "board.txt", "mail.html", "howto.txt")
OPTIONAL_TEMPLATES = ("notation.html",)


class SiteError(LookupError):
    """A game has no server side, or its registration names one that is not a Site."""


@dataclass(frozen=True)
class Site:
    """Where one game's templates and docs are, and what its turn mails may promise."""

    folder: Path
    # Markdown, in order: the game's options and rulings, shown on its rules page; the
    # tables headed RULINGS_HEADER are the rulings its game pages list.
    rulings: tuple[str, ...] = ("rulings.md",)
    notation: str = "notation.md"  # how to write moves
    rulebook: str = "rulebook.txt"  # the published rulebook, as text
    # A reply may hold a whole turn; False where a roll falls in the middle of a turn.
    whole_turn_by_reply: bool = True

    def read(self, name: str) -> str:
        """A file of the game's folder, as text."""
        return (self.folder / name).read_text(encoding="utf-8")

    def template(self, name: str) -> Path:
        """The path of one of the game's templates."""
        return self.folder / "templates" / name

    def missing(self) -> list[str]:
        """The files this site names or needs that its folder lacks."""
        wanted = [*self.rulings, self.notation, self.rulebook]
        found = [n for n in wanted if not (self.folder / n).is_file()]
        return found + [f"templates/{n}" for n in TEMPLATES if not self.template(n).is_file()]


@cache
def _loaded(entry: Registration) -> Site:
    if entry.site is None:
        raise SiteError(f"{entry.kind} registers no site (the server side: boards, help, rulings)")
    module, _, name = entry.site.partition(":")
    try:
        found = getattr(import_module(module), name or "SITE")
    except (ImportError, AttributeError) as e:
        raise SiteError(f"{entry.kind}: its site {entry.site!r} cannot be loaded: {e}") from e
    if not isinstance(found, Site):
        raise SiteError(f"{entry.kind}: its site {entry.site!r} is not a pbem.games.Site")
    return found


def site_for(kind: str) -> Site:
    """The site of a game kind (UnknownGame for a kind no one registered, SiteError)."""
    return _loaded(registration(kind))
