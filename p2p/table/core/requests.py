"""The fair-deck request server: which engine request the table serves, as a state machine.

Every game's engine asks the table for the same few things (engine/requests.py): a new or
reshuffled deck, a deal, a reveal, a give-away (`Transfer`), a joint coin that arranges slots
(`Arrange`). The table serves `pending[0]` (a run of `Deal`s at once) until the deck has what
the engine needs, answers the engine, and takes the next one (protocol.md 10.3-10.10).

Like h11's `_state.py`, the machine is its transition table, `TRANSITIONS`: a mapping
(state, event) -> next state, and nothing else moves it. An event with no entry for the
current state raises `ServiceStateError` naming both, and changes nothing. The table's code
decides *when* an event happens (a list is ready, every share is in); this module decides
whether it may. docs/state-machines/request-server.md is drawn from `TRANSITIONS`
(`python -m fairdeal.p2p.diagrams`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from fairdeal.engine import requests as asked
from fairdeal.engine.requests import Request, Transfer
from fairdeal.p2p.deck import Slot


class ServiceState(StrEnum):
    """What the server waits for. The values are the words the table's code used before."""

    IDLE = "idle"  # nothing pending, or the next request not begun yet
    SHUFFLE = "shuffle"  # every seat's shuffle of each list, in seat order
    SHARES = "shares"  # the shares of a deal or a reveal, from each seat that owes some
    RECEIPT = "receipt"  # a give-away's receipt, once the receiver has its forward
    COIN = "coin"  # a joint coin's commitments, then its reveals, in seat order
    DEALING = "dealing"  # cards dealt inside a game's own steps (their shares ride in them)


class ServiceEvent(StrEnum):
    """What moves the server: a request begun, an envelope applied, a request served."""

    SHUFFLE_ASKED = "NewDeck / Reshuffle"  # and their grouped forms (one list per back)
    DEAL_ASKED = "Deal"
    REVEAL_ASKED = "Reveal"
    TRANSFER_ASKED = "Transfer"
    ARRANGE_ASKED = "Arrange"
    STEP_DEAL_ASKED = "Deal in a game's steps"
    SHUFFLE_APPLIED = "deck.shuffle"
    SHARES_APPLIED = "deck.shares"
    COIN_APPLIED = "deck.coin-commit / deck.coin-reveal"
    RECEIPT_APPLIED = "receipt"
    CARD_DEALT = "card dealt"
    SERVED = "served"


S, E = ServiceState, ServiceEvent

# The whole machine. A self-loop is an envelope the state takes while it waits for more;
# SERVED is fired when the deck holds what the engine asked for, and the engine is answered.
TRANSITIONS: Mapping[tuple[ServiceState, ServiceEvent], ServiceState] = {
    (S.IDLE, E.SHUFFLE_ASKED): S.SHUFFLE,
    (S.IDLE, E.DEAL_ASKED): S.SHARES,
    (S.IDLE, E.REVEAL_ASKED): S.SHARES,
    (S.IDLE, E.TRANSFER_ASKED): S.RECEIPT,
    (S.IDLE, E.ARRANGE_ASKED): S.COIN,
    (S.IDLE, E.STEP_DEAL_ASKED): S.DEALING,
    (S.SHUFFLE, E.SHUFFLE_APPLIED): S.SHUFFLE,
    (S.SHARES, E.SHARES_APPLIED): S.SHARES,
    (S.COIN, E.COIN_APPLIED): S.COIN,
    (S.RECEIPT, E.RECEIPT_APPLIED): S.RECEIPT,
    (S.DEALING, E.CARD_DEALT): S.DEALING,
    (S.SHUFFLE, E.SERVED): S.IDLE,
    (S.SHARES, E.SERVED): S.IDLE,
    (S.COIN, E.SERVED): S.IDLE,
    (S.RECEIPT, E.SERVED): S.IDLE,
    (S.DEALING, E.SERVED): S.IDLE,
}

# The event that begins each kind of request (a Deal in a game's steps is the game's choice).
ASKED: Mapping[type[Request], ServiceEvent] = {
    asked.NewDeck: E.SHUFFLE_ASKED,
    asked.Reshuffle: E.SHUFFLE_ASKED,
    asked.NewGroupedDeck: E.SHUFFLE_ASKED,
    asked.GroupedReshuffle: E.SHUFFLE_ASKED,
    asked.Deal: E.DEAL_ASKED,
    asked.Reveal: E.REVEAL_ASKED,
    asked.Transfer: E.TRANSFER_ASKED,
    asked.Arrange: E.ARRANGE_ASKED,
}


class ServiceStateError(Exception):
    """An event the request server does not take in its state: a bug of the table's code (the
    envelope that caused it was checked against `expected()` first), never a seat's fault."""

    def __init__(self, state: ServiceState, event: ServiceEvent, requests: list[Request]) -> None:
        served = ", ".join(type(r).__name__ for r in requests) or "nothing"
        super().__init__(f"the request server cannot take {event!s} in state {state!s} ({served})")
        self.state = state
        self.event = event


@dataclass
class Service:
    """The request(s) being served and what the table counted of their envelopes so far."""

    requests: list[Request]
    state: ServiceState = ServiceState.IDLE
    publishers: list[int] = field(default_factory=list)  # seats that owe shares, in seat order
    published: int = 0
    slots: tuple[Slot, ...] = ()
    list_ids: tuple[str, ...] = ()
    done: bool = False
    faces: dict[Slot, int] = field(default_factory=dict)
    coin_id: str = ""

    @property
    def kind(self) -> ServiceState:
        """The state this service is in (a `StrEnum`: it equals the old kind strings)."""
        return self.state

    @property
    def list_id(self) -> str:
        return self.list_ids[0] if self.list_ids else ""

    @property
    def transfer(self) -> Transfer | None:
        """The give-away being served, if this is one."""
        request = self.requests[0] if self.state is ServiceState.RECEIPT else None
        return request if isinstance(request, Transfer) else None


def next_state(state: ServiceState, event: ServiceEvent) -> ServiceState | None:
    """Where `event` takes the machine from `state` (None: it may not happen there)."""
    return TRANSITIONS.get((state, event))


class RequestServer:
    """The one request (or batch of deals) the table serves now, moved only by `TRANSITIONS`."""

    def __init__(self) -> None:
        self.state = ServiceState.IDLE
        self.service: Service | None = None

    def begin(self, service: Service, event: ServiceEvent | None = None) -> Service:
        """Start serving `service` (its first request's `ASKED` event unless one is given)."""
        asked = event if event is not None else ASKED[type(service.requests[0])]
        self._fire(asked, service.requests)
        service.state = self.state
        self.service = service
        return service

    def note(self, event: ServiceEvent) -> Service:
        """An envelope (or dealt card) the service in progress takes."""
        service = self.service
        self._fire(event, service.requests if service is not None else [])
        assert service is not None  # only IDLE has no service, and IDLE takes no such event
        return service

    def served(self) -> Service:
        """The service is complete: back to IDLE, handing it back to answer the engine."""
        service = self.service
        self._fire(ServiceEvent.SERVED, service.requests if service is not None else [])
        assert service is not None
        self.service = None
        return service

    def _fire(self, event: ServiceEvent, requests: list[Request]) -> None:
        new = next_state(self.state, event)
        if new is None:
            raise ServiceStateError(self.state, event, requests)
        self.state = new
        if self.service is not None:
            self.service.state = new
