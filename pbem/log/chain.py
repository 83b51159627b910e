"""The hash chain (docs/architecture.md §4): canonical JSON, each hash, checking a log.

Log format 1 chains every payload as it is. Format 2 chains a salted commitment in place of
the payload of a secret event, `{"commit": sha256(salt + canonical_json(payload))}`, so that
the public chain verifies at every moment while a secret answer with few possible values
cannot be found by trying each one against the published hashes.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

GENESIS = "0" * 64


def canonical_json(obj: Any) -> str:
    """The one JSON text of a value that every hash is computed over (strict: no NaN)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def chain_hash(previous: str, seq: int, kind: str, seat: int | None, payload: Any, at: str) -> str:
    """hash[n] = sha256(hash[n-1] + "\\n" + canonical_json({seq, kind, seat, payload, at}))."""
    body = canonical_json({"seq": seq, "kind": kind, "seat": seat, "payload": payload, "at": at})
    return hashlib.sha256(f"{previous}\n{body}".encode()).hexdigest()


def new_salt() -> str:
    """A fresh random 32-byte salt for a secret event, as hex."""
    return secrets.token_hex(32)


def commitment(salt: str, payload: Any) -> str:
    """The commitment to a secret payload: sha256(salt bytes + canonical_json(payload)), hex."""
    return hashlib.sha256(bytes.fromhex(salt) + canonical_json(payload).encode()).hexdigest()


def now_text() -> str:
    """The current UTC time as the ISO 8601 text stored in events."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


class Chained(Protocol):
    """What the chain covers of an event, whatever log it belongs to."""

    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def at(self) -> str: ...
    @property
    def hash(self) -> str: ...
    @property
    def covered(self) -> Any:
        """The payload, or {"commit": ...} in its place for a secret event of format 2."""
    @property
    def commitment_problem(self) -> str | None:
        """Why a revealed payload does not match the commitment shown with it, if it does not."""


@dataclass(frozen=True)
class ChainProblem:
    """The first place a log fails its checks."""

    seq: int
    reason: str


def check_chain(log: Sequence[Chained]) -> ChainProblem | None:
    """Recompute every hash; name the first seq whose hash or numbering is wrong."""
    previous = GENESIS
    for expected, entry in enumerate(log):
        if entry.seq != expected:
            return ChainProblem(entry.seq, f"expected seq {expected}, found {entry.seq}")
        problem = entry.commitment_problem
        if problem is not None:
            return ChainProblem(entry.seq, problem)
        digest = chain_hash(previous, entry.seq, entry.kind, entry.seat, entry.covered, entry.at)
        if digest != entry.hash:
            return ChainProblem(entry.seq, "hash does not match the event's content")
        previous = digest
    return None
