"""The template environments the board tests render with: a plain one, and the server's own."""

from __future__ import annotations

from jinja2 import Environment

from pbem.config import TEMPLATES
from pbem.games import loader
from pbem.mail.compose import templates

ENVIRONMENTS = {
    "plain": Environment(loader=loader(TEMPLATES), autoescape=True),
    "server": templates,
}
