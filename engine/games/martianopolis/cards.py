"""The deck (the rulebook's Setup and Play): cards, their ranks and values, dealing a shuffle."""

from __future__ import annotations

from collections.abc import Iterable

from ...errors import IllegalAction

# A card is an int 0..51: rank = card // 4 + 2 (14 is the ace), suit = card % 4.
DECK = tuple(range(52))
SUITS = "♣♦♥♠"
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
FACE_CARDS = tuple(c for c in DECK if 11 <= c // 4 + 2 <= 13)


def rank(card: int) -> int:
    """Return the card's rank for ordering: 2..14, the ace highest."""
    return card // 4 + 2


def value(card: int) -> int:
    """Return the card's movement value: 10 for A, K, Q, J and 10, else the face value."""
    return min(rank(card), 10)


def card_name(card: int) -> str:
    """Write the card as text: "10♥", "K♠"."""
    return f"{RANK_NAMES.get(rank(card), str(rank(card)))}{SUITS[card % 4]}"


def gatherable(piles: Iterable[Iterable[int]], discards: Iterable[int]) -> tuple[int, ...]:
    """List every card not on the table, in the fixed order a shuffle permutes."""
    return tuple(sorted(card for pile in piles for card in pile) + sorted(discards))


def check_permutation(order: tuple[int, ...], n: int) -> None:
    """Raise IllegalAction unless the order is a permutation of 0..n-1."""
    if sorted(order) != list(range(n)):
        raise IllegalAction(f"a shuffle must order 0..{n - 1} exactly once each")


def deal(
    cards: tuple[int, ...], order: tuple[int, ...], seats: int, active: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """Deal the shuffled cards one at a time to the active seats, the first active seat first."""
    piles: list[list[int]] = [[] for _ in range(seats)]
    for k, i in enumerate(order):
        piles[active[k % len(active)]].append(cards[i])
    return tuple(tuple(p) for p in piles)
