"""The Lie's states, actions, resolutions, events and requests as plain data (protocol.md 7.8).

The encoding and its strict decoding are every game's (engine/codec.py); this module binds the
decoders to The Lie's classes.
"""

from __future__ import annotations

from fairdeal.engine.codec import (
    DecodeError,
    GameCodec,
    from_data,
    request_from_data,
    resolution_from_data,
    to_data,
)
from fairdeal.engine.lie import actions, events, options, state

CODEC = GameCodec[actions.Action, events.Event, state.LieState](
    (actions, events, state, options), actions.Action, events.Event, state.LieState
)
CLASSES = CODEC.classes  # every class a plain-data message of this game may name
action_from_data, event_from_data, state_from_data = CODEC.decoders()

__all__ = ["CLASSES", "CODEC", "DecodeError", "action_from_data", "event_from_data", "from_data"]
__all__ += ["request_from_data", "resolution_from_data", "state_from_data", "to_data"]
