"""Outside text made one line: the quick path for plain text agrees with the careful one."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from pbem.text import one_line

BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


def careful(text: str) -> str:
    """One line the slow way: every character looked at, every run of whitespace collapsed."""
    kept = "".join(
        " " if unicodedata.category(c) in {"Cc", "Cs", "Zl", "Zp"} or c in BIDI else c
        for c in text
    )
    return re.sub(r"\s+", " ", kept).strip()


TRICKY = st.sampled_from(list(" \t\r\n\x00\x1b\x85\xa0\u2028\u2029\u202e\u2066\u3000\ufeff"))


@given(st.text(st.one_of(st.characters(), TRICKY)))
def test_one_line_agrees_with_the_careful_path(text):
    assert one_line(text) == careful(text)


def test_plain_names_keep_their_single_spaces_and_lose_the_rest():
    assert one_line("  Ann   Lee ") == "Ann Lee"
    assert one_line("Ann\u202e\u2028Lee", 5) == "Ann…"
