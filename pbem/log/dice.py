"""Committed, auditable chance events (docs/architecture.md §5): HMAC-SHA256 streams.

Scheme 1 names the n-th chance event of a game by n; scheme 2 by the address the rules give
it ("round2/seat1/roll3"), so tables sharing a seed see the same dice in the same position.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator

# A shared stream's name: up to 64 letters, digits, '.', '_' or '-' (a game's own stream is
# its public id).
STREAM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
SCHEMES = (1, 2)
# An address named by the rules: short, printable, and never a bare number (those are scheme 1's).
ADDRESS = re.compile(r"(?=.*[^0-9])[A-Za-z0-9/._-]{1,64}")


def address_for(scheme: int, n: int, named: str | None) -> str:
    """The address of the n-th chance event: n in scheme 1, else the rules' name for it."""
    return str(n) if scheme == 1 or named is None else named


def new_seed() -> str:
    """A fresh secret 32-byte seed, as hex."""
    return secrets.token_hex(32)


def commitment(seed_hex: str) -> str:
    """The public commitment to a seed: sha256 of its 32 bytes."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def byte_stream(seed_hex: str, stream: str, address: int | str) -> Iterator[int]:
    """The bytes of a chance event: HMAC(seed, f"{stream}:{address}:{i}") for i = 0, 1, ..."""
    key = bytes.fromhex(seed_hex)
    i = 0
    while True:
        yield from hmac.new(key, f"{stream}:{address}:{i}".encode(), hashlib.sha256).digest()
        i += 1


def roll(seed_hex: str, stream: str, address: int | str, count: int, sides: int = 6) -> list[int]:
    """The values of `count` dice of `sides` faces for the chance event at an address."""
    limit = 256 - 256 % sides
    values: list[int] = []
    for b in byte_stream(seed_hex, stream, address):
        if len(values) == count:
            break
        if b < limit:
            values.append(b % sides + 1)
    return values


def shuffle(seed_hex: str, stream: str, address: int | str, n: int) -> list[int]:
    """A permutation of 0..n-1: Fisher-Yates from the top with unbiased 4-byte words."""
    order = list(range(n))
    stream_bytes = byte_stream(seed_hex, stream, address)
    for i in range(n - 1, 0, -1):
        bound = i + 1
        limit = 2**32 - 2**32 % bound
        while True:
            word = int.from_bytes(bytes(next(stream_bytes) for _ in range(4)), "big")
            if word < limit:
                break
        j = word % bound
        order[i], order[j] = order[j], order[i]
    return order
