"""Every game's first question in `apply`: is this the driver answering a request?

A driver's answer (Ack, Faces, Arrangement) goes to the game's `resolve` (which checks it:
engine/transaction.py `resolve`), except the commonest one, the in-order Ack of a request that
needs nothing but the Ack (any request but a Reveal or an Arrange: every Deal), which is served
at once. The game's `apply` goes on with the seat's action when `driver_answer` returns None.
"""

from __future__ import annotations

from collections.abc import Callable

from fairdeal.engine.errors import DRIVER
from fairdeal.engine.requests import Arrange, Request, Reveal
from fairdeal.engine.resolutions import Ack, Arrangement, Faces
from fairdeal.engine.step import Step
from fairdeal.engine.transaction import StateT, answered


def driver_answer(
    state: StateT,
    seat: int,
    action: object,
    resolve: Callable[[StateT, int, object], Step],
    acked: Callable[[StateT, Request], Step] | None = None,
) -> Step | None:
    """The Step that answers the first pending request, or None when `action` is no answer.

    `acked(state, request)` is the step for an in-order plain Ack where the game does more than
    drop the request (without it: `answered(state)`)."""
    # One type() and `is` tests: apply runs hundreds of times a game.
    kind = type(action)
    if kind is Ack:
        assert isinstance(action, Ack)  # tells the type checker only
        pending = state.pending
        if seat == DRIVER and pending and pending[0].id == action.request:
            request = pending[0]
            request_kind = type(request)
            if request_kind is not Reveal and request_kind is not Arrange:
                return answered(state) if acked is None else acked(state, request)
        return resolve(state, seat, action)
    if kind is Faces or kind is Arrangement:
        return resolve(state, seat, action)
    return None
