"""Reading a turn-based move: every game's `act` envelope, checked the same way.

An `act` envelope names the log head it was signed on (`prev`): a seat acts on the state it has
seen, so one signed on another head acted out of turn. Its body is the engine's action as plain
data (protocol.md section 7); the engine decides whether the action is legal. Each check that
fails is the author's fault, named as the table's other faults are (a `DeckFault`), and changes
nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fairdeal.engine.codec import DecodeError
from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.step import Step
from fairdeal.p2p.deck import DeckFault
from fairdeal.p2p.log.envelope import Envelope

ActionT = TypeVar("ActionT")
StateT = TypeVar("StateT")


def action_of(envelope: Envelope, head: bytes, decode: Callable[[Any], ActionT]) -> ActionT:
    """The action `envelope` carries, if it was signed on `head` and its body decodes."""
    if envelope.prev != head:
        raise DeckFault(
            envelope.seat, "acted on a stale state (out of turn)", {"prev": envelope.prev}
        )
    try:
        return decode(envelope.body)
    except DecodeError as exc:
        raise DeckFault(envelope.seat, f"unreadable action: {exc}") from None


def step_of(
    apply: Callable[[StateT, int, ActionT], Step[StateT, Any]],
    state: StateT,
    seat: int,
    action: ActionT,
) -> Step[StateT, Any]:
    """The engine's step for `seat`'s `action`; an illegal one is that seat's fault."""
    try:
        return apply(state, seat, action)
    except IllegalAction as exc:
        raise DeckFault(seat, f"illegal action: {exc.reason}") from None
