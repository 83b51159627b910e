"""Martian Frisby v1.0: race a nest of pyramids down two columns with two dice."""

from __future__ import annotations

from .board import index, move_error
from .rules import RULES, VERSIONS, MartianFrisby
from .state import FrisbyState

__all__ = ["RULES", "VERSIONS", "FrisbyState", "MartianFrisby", "index", "move_error"]
