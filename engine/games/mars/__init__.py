"""The movement system shared by Martian Race and Mad Dog: pieces, steps, blocks and pushes."""

from __future__ import annotations

from .game import MarsRules, MarsState
from .geometry import Params, Piece, parse_square, square_name

__all__ = ["MarsRules", "MarsState", "Params", "Piece", "parse_square", "square_name"]
