"""Dice Race on the server: its templates, rulings, notation and rulebook, in this folder."""

from __future__ import annotations

from pathlib import Path

from pbem.games import Site

SITE = Site(Path(__file__).parent)
