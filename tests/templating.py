"""The template environments the board tests render with: a plain one, and the server's own."""

from __future__ import annotations

from jinja2 import Environment, FileSystemLoader

from pbem.config import TEMPLATES
from pbem.mail.compose import templates

ENVIRONMENTS = {
    "plain": Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True),
    "server": templates,
}
