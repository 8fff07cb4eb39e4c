"""The Lie's states, actions, resolutions, events and requests as plain data (protocol.md 7.8).

The encoding and its strict decoding are shared by every game (fairdeal.engine.codec); this module
names The Lie's classes and decodes into them.
"""

from __future__ import annotations

from typing import Any

from fairdeal.engine import events as shared_events
from fairdeal.engine import requests, resolutions
from fairdeal.engine.codec import DecodeError, from_data, registry, to_data
from fairdeal.engine.lie import actions, events, options, state

__all__ = [
    "CLASSES",
    "DecodeError",
    "action_from_data",
    "event_from_data",
    "from_data",
    "request_from_data",
    "resolution_from_data",
    "state_from_data",
    "to_data",
]

# Every class a plain-data message of The Lie may name.
CLASSES: dict[str, type] = registry(
    actions, resolutions, events, shared_events, requests, state, options
)


def action_from_data(data: Any) -> actions.Action:
    return from_data(data, actions.Action)


def resolution_from_data(data: Any) -> resolutions.Resolution:
    return from_data(data, resolutions.Resolution)


def event_from_data(data: Any) -> events.Event:
    return from_data(data, events.Event)


def request_from_data(data: Any) -> requests.Request:
    return from_data(data, requests.Request)


def state_from_data(data: Any) -> state.LieState:
    return from_data(data, state.LieState)
