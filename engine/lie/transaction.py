"""A mutable working copy of a LieState for one transition, typed like its fields.

The idiom is every game's (engine/transaction.py): each transition copies the state's field dict
once, applies its rule to the attributes (a claim changes the table, one seat's unplaced card and
the pending requests, and nothing else is copied) and freezes the result into a new LieState.
"""

from __future__ import annotations

from collections.abc import Mapping

from fairdeal.engine import transaction
from fairdeal.engine.lie.events import Event
from fairdeal.engine.lie.options import LieOptions
from fairdeal.engine.lie.state import Awaiting, LieState, Phase, TrickPlay
from fairdeal.engine.requests import Request
from fairdeal.engine.step import Step
from fairdeal.engine.transaction import answered

__all__ = ["LieStep", "Transaction", "answered"]


LieStep = Step[LieState, Event]  # what every transition of the game returns


class Transaction(transaction.Transaction[LieState, Event]):
    """The next state's fields (LieState's, by name and type), its events and new requests."""

    state_type = LieState
    players: int
    options: LieOptions
    phase: Phase
    round_no: int
    backs: Mapping[int, int]
    layout: tuple[int, ...]
    table: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    unplaced: tuple[int | None, ...]
    first_done: int | None
    prize_pile: tuple[int, ...]
    prizes: tuple[tuple[int, ...], ...]
    discard: tuple[int, ...]
    trick_no: int
    trick: tuple[TrickPlay, ...]
    order: tuple[int, ...]
    position: int
    lead_colour: int | None
    best: int
    best_seat: int | None
    placement: tuple[int, ...]
    revealed: Mapping[int, int]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    next_slot: int
    next_request: int
    pending: tuple[Request, ...]
    awaiting: Awaiting | None

    __slots__ = ()

    def set_hand(self, seat: int, hand: tuple[int, ...]) -> None:
        hands = list(self.hands)
        hands[seat] = hand
        self.hands = tuple(hands)

    def set_unplaced(self, seat: int, slot: int | None) -> None:
        unplaced = list(self.unplaced)
        unplaced[seat] = slot
        self.unplaced = tuple(unplaced)
