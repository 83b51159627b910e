"""Martian Dice on the server: its boards, mail help, notation, rulings and rulebook."""

from __future__ import annotations

from pathlib import Path

from ..site import Site

# The next decision of a turn depends on a roll not yet made: a reply holds one decision.
SITE = Site(Path(__file__).parent, whole_turn_by_reply=False)
