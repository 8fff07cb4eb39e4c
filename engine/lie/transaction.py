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
_new_tuple = tuple.__new__


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
        """The new state, its events and its new requests."""
        values = self.__dict__
        requests = self.requests
        if requests:
            values["pending"] = self.pending + requests
        state = _new(LieState)
        # Filling the new state's own dict keeps its keys shared with every LieState (CPython's
        # key-sharing dicts): 2.5x cheaper than handing it this dict, and faster to read later.
        state.__dict__.update(values)
        return _new_tuple(Step, (state, self.events, requests))  # Step's own __new__, inlined

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


def answered(state: LieState) -> Step:
    """`state` with its first request answered and nothing else changed: the commonest step
    (every claim's Deal is acknowledged), made without a Transaction."""
    next_state = _new(LieState)
    values = next_state.__dict__
    values.update(state.__dict__)
    values["pending"] = state.pending[1:]
    return _new_tuple(Step, (next_state, (), ()))
