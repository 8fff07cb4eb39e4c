"""The Lie's states, actions and events as plain data (protocol.md 7.8).

The encoding and its strict decoding are every game's (engine/codec.py, where the decoders of
requests and resolutions live too); this module binds the decoders to The Lie's classes.
"""

from __future__ import annotations

# Re-exported (the `as` form) for the table and the tests, which decode through this module.
from fairdeal.engine.codec import DecodeError as DecodeError
from fairdeal.engine.codec import GameCodec
from fairdeal.engine.codec import to_data as to_data
from fairdeal.engine.lie import actions, events, options, state

CODEC = GameCodec[actions.Action, events.Event, state.LieState](
    (actions, events, state, options), actions.Action, events.Event, state.LieState
)
CLASSES = CODEC.classes  # every class a plain-data message of this game may name
action_from_data, event_from_data, state_from_data = CODEC.decoders()
