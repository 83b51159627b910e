"""Martian Frisby on the server: its boards, mail help, notation, rulings and rulebook."""

from __future__ import annotations

from pathlib import Path

from ..site import Site

SITE = Site(Path(__file__).parent)
