"""High card's one action, and its events."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Show:
    """The seat to act turns its card face up (seats show in seat order)."""


Action = Show


@dataclass(frozen=True, slots=True)
class CardShown:
    """`seat`'s card `slot` turned out to be card id `face`."""

    seat: int
    slot: int
    face: int


@dataclass(frozen=True, slots=True)
class Won:
    """Every card is up: `seat` holds the highest, card id `face`."""

    seat: int
    face: int


Event = CardShown | Won
