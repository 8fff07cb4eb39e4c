"""What happened, as small frozen dataclasses (h11 style). Seats are ints, cards are card ids."""

from __future__ import annotations

from dataclasses import dataclass

from fairdeal.engine.events import Violation
from fairdeal.engine.larry.cards import CardKind


@dataclass(frozen=True, slots=True)
class HandStarted:
    hand: int
    first_seat: int  # L5
    cards_per_player: int  # L3


@dataclass(frozen=True, slots=True)
class PickedUp:
    """`seat` drew `count` cards (fewer than asked only when both piles ran out, L14)."""

    seat: int
    count: int
    reason: str  # "doubt", "over_limit", "pick_up_2", "larry"


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """L14: the discard pile became the new pick-up pile."""

    count: int


@dataclass(frozen=True, slots=True)
class PlayedFaceDown:
    seat: int
    slot: int
    announce: int
    larry: bool


@dataclass(frozen=True, slots=True)
class PlayedFaceUp:
    """A face-up card, revealed as `card`; `total` is the announced total afterwards."""

    seat: int
    slot: int
    card: int
    claim: CardKind
    target: int | None
    total: int
    larry: bool


@dataclass(frozen=True, slots=True)
class CardGiven:
    """L11: `slot` went from `seat` to `target` (its face stays hidden from the others)."""

    seat: int
    target: int
    slot: int


@dataclass(frozen=True, slots=True)
class DirectionChanged:
    """L4/L13: the limit card flipped."""

    direction: int
    limit: int


@dataclass(frozen=True, slots=True)
class ObligationPlaced:
    """L12: `target` must play their next own card face-up."""

    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class OverLimit:
    """L12: a face-up number card pushed the total above the limit."""

    seat: int
    total: int
    limit: int


@dataclass(frozen=True, slots=True)
class Doubted:
    seat: int
    last_player: int


@dataclass(frozen=True, slots=True)
class DoubtResolved:
    """L9 (and L16 for a final doubt): the pile's true `total` against the `announced` one."""

    doubter: int
    last_player: int
    announced: int
    total: int
    gloats: int
    correct: bool
    loser: int
    cards: tuple[int, ...]  # the pile's faces, in play order
    # The seat that played each pile card, parallel to `cards`: what a doubt proves about whom
    # (a table's DoubtVerification) needs no replay of the hand to find it.
    played_by: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LarryPenalty:
    """L15: `seat` was left with one card and did not call "Larry"."""

    seat: int


@dataclass(frozen=True, slots=True)
class WentOut:
    """L16: `seat` played its last card; the next seat may doubt (`final_doubt`) or not."""

    seat: int
    final_doubt: bool


@dataclass(frozen=True, slots=True)
class OutAccepted:
    """L16: `seat` did not doubt the player who went out."""

    seat: int


@dataclass(frozen=True, slots=True)
class HandScored:
    """L17: scores of this hand and running totals."""

    hand: int
    out_seat: int
    hand_scores: tuple[int, ...]
    totals: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]  # the faces left in each hand


@dataclass(frozen=True, slots=True)
class GameOver:
    """L18: the winners (several when they share the win)."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]


Event = (
    HandStarted
    | PickedUp
    | Reshuffled
    | PlayedFaceDown
    | PlayedFaceUp
    | CardGiven
    | DirectionChanged
    | ObligationPlaced
    | OverLimit
    | Doubted
    | DoubtResolved
    | LarryPenalty
    | WentOut
    | OutAccepted
    | HandScored
    | GameOver
    | Violation
)
