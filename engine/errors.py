"""The rules layer's errors: every one is a RulesError."""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every error the engine raises."""


class InvalidAction(RulesError):
    """The text cannot be read as an action of this game."""


class IllegalAction(RulesError):
    """The action is well formed but not allowed now."""


class UnknownGame(RulesError):
    """No rules are registered under that kind."""


class SetupError(RulesError):
    """A game cannot start with these seats or options."""
