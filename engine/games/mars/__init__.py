"""The movement system shared by Martian Race and Mad Dog: pieces, steps, blocks and pushes."""

from __future__ import annotations

from .geometry import Params, Piece, parse_square, square_name
from .rules import MarsRules
from .state import MarsState

__all__ = ["MarsRules", "MarsState", "Params", "Piece", "parse_square", "square_name"]
