"""A folded tournament as JSON and back, exactly: what a stored fold holds.

`dump(t)` gives plain JSON values (each record a list of its fields in order, times as ISO
text) and `load(dump(t)) == t`, field for field and type for type. The codec is derived
from the model's own field types, so a field added to the model is stored without more
code; `SHAPE` names the model's fields and types, so a fold stored under another shape of
the model is never read back (the caller folds the log again instead).
"""

from __future__ import annotations

import dataclasses
import hashlib
import types
import typing
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from . import model
from .model import Tournament

Codec = Callable[[Any], Any]
PLAIN = (str, int, float, bool, type(None))


def _same(value: Any) -> Any:
    return value


def _iso(value: datetime) -> str:
    return value.isoformat()


def _codecs(kind: Any, seen: dict[type, tuple[Codec, Codec]]) -> tuple[Codec, Codec, str]:
    """The encoder and decoder of values of this type, and the type's description."""
    if kind is Any or kind in PLAIN:
        return _same, _same, getattr(kind, "__name__", "Any")
    if kind is datetime:
        return _iso, datetime.fromisoformat, "datetime"
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _record(kind, seen)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if all(a in PLAIN for a in args):
            return _same, _same, " | ".join(a.__name__ for a in args)
        if len(inner) == 1 and len(args) == 2:
            enc, dec, name = _codecs(inner[0], seen)
            return ((lambda v: None if v is None else enc(v)),
                    (lambda v: None if v is None else dec(v)), f"{name} | None")
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        enc, dec, name = _codecs(args[0], seen)
        if enc is _same and dec is _same:
            return list, tuple, f"tuple[{name}, ...]"
        return ((lambda v: [enc(x) for x in v]), (lambda v: tuple(dec(x) for x in v)),
                f"tuple[{name}, ...]")
    if origin is tuple:
        parts = [_codecs(a, seen) for a in args]
        return ((lambda v: [p[0](x) for p, x in zip(parts, v, strict=True)]),
                (lambda v: tuple(p[1](x) for p, x in zip(parts, v, strict=True))),
                f"tuple[{', '.join(p[2] for p in parts)}]")
    if origin in (Mapping, dict) and args[0] is str:
        enc, dec, name = _codecs(args[1], seen)
        return ((lambda v: {k: enc(x) for k, x in v.items()}),
                (lambda v: {k: dec(x) for k, x in v.items()}), f"Mapping[str, {name}]")
    raise TypeError(f"a stored fold cannot hold a {kind!r}")


def _record(cls: type, seen: dict[type, tuple[Codec, Codec]]) -> tuple[Codec, Codec, str]:
    """A dataclass as the list of its fields, in order."""
    if cls in seen:  # described once: the shape names each record's fields where it is first
        return seen[cls][0], seen[cls][1], cls.__name__
    hints = typing.get_type_hints(cls, vars(model))
    names = [f.name for f in dataclasses.fields(cls)]
    parts: list[tuple[Codec, Codec, str]] = []
    # Only the fields that are not plain JSON are converted: a fold holds thousands of records.
    encoders: list[tuple[int, Codec]] = []
    decoders: list[tuple[int, Codec]] = []

    def encode(value: Any) -> list[Any]:
        out = [getattr(value, n) for n in names]
        for i, enc in encoders:
            out[i] = enc(out[i])
        return out

    def decode(values: list[Any]) -> Any:
        if len(values) != len(names):
            raise ValueError(f"a stored {cls.__name__} has {len(values)} fields, not "
                             f"{len(names)}")
        values = list(values)
        for i, dec in decoders:
            values[i] = dec(values[i])
        if direct:  # as the constructor sets them, without its frozen setattr per field
            record: Any = new(cls)
            record.__dict__.update(zip(names, values, strict=True))
            return record
        return cls(*values)

    # A plain dataclass's fields are all its constructor sets (nothing checked after).
    direct = not hasattr(cls, "__post_init__") and not hasattr(cls, "__slots__")
    new = object.__new__
    seen[cls] = (encode, decode)
    parts.extend(_codecs(hints[n], seen) for n in names)
    encoders.extend((i, p[0]) for i, p in enumerate(parts) if p[0] is not _same)
    decoders.extend((i, p[1]) for i, p in enumerate(parts) if p[1] is not _same)
    fields = ", ".join(f"{n}: {p[2]}" for n, p in zip(names, parts, strict=True))
    return seen[cls][0], seen[cls][1], f"{cls.__name__}({fields})"


_encode, _decode, _shape = _codecs(Tournament, {})
SHAPE = hashlib.sha256(_shape.encode()).hexdigest()[:16]


def dump(t: Tournament) -> list[Any]:
    """The tournament as JSON values."""
    return typing.cast(list[Any], _encode(t))


def load(data: list[Any]) -> Tournament:
    """The tournament that `dump` gave these values for."""
    return typing.cast(Tournament, _decode(data))
