"""The fair-deck request server: which engine request the table serves, as a state machine.

Every game's engine asks the table for the same few things (engine/requests.py): a new or
reshuffled deck, a deal, a reveal, a give-away (`Transfer`), a joint coin that arranges slots
(`Arrange`). The table serves `pending[0]` (a run of `Deal`s at once) until the deck has what
the engine needs, answers the engine, and takes the next one (protocol.md 10.3-10.10).

Like h11's `_state.py`, everything that moves the machine is in this file, as data:
`TRANSITIONS`, a mapping (state, event) -> next state, and `STATES`, per state who acts next
(the envelope the log takes) and when the request is done. An event with no entry for the
current state raises `ServiceStateError` naming both, and changes nothing. The fair deck's side
(p2p/table/core/serving.py) fires the events as envelopes and deck events come in;
docs/state-machines/request-server.md is drawn from both tables (`python -m fairdeal.p2p.diagrams`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from fairdeal.engine import requests as asked
from fairdeal.engine.requests import Request, Transfer
from fairdeal.p2p.deck import Slot
from fairdeal.p2p.deck.messages import COIN_COMMIT, COIN_REVEAL, SHARES, SHUFFLE
from fairdeal.p2p.table.core.outbox import DECK, Expect


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

# The envelopes that count one more publisher of the service in progress.
PUBLISHED = frozenset({E.SHUFFLE_APPLIED, E.SHARES_APPLIED, E.COIN_APPLIED})

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
    seats: int = 0  # the table's seats (a coin's commitments, then its reveals, in seat order)
    receipt_kind: str = ""  # the envelope kind of a give-away's receipt (the game's)

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


class DeckFacts(Protocol):
    """What the states' done-rules read of the fair deck (p2p/deck/session.py `DeckSession`)."""

    def list_ready(self, list_id: str) -> bool: ...

    def coin_seed(self, coin_id: str) -> bytes | None: ...


@dataclass(frozen=True, slots=True)
class StateRule:
    """One state's row: who acts next and when the request is done, in code and in the words
    the diagram shows. `acts` None: no envelope of the fair deck's is due, the game's ordering
    rule (`TableDriver.next_action`) says whose envelope comes next."""

    who: str
    acts: Callable[[Service], Expect | None]
    done_when: str
    done: Callable[[Service, DeckFacts, bool], bool]  # (service, deck, a game step under way)


def _shuffler(service: Service) -> Expect:
    # every seat shuffles each list in turn: seat order, list order within a seat
    return Expect(service.published // len(service.list_ids), DECK, SHUFFLE)


def _publisher(service: Service) -> Expect:
    return Expect(service.publishers[service.published], DECK, SHARES)


def _coiner(service: Service) -> Expect:
    step = COIN_COMMIT if service.published < service.seats else COIN_REVEAL
    return Expect(service.published % service.seats, DECK, step)


def _receiver(service: Service) -> Expect:
    transfer = service.transfer
    assert transfer is not None  # RECEIPT serves a Transfer (ASKED)
    return Expect(transfer.to_seat, service.receipt_kind)


def _every_share_in(service: Service, _deck: DeckFacts, _stepping: bool) -> bool:
    if service.published < len(service.publishers) and service.slots:
        return False
    if isinstance(service.requests[0], asked.Reveal):
        return all(s in service.faces for s in service.slots)
    return True


def _nothing(_service: Service) -> None:
    return None


def _never(_service: Service, _deck: DeckFacts, _stepping: bool) -> bool:
    return False


# Per state, who acts next and when the request is done: with `TRANSITIONS`, the whole machine.
STATES: Mapping[ServiceState, StateRule] = {
    S.IDLE: StateRule(
        "the game's ordering rule (a pending request begins at once)",
        _nothing,
        "no request is served",
        _never,
    ),
    S.SHUFFLE: StateRule(
        "every seat in seat order, each list in list order",
        _shuffler,
        "every list is shuffled by every seat and every shuffle verified",
        lambda service, deck, _stepping: all(deck.list_ready(i) for i in service.list_ids),
    ),
    S.SHARES: StateRule(
        "each seat that owes shares, in seat order",
        _publisher,
        "every owing seat published; a reveal: every front is open",
        _every_share_in,
    ),
    S.RECEIPT: StateRule(
        "the receiver (after the giver's private forward)",
        _receiver,
        "the receiver's receipt is applied",
        lambda service, _deck, _stepping: service.done,
    ),
    S.COIN: StateRule(
        "every seat's commitment in seat order, then every reveal",
        _coiner,
        "the coin's seed is known (every reveal is in)",
        lambda service, deck, _stepping: deck.coin_seed(service.coin_id) is not None,
    ),
    S.DEALING: StateRule(
        "the game's ordering rule (its steps carry the shares)",
        _nothing,
        "every card is dealt and no step of the game is under way",
        lambda service, _deck, stepping: service.done and not stepping,
    ),
}


def next_state(state: ServiceState, event: ServiceEvent) -> ServiceState | None:
    """Where `event` takes the machine from `state` (None: it may not happen there)."""
    return TRANSITIONS.get((state, event))


class RequestServer:
    """The one request (or batch of deals) the table serves now, moved only by `TRANSITIONS`."""

    def __init__(self) -> None:
        self.state = ServiceState.IDLE
        self.service: Service | None = None

    def expected(self) -> Expect | None:
        """The envelope the service in progress takes next (None: the game's ordering rule
        says, or nothing is served)."""
        service = self.service
        return STATES[self.state].acts(service) if service is not None else None

    def complete(self, deck: DeckFacts, step_under_way: bool) -> bool:
        """Whether the service in progress is done (its state's rule in `STATES`)."""
        service = self.service
        return service is not None and STATES[self.state].done(service, deck, step_under_way)

    def begin(self, service: Service, event: ServiceEvent | None = None) -> Service:
        """Start serving `service` (its first request's `ASKED` event unless one is given)."""
        asked = event if event is not None else ASKED[type(service.requests[0])]
        self._fire(asked, service.requests)
        service.state = self.state
        self.service = service
        return service

    def note(self, event: ServiceEvent, *, done: bool | None = None) -> Service:
        """An envelope (or dealt card) the service in progress takes. An envelope counts one
        more publisher, a receipt serves the gift; `done`: whether every card of a deal in the
        game's steps is dealt now."""
        service = self.service
        self._fire(event, service.requests if service is not None else [])
        assert service is not None  # only IDLE has no service, and IDLE takes no such event
        if event in PUBLISHED:
            service.published += 1
        if event is ServiceEvent.RECEIPT_APPLIED:
            service.done = True
        if done is not None:
            service.done = done
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
