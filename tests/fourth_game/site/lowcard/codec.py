"""Low card's actions, events and state as plain data: the shared codec bound to its classes."""

from __future__ import annotations

from fairdeal.engine.codec import GameCodec
from lowcard import game

CODEC = GameCodec[game.Action, game.Event, game.LowCardState](
    (game,), game.Action, game.Event, game.LowCardState
)
