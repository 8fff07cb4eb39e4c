"""High card's actions, events and state as plain data: the shared codec (engine/codec.py) bound
to this game's classes."""

from __future__ import annotations

from fairdeal.engine.codec import GameCodec
from highcard import actions, cards, state

CODEC = GameCodec[actions.Action, actions.Event, state.HighCardState](
    (actions, state, cards), actions.Action, actions.Event, state.HighCardState
)
