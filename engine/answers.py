"""Every game's first question in `apply`: is this the driver answering a request?

A driver's answer (Ack, Faces, Arrangement: `ANSWERS`) goes to the game's `resolve` (which
checks it: engine/transaction.py `resolve`), except the commonest one, the in-order Ack of a
request that needs nothing but the Ack (any request but a Reveal or an Arrange: every Deal),
which `answer` serves at once.
"""

from __future__ import annotations

from collections.abc import Callable

from fairdeal.engine.errors import DRIVER
from fairdeal.engine.requests import Arrange, Request, Reveal
from fairdeal.engine.resolutions import Ack, Arrangement, Faces
from fairdeal.engine.step import Step
from fairdeal.engine.transaction import StateT, answered

ANSWERS: frozenset[type] = frozenset({Ack, Faces, Arrangement})  # the types of a driver's answers


def answer(
    state: StateT,
    seat: int,
    resolution: object,
    resolve: Callable[[StateT, int, object], Step],
    acked: Callable[[StateT, Request], Step] | None = None,
) -> Step:
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
