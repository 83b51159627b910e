"""Martian Frisby stacks: each nested piece told apart by shape and label, not colour alone."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.support import Server, busy_game

pytestmark = pytest.mark.e2e

PLAYERS = ("stacker@example.org", "nester@example.org")
COLOURS = re.compile(r"#[0-9a-f]{6}")

# Colour vision deficiency simulation (Machado, Oliveira and Fernandes 2009, severity 1.0),
# applied to linear RGB.
DEFICIENCIES = {
    "protanopia": ((0.152, 1.053, -0.205), (0.115, 0.786, 0.099), (-0.004, -0.048, 1.052)),
    "deuteranopia": ((0.367, 0.861, -0.228), (0.280, 0.673, 0.047), (-0.012, 0.043, 0.969)),
    "tritanopia": ((1.256, -0.077, -0.179), (-0.078, 0.931, 0.148), (0.005, 0.691, 0.304)),
}


def linear(hex_colour: str) -> tuple[float, ...]:
    """An sRGB colour as linear RGB."""
    channels = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)


def seen_with(deficiency: str, hex_colour: str) -> tuple[float, ...]:
    """The linear RGB a person with the deficiency sees."""
    rgb = linear(hex_colour)
    return tuple(
        min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True))))
        for row in DEFICIENCIES[deficiency]
    )


def mixed_stack(view: dict[str, Any]) -> bool:
    """Whether some square holds pieces of both players, one inside the other."""
    return any(len({p["seat"] for p in stack}) == 2 for stack in view["board"].values())


def test_nested_pieces_are_told_apart_by_stripes_labels_and_a_safe_palette(
    browser: Any, server: Server
) -> None:
    game, _ = busy_game(server, "martian-frisby", PLAYERS, 1, until=mixed_stack)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/games/{game}")
        square = page.locator(".board g[data-square]").filter(has=page.locator(".seat0"))
        square = square.filter(has=page.locator(".seat1")).first
        pieces = square.locator("polygon.piece")
        boxes = [pieces.nth(i).bounding_box() for i in range(pieces.count())]
        fills = [pieces.nth(i).get_attribute("fill") for i in range(pieces.count())]
        classes = [pieces.nth(i).get_attribute("class") for i in range(pieces.count())]
        # Each piece shows, the smaller ones inside the larger, North's striped.
        assert all(box and box["width"] > 10 and box["height"] > 10 for box in boxes)
        for outer, inner in zip(boxes, boxes[1:], strict=False):
            assert outer and inner and inner["height"] < outer["height"]
        for cls, fill in zip(classes, fills, strict=True):
            assert (fill == "url(#frisby-stripes)") == ("seat1" in str(cls))
        # The square names its stack, top first, in text a person can read.
        label = square.locator("text.stack")
        assert label.is_visible()
        text = str(label.text_content())
        assert re.fullmatch(r"([NS][123] )*[NS][123]", text)
        words = text.split()
        assert {w[0] for w in words} == {"N", "S"} and len(words) == pieces.count()
        shot = server.instance / "frisby-stack.png"
        square.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}")
        # The two colours stay apart for the common colour blindnesses.
        south = str(square.locator("polygon.seat0").first.get_attribute("fill"))
        north = str(page.locator(".board pattern#frisby-stripes rect").first.get_attribute("fill"))
        assert COLOURS.fullmatch(south) and COLOURS.fullmatch(north)
        for deficiency in DEFICIENCIES:
            a, b = seen_with(deficiency, south), seen_with(deficiency, north)
            assert sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5 > 0.2, deficiency
    finally:
        context.close()
