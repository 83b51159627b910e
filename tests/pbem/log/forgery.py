"""A careful forger's tool: rebuild the hash chain of an edited export."""

from __future__ import annotations

import hashlib
from typing import Any

from pbem.log.chain import canonical_json

Lines = list[Any]


def rechain(lines: Lines) -> Lines:
    """Recompute every hash, as a careful forger would (a commitment stands for its payload)."""
    previous = "0" * 64
    for event in lines[1:]:
        if not isinstance(event, dict):
            continue
        payload = {"commit": event["commit"]} if "commit" in event else event.get("payload")
        body = canonical_json({"seq": event.get("seq"), "kind": event.get("kind"),
                               "seat": event.get("seat"), "payload": payload,
                               "at": event.get("at")})
        text = f"{previous}\n{body}".encode("utf-8", "surrogatepass")
        previous = hashlib.sha256(text).hexdigest()
        event["hash"] = previous
    return lines
