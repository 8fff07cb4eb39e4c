"""Card points per deck id: M_c = Hp("card"; deck id, c), RFC 9496 element derivation of the
hash (protocol.md §6.3), and the way back.

Nobody knows the discrete log of a card point, so masked cards cannot be linked. A `CardTable`
maps each card point of one deck id back to its card id.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from .group import Point, hash_to_point, text, u64

MAX_CARD_ID = 2**16 - 1


@lru_cache(maxsize=1 << 14)
def card_point(deck_id: str, card: int) -> Point:
    """M_c for card id `card` of deck `deck_id` (protocol.md §6.3)."""
    if not 0 <= card <= MAX_CARD_ID:
        raise ValueError(f"card id {card} outside [0, {MAX_CARD_ID}]")
    return hash_to_point(b"card", text(deck_id), u64(card))


@dataclass(frozen=True)
class CardTable:
    """The points of a set of cards of one deck id, and the lookup point → card id."""

    deck_id: str
    by_point: dict[Point, int]

    @classmethod
    def of(cls, deck_id: str, cards: Iterable[int]) -> CardTable:
        table = {card_point(deck_id, c): c for c in cards}
        return cls(deck_id, table)

    def card_of(self, point: Point) -> int | None:
        """The card id whose point this is, or None when it is no card of this table."""
        return self.by_point.get(point)
