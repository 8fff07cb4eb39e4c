"""What every transition of every game returns: the new state, its events, its new requests."""

from __future__ import annotations

from typing import Any, NamedTuple

from fairdeal.engine.requests import Request


class Step(NamedTuple):
    """The result of a transition: the new state, what happened, and requests newly issued.

    A NamedTuple rather than a dataclass: one is made per transition, and it is cheaper.
    `state` is the game's own state class (LarryState, LieState).
    """

    state: Any
    events: tuple[Any, ...]
    requests: tuple[Request, ...]
