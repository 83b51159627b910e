"""Mutated exports through parse_export, verify and import: a clear error, never a traceback.

Each example changes a genuine export of a finished game (a value anywhere replaced by any
JSON, a key dropped or added, lines dropped, doubled or swapped, bytes of the text
changed) and, half the time, rebuilds the hash chain as a careful forger would, so that the
change reaches the checks behind the chain.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.log import audit, export

from .forgery import rechain

VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**65), max_value=2**65)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["", "\ud800", "0" * 64, "ab" * 40, "setup", "reveal", "move", "bot"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=6,
)
# Each edit: what to do, which line, which key (by position), a value, a byte.
EDITS = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 10_000), st.integers(0, 100), VALUES,
              st.binary(min_size=1, max_size=4)),
    min_size=1,
    max_size=3,
)


def keys_of(value: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) inside a JSON value, outermost first."""
    found: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        item = stack.pop(0)
        if isinstance(item, dict | list):
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for key, inner in list(pairs):
                found.append((item, key))
                stack.append(inner)
    return found


def mutate(text: str, edits: list[tuple[int, int, int, Any, bytes]], chained: bool) -> bytes:
    """A genuine export with the edits applied (as JSON, or to its bytes)."""
    lines: list[Any] = [json.loads(line) for line in text.splitlines()]
    raw_edits = []
    for what, line, key, value, byte in edits:
        at = line % len(lines)
        places = keys_of(lines[at])
        if what == 0 and places:
            container, k = places[key % len(places)]
            container[k] = value
        elif what == 1 and places:
            container, k = places[key % len(places)]
            del container[k]
        elif what == 2 and isinstance(lines[at], dict):
            lines[at][f"k{key}"] = value
        elif what == 3 and len(lines) > 1:
            del lines[at]
        elif what == 4:
            lines.insert(at, lines[(key * 7) % len(lines)])
        elif what == 5:
            lines[at], lines[key % len(lines)] = lines[key % len(lines)], lines[at]
        else:
            raw_edits.append((line, byte))
    if chained:
        rechain(lines)
    data = bytearray(
        "\n".join(json.dumps(line) for line in lines).encode("utf-8", "surrogatepass")
    )
    for line, byte in raw_edits:
        at = line % (len(data) + 1)
        data[at:at] = byte
    return bytes(data)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["frisby", "martianopolis"]), edits=EDITS, chained=st.booleans())
def test_a_mutated_export_is_read_and_verified_or_refused_cleanly(finished_exports, kind, edits,
                                                                  chained):
    data = mutate(finished_exports[kind], edits, chained)
    try:
        header, log = export.parse_export(data.decode("utf-8", "replace"))
    except ValueError as e:
        assert "line " in str(e) or "empty" in str(e)
        return
    report = audit.verify(header, log)
    assert report.ok or report.first_problem is not None


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                  HealthCheck.too_slow])
@given(kind=st.sampled_from(["frisby", "martianopolis"]), edits=EDITS, chained=st.booleans())
def test_importing_a_mutated_export_succeeds_or_says_why(app, runner, tmp_path, finished_exports,
                                                         kind, edits, chained):
    path = Path(tmp_path) / "mutated.jsonl"
    path.write_bytes(mutate(finished_exports[kind], edits, chained))

    result = runner.invoke(args=["import", str(path)])

    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception}"
    )
    assert result.exit_code in (0, 1), result.output
    if result.exit_code == 0:
        checked = runner.invoke(args=["verify", result.output.strip()])
        assert checked.exit_code == 0, checked.output
