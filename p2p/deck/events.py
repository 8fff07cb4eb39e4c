"""What a `DeckSession` tells its driver (frozen dataclasses, like h11's events)."""

from __future__ import annotations

from dataclasses import dataclass

from .group import Point
from .messages import Slot


@dataclass(frozen=True)
class KeysReady:
    """Every seat's key is in and proved; `joint` is Y = Σ Y_i."""

    joint: Point


@dataclass(frozen=True)
class ShuffleApplied:
    """`seat`'s shuffle is the deck of `list_id` now. Its proof holds, or, with a parallel
    executor, is being checked on the worker: `ListReady` waits for every check of the chain."""

    list_id: str
    seat: int


@dataclass(frozen=True)
class ListReady:
    """Every seat has shuffled `list_id` and every shuffle is verified; its slots can be dealt
    and revealed."""

    list_id: str
    size: int


@dataclass(frozen=True)
class CardDealt:
    """Every share but the owner's is public. `card` is the face, in the owner's session only."""

    slot: Slot
    owner: int
    card: int | None


@dataclass(frozen=True)
class CardReceived:
    """This seat received (privately) the shares of a card given away to it, and its face."""

    slot: Slot
    giver: int
    card: int


@dataclass(frozen=True)
class CardRevealed:
    """Every share is public and proved: the face of `slot` is `card` for everyone."""

    slot: Slot
    card: int


@dataclass(frozen=True)
class CoinFlipped:
    coin_id: str
    seed: bytes


DeckEvent = (
    KeysReady | ShuffleApplied | ListReady | CardDealt | CardReceived | CardRevealed | CoinFlipped
)
