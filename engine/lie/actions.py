"""What a seat can do in The Lie. Hidden cards are named by slot (their backs are public)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from fairdeal.engine.errors import UnknownAction
from fairdeal.engine.records import quick_init
from fairdeal.engine.requests import Ack, Arrangement, Faces, Resolution

__all__ = [
    "Ack",
    "Action",
    "Arrangement",
    "Claim",
    "Faces",
    "Pass",
    "Place",
    "Play",
    "Resolution",
    "Side",
    "side_of",
]


class Side(StrEnum):
    LEFT = "left"
    RIGHT = "right"


_SIDE_NAMES = frozenset({"left", "right"})


def side_of(seat: int, value: object) -> Side:
    """The side a Place names, or UnknownAction naming `seat`: a Place is built from anything
    (a list, a map), and only the two sides' names are a side."""
    if not isinstance(value, str) or value not in _SIDE_NAMES:
        raise UnknownAction(seat, f"side must be left or right, not {value!r:.40}")
    return Side(value)


@quick_init
@dataclass(frozen=True, slots=True)
class Claim:
    """T3: take the card in table slot `slot`; its front is dealt to the claimer alone.

    Any seat with fewer cards than a full hand and no card left to place may claim, at any time
    during Phase 1; the driver delivers claims in one order and a slot already taken is refused
    (SlotTaken). The side is chosen afterwards, by Place, once the front is known; the first
    card of a hand just starts it (the engine places it when its Deal is answered).
    """

    slot: int


@quick_init
@dataclass(frozen=True, slots=True)
class Place:
    """T3: add the card one took, whose front one now knows, at the far `side` of one's hand.

    Needed from a hand's second card on; the next card is claimed only after this one is placed.
    """

    side: Side


@quick_init
@dataclass(frozen=True, slots=True)
class Play:
    """T5: play the 1-3 cards `slots`, adjacent in one's hand and given left to right.

    The faces must be of one colour (the lead colour unless leading) and form, read left to right,
    a number greater than the trick's best; that is checked once they are revealed, and a play
    they contradict is a Violation by the seat.
    """

    slots: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Pass:
    """T5: let one's go in this trick pass (not allowed for the leader)."""


Action = Claim | Place | Play | Pass
