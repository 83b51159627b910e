"""The server side of each game: its boards, help, notation, rulings and rulebook.

One folder per game (a sub-package here for the built-in games; any folder for a game in
its own installed package) holds a `Site`, named by the game's registration. Pages and
mails reach a game's templates as `games/<kind>/<file>` through `loader`, and its rulings
through `rulings_for`: nothing outside the folder knows one game from another.
"""

from __future__ import annotations

from .rulings import RULINGS_HEADER, Ruling, parse_rulings, rulings_for
from .site import OPTIONAL_TEMPLATES, TEMPLATES, Site, SiteError, site_for
from .templates import GameTemplates, loader

__all__ = [
    "OPTIONAL_TEMPLATES",
    "RULINGS_HEADER",
    "TEMPLATES",
    "GameTemplates",
    "Ruling",
    "Site",
    "SiteError",
    "loader",
    "parse_rulings",
    "rulings_for",
    "site_for",
]
