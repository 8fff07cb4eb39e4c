"""A mutable working copy of a LieState for one transition, typed like its fields.

Each transition copies the state's field dict once into a Transaction, applies its rule to the
attributes (a claim changes the table, one seat's unplaced card and the pending requests, and
nothing else is copied) and freezes the result into a new LieState by handing the dict over, as
Larry's engine does (engine/larry/transaction.py): one dict copy and one state object per call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairdeal.engine.lie.options import LieOptions
from fairdeal.engine.lie.state import Awaiting, LieState, Phase, TrickPlay
from fairdeal.engine.requests import Request
from fairdeal.engine.step import Step

_new = object.__new__
_set_attribute = object.__setattr__  # LieState is frozen: its dict is set past __setattr__


class Transaction:
    """The next state's fields (LieState's, by name and type), its events and new requests."""

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

    # The transaction's own data lives in slots, so that __dict__ holds exactly the state fields.
    __slots__ = ("__dict__", "events", "requests")

    def __init__(self, state: LieState) -> None:
        self.__dict__ = dict(state.__dict__)  # the fields, shared (every one is immutable)
        # Tuples, not lists: most transitions emit one event and ask nothing, and the Step
        # takes them as they are.
        self.events: tuple[Any, ...] = ()
        self.requests: tuple[Request, ...] = ()

    def emit(self, event: Any) -> None:
        self.events = (*self.events, event)

    def ask(self, request: Request) -> None:
        self.requests = (*self.requests, request)

    def freeze(self) -> Step:
        """The new state. The transaction must not be used afterwards (its dict is handed over)."""
        values = self.__dict__
        requests = self.requests
        if requests:
            values["pending"] = self.pending + requests
        state = _new(LieState)
        _set_attribute(state, "__dict__", values)
        return Step(state, self.events, requests)

    def request_id(self) -> int:
        rid = self.next_request
        self.next_request = rid + 1
        return rid

    def alloc(self, count: int) -> tuple[int, ...]:
        start = self.next_slot
        self.next_slot = start + count
        return tuple(range(start, start + count))

    def set_hand(self, seat: int, hand: tuple[int, ...]) -> None:
        hands = list(self.hands)
        hands[seat] = hand
        self.hands = tuple(hands)

    def set_unplaced(self, seat: int, slot: int | None) -> None:
        unplaced = list(self.unplaced)
        unplaced[seat] = slot
        self.unplaced = tuple(unplaced)
