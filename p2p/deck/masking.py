"""ElGamal masking of card points under the joint key Y: (A, B) = (r·G, M + r·Y).

The starting deck uses r = 1 publicly, so every seat computes it alone. Unmasking subtracts the
decryption shares x_i·A of every seat: M = B − Σ x_i·A.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import wire
from .group import G, Point, add, linear_combination, mul, mul_base, point_sum, sub


@dataclass(frozen=True)
class MaskedCard:
    a: Point
    b: Point

    def to_data(self) -> list[bytes]:
        return [self.a, self.b]

    @classmethod
    def from_data(cls, data: object, what: str = "masked card") -> MaskedCard:
        pair = wire.sequence(data, what, wire.point, length=2)
        return cls(pair[0], pair[1])

    def rerandomise(self, r: int, joint: Point) -> MaskedCard:
        """(A + r·G, B + r·Y): the same card, unlinkable without the keys. For A = G (the public
        starting deck) A + r·G is (1 + r)·G, one base multiplication and no addition."""
        a = linear_combination(((1, self.a), (r, G))) if self.a == G else add(self.a, mul_base(r))
        return MaskedCard(a, add(self.b, mul(r, joint)))


def open_mask(card: MaskedCard, shares: list[Point]) -> Point:
    """M = B − Σ d_i for the decryption shares d_i = x_i·A of every seat."""
    return sub(card.b, point_sum(shares))


def initial_deck(card_points: list[Point], joint: Point) -> list[MaskedCard]:
    """The public starting deck (G, M_c + Y), r = 1."""
    return [MaskedCard(G, add(m, joint)) for m in card_points]


def masked_list_to_data(cards: list[MaskedCard]) -> list[list[bytes]]:
    return [c.to_data() for c in cards]


def masked_list_from_data(data: object, what: str, length: int | None = None) -> list[MaskedCard]:
    return wire.sequence(data, what, MaskedCard.from_data, length)
