"""What a seat can do in The Lie. Hidden cards are named by slot (their backs are public)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from fairdeal.engine.resolutions import Ack, Arrangement, Faces, Resolution

__all__ = ["Ack", "Action", "Arrangement", "Claim", "Faces", "Pass", "Play", "Resolution", "Side"]


class Side(StrEnum):
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True, slots=True)
class Claim:
    """T3: take the card in table slot `slot` and add it at the far `side` of one's hand.

    Any seat with fewer cards than a full hand may claim, at any time during Phase 1; the driver
    delivers claims in one order and a slot already taken is refused (SlotTaken). For the first
    card of a hand the side does not matter.
    """

    slot: int
    side: Side = Side.RIGHT


@dataclass(frozen=True, slots=True)
class Play:
    """T5: play the 1-3 cards `slots`, adjacent in one's hand and given left to right.

    The faces must be of one colour (the lead colour unless leading) and form, read left to right,
    a number greater than the trick's best; that is checked once they are revealed, and a play
    they contradict is a Violation by the seat.
    """

    slots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """T5: let one's go in this trick pass (not allowed for the leader)."""


Action = Claim | Play | Pass
