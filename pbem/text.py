"""Outside text made safe to keep: one line for names and headers, bounded to fit its column."""

from __future__ import annotations

import re
import unicodedata

# Controls, line and paragraph separators, lone surrogates (from undecodable mail bytes or
# JSON escapes: no database stores them) and the bidirectional overrides that make a name
# read backwards. Whitespace of any kind becomes one space.
_DROP = {"Cc", "Cs", "Zl", "Zp"}
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
_SPACES = re.compile(r"\s+")


def bounded(text: str, limit: int) -> str:
    """The text cut to at most `limit` characters, marked with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def one_line(text: str, limit: int | None = None) -> str:
    """The text on one line: no control or format tricks, spaces collapsed, at most `limit`."""
    text = str(text)
    if text.isprintable():  # the common case: no control, separator or format character
        line = " ".join(text.split())  # the only whitespace left is the plain space
    else:
        kept = "".join(
            " " if unicodedata.category(c) in _DROP or c in _BIDI else c for c in text
        )
        line = _SPACES.sub(" ", kept).strip()
    return bounded(line, limit) if limit is not None else line


def json_storable(data: object) -> bool:
    """Whether every string in a JSON value encodes as UTF-8 (no database keeps a surrogate)."""
    stack = [data]
    while stack:  # not recursive: a value nested a thousand deep must not overflow the stack
        value = stack.pop()
        if isinstance(value, dict):
            stack += [*value.keys(), *value.values()]
        elif isinstance(value, list):
            stack += value
        elif isinstance(value, str) and storable(value) != value:
            return False
    return True


def storable(text: str) -> str:
    """Text any database stores: lone surrogates replaced, NUL removed, lines kept."""
    return text.encode("utf-8", "replace").decode("utf-8").replace("\x00", "")
