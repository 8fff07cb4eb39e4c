"""Every game's one way to make its next state: a typed working copy of the state before.

A transition opens a `Transaction` over the state before, sets the attributes it changes (a
game's subclass declares them with the state's field names and types, so the type checker checks
every assignment, and tests/engine/test_transaction.py checks the declarations against the
state's fields), emits its events, asks its requests, and `freeze`s the result into the new
state. No rule builds a state from a dict of names. One shallow copy of the field dict and one
new state per call; what a transition does not change is shared, not copied (every field is
immutable).

`resolve` is every game's check of a driver's answer (protocol.md section 7.4): from the driver,
to the first pending request, of the kind that request needs; the game says what each answer
does. `answer` comes first in a game's `apply`: a driver's answer (a type in `ANSWERS`) goes to
the game's `resolve`, except the commonest one, the in-order Ack of a request that needs nothing
but the Ack (any request but a Reveal or an Arrange: every Deal), which it serves at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, Never, Protocol, TypeVar

from fairdeal.engine.errors import DRIVER, BadResolution
from fairdeal.engine.requests import Ack, Arrange, Arrangement, Faces, Request, Reveal
from fairdeal.engine.step import Step

_new = object.__new__
_new_tuple = tuple.__new__


class GameState(Protocol):
    """What the shared transaction and `resolve` read of a game's state."""

    @property
    def pending(self) -> tuple[Request, ...]: ...


StateT = TypeVar("StateT", bound=GameState)
EventT = TypeVar("EventT")


class Transaction(Generic[StateT, EventT]):
    """A mutable working copy of one `StateT` for one transition, with its events and requests.

    A game's subclass sets `state_type` and declares every field of its state as an attribute
    of the same name and type; the fields below are those every game's state has.
    """

    state_type: ClassVar[type]
    pending: tuple[Request, ...]
    next_request: int
    next_slot: int

    # The transaction's own data lives in slots, so that __dict__ holds exactly the state fields.
    __slots__ = ("__dict__", "events", "requests")

    def __init__(self, state: StateT) -> None:
        self.__dict__ = dict(state.__dict__)  # the fields, shared (every one is immutable)
        # Tuples, not lists: most transitions emit one event and ask nothing, and the Step
        # takes them as they are.
        self.events: tuple[EventT, ...] = ()
        self.requests: tuple[Request, ...] = ()

    def emit(self, event: EventT) -> None:
        self.events = (*self.events, event)

    def ask(self, request: Request) -> None:
        self.requests = (*self.requests, request)

    def request_id(self) -> int:
        rid = self.next_request
        self.next_request = rid + 1
        return rid

    def alloc(self, count: int) -> tuple[int, ...]:
        """`count` fresh slots (a slot number is never reused)."""
        start = self.next_slot
        self.next_slot = start + count
        return tuple(range(start, start + count))

    def freeze(self) -> Step[StateT, EventT]:
        """The new state, its events and its new requests. The transaction is done with."""
        values = self.__dict__
        requests = self.requests
        if requests:
            values["pending"] = self.pending + requests
        state: object = _new(self.state_type)
        # Filling the new state's own dict keeps its keys shared with every state of its class
        # (CPython's key-sharing dicts): cheaper than handing it this dict, and faster to read.
        state.__dict__.update(values)
        return _new_tuple(Step, (state, self.events, requests))  # Step's own __new__, inlined


def successor(state: StateT) -> tuple[StateT, dict[str, Any]]:
    """A new state of `state`'s class with the same fields, and its field dict to change them in.

    The shortest way to a transition that changes a few fields and decides nothing else (a
    claim, a pass, a play, a placed card): no Transaction, one copy of the fields. The caller
    sets only fields its state declares, each to a value of the declared type (mypy cannot check
    the dict's keys: tests/engine/lie/test_same_games.py pins what The Lie's transitions make).
    """
    next_state = _new(type(state))
    values: dict[str, Any] = next_state.__dict__
    values.update(state.__dict__)  # filled in order: the keys stay shared (see `freeze`)
    return next_state, values


def answered(state: StateT) -> Step[StateT, Never]:
    """`state` with its first request answered and nothing else changed: the commonest step
    (a Deal or a NewDeck served), made without a Transaction."""
    next_state, values = successor(state)
    values["pending"] = state.pending[1:]
    return _new_tuple(Step, (next_state, (), ()))


def resolve(
    state: StateT,
    seat: int,
    resolution: object,
    *,
    reveal: Callable[[StateT, Reveal, Faces], Step[StateT, EventT]],
    arrange: Callable[[StateT, Arrange, Arrangement], Step[StateT, EventT]] | None = None,
    ack: Callable[[StateT, Request], Step[StateT, EventT]] | None = None,
) -> Step[StateT, EventT]:
    """Check the driver's `resolution` against the first pending request and hand it to the
    game: Faces answer a Reveal (`reveal`), an Arrangement an Arrange (`arrange`, for a game
    that asks for one), an Ack any other request (`ack`; without one the request is simply
    served). BadResolution otherwise, naming why; the state is never changed."""
    if seat != DRIVER:
        raise BadResolution(seat, "only the driver answers requests")
    kind = type(resolution)
    if kind is not Ack and kind is not Faces and kind is not Arrangement:
        raise BadResolution(seat, f"{kind.__name__} answers no request")
    assert isinstance(resolution, (Ack, Faces, Arrangement))  # tells the type checker only
    pending = state.pending
    if not pending:
        raise BadResolution(seat, "no request is outstanding")
    request = pending[0]
    if resolution.request != request.id:
        raise BadResolution(
            seat, f"answer for request {resolution.request}, expected request {request.id}"
        )
    request_kind = type(request)
    if request_kind is Reveal:
        assert isinstance(request, Reveal)
        if not isinstance(resolution, Faces):
            raise BadResolution(seat, f"request {request.id} is a Reveal: answer with Faces")
        return reveal(state, request, resolution)
    if request_kind is Arrange and arrange is not None:
        assert isinstance(request, Arrange)
        if not isinstance(resolution, Arrangement):
            raise BadResolution(seat, f"request {request.id} is an Arrange: answer with its order")
        return arrange(state, request, resolution)
    if kind is not Ack:
        raise BadResolution(seat, f"request {request.id} is answered with Ack, not {kind.__name__}")
    return answered(state) if ack is None else ack(state, request)


ANSWERS: frozenset[type] = frozenset({Ack, Faces, Arrangement})  # the types of a driver's answers


def answer(
    state: StateT,
    seat: int,
    resolution: object,
    resolve: Callable[[StateT, int, object], Step[StateT, EventT]],
    acked: Callable[[StateT, Request], Step[StateT, EventT]] | None = None,
) -> Step[StateT, EventT]:
    """The Step that answers the first pending request with `resolution` (of a type in ANSWERS).

    `acked(state, request)` is the step for an in-order plain Ack where the game does more than
    drop the request (without it: `answered(state)`)."""
    if type(resolution) is Ack:
        assert isinstance(resolution, Ack)  # tells the type checker only
        pending = state.pending
        if seat == DRIVER and pending and pending[0].id == resolution.request:
            request = pending[0]
            request_kind = type(request)
            if request_kind is not Reveal and request_kind is not Arrange:
                return answered(state) if acked is None else acked(state, request)
    return resolve(state, seat, resolution)
