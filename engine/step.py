"""What every transition of every game returns: the new state, its events, its new requests."""

from __future__ import annotations

from typing import Generic, NamedTuple, TypeVar

from fairdeal.engine.requests import Request

# Covariant: a Step is immutable, so a step with no events (Step[S, Never]) is a step of any
# event type, and every game's step is a Step[object, object].
StateT_co = TypeVar("StateT_co", covariant=True)
EventT_co = TypeVar("EventT_co", covariant=True)


class Step(NamedTuple, Generic[StateT_co, EventT_co]):
    """The result of a transition: the new state, what happened, and requests newly issued.

    A NamedTuple rather than a dataclass: one is made per transition, and it is cheaper.
    `state` is the game's own state class (LarryState, LieState), `events` its own events.
    """

    state: StateT_co
    events: tuple[EventT_co, ...]
    requests: tuple[Request, ...]
