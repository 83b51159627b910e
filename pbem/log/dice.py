"""Committed, auditable chance events (DESIGN §4): HMAC-SHA256 byte streams from a seed."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator

# A shared stream's name: up to 64 letters, digits, '.', '_' or '-' (a game's own stream is
# its public id).
STREAM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def new_seed() -> str:
    """A fresh secret 32-byte seed, as hex."""
    return secrets.token_hex(32)


def commitment(seed_hex: str) -> str:
    """The public commitment to a seed: sha256 of its 32 bytes."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def byte_stream(seed_hex: str, stream: str, n: int) -> Iterator[int]:
    """The bytes of the n-th chance event: HMAC(seed, f"{stream}:{n}:{i}") for i = 0, 1, ..."""
    key = bytes.fromhex(seed_hex)
    i = 0
    while True:
        yield from hmac.new(key, f"{stream}:{n}:{i}".encode(), hashlib.sha256).digest()
        i += 1


def roll(seed_hex: str, stream: str, n: int, count: int, sides: int = 6) -> list[int]:
    """The values of `count` dice of `sides` faces for the n-th chance event."""
    limit = 256 - 256 % sides
    values: list[int] = []
    for b in byte_stream(seed_hex, stream, n):
        if len(values) == count:
            break
        if b < limit:
            values.append(b % sides + 1)
    return values


def shuffle(seed_hex: str, stream: str, n_event: int, n: int) -> list[int]:
    """A permutation of 0..n-1: Fisher-Yates from the top with unbiased 4-byte words."""
    order = list(range(n))
    stream_bytes = byte_stream(seed_hex, stream, n_event)
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
