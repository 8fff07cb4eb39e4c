"""The Lie's states, actions, resolutions, events and requests as plain data (protocol.md 7.8).

The encoding and its strict decoding are shared by every game (engine/codec.py); this module
names The Lie's classes and binds the decoders to them.
"""

from __future__ import annotations

from fairdeal.engine.codec import DecodeError, GameCodec, from_data, to_data
from fairdeal.engine.lie import actions, events, options, state

__all__ = [
    "CLASSES",
    "CODEC",
    "DecodeError",
    "action_from_data",
    "event_from_data",
    "from_data",
    "request_from_data",
    "resolution_from_data",
    "state_from_data",
    "to_data",
]

CODEC = GameCodec[actions.Action, events.Event, state.LieState](
    (actions, events, state, options), actions.Action, events.Event, state.LieState
)
CLASSES = CODEC.classes
action_from_data = CODEC.action_from_data
event_from_data = CODEC.event_from_data
state_from_data = CODEC.state_from_data
resolution_from_data = CODEC.resolution_from_data
request_from_data = CODEC.request_from_data
