"""Templates named games/<kind>/<file>, read from the folder of that game's site."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, TemplateNotFound

import engine

from .site import SiteError, site_for


class GameTemplates(BaseLoader):
    """Find `games/<kind>/<file>` in `templates/` of the kind's site folder."""

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        """The source of a game's template, its path, and whether it is still current."""
        pieces = template.split("/")
        if len(pieces) != 3 or pieces[0] != "games" or pieces[2] in ("", ".", ".."):
            raise TemplateNotFound(template)
        try:
            path = site_for(pieces[1]).template(pieces[2])
        except (engine.UnknownGame, SiteError) as e:
            raise TemplateNotFound(template, f"{template}: {e}") from e
        if not path.is_file():
            raise TemplateNotFound(template, f"{template}: {path} does not exist")
        mtime = path.stat().st_mtime
        return path.read_text(encoding="utf-8"), str(path), lambda: _mtime(path) == mtime


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def loader(folder: Path) -> BaseLoader:
    """The pages and mails in `folder`, then every game's own templates."""
    return ChoiceLoader([FileSystemLoader(folder), GameTemplates()])
