"""Typed errors every game shares. Each names the seat at fault and says why in plain words.

Raising never changes anything: states are immutable, the caller keeps the state it had. Each game
adds its own subclasses of IllegalAction (fairdeal.engine.larry.errors, fairdeal.engine.lie.errors).
"""

from __future__ import annotations

# A game's errors module re-exports these with `from fairdeal.engine.errors import *`, so that its
# rules name every error through one module.
__all__ = [
    "DRIVER",
    "BadResolution",
    "CardNotInHand",
    "GameIsOver",
    "IllegalAction",
    "NoSuchSeat",
    "NotYourTurn",
    "UnknownAction",
    "WaitingForDriver",
]

DRIVER = -1  # the "seat" of the driver when it answers requests


class IllegalAction(Exception):
    """An action the rules do not allow. `seat` is the culprit (DRIVER for a bad resolution)."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"seat {seat}: {reason}" if seat != DRIVER else f"driver: {reason}")
        self.seat = seat
        self.reason = reason


class GameIsOver(IllegalAction):
    """The game has ended (or was stopped by a violation)."""


class WaitingForDriver(IllegalAction):
    """Requests are outstanding; no seat may act until the driver has served them."""


class NotYourTurn(IllegalAction):
    """Another seat is to act."""


class NoSuchSeat(IllegalAction):
    """The seat number is not at this table."""


class CardNotInHand(IllegalAction):
    """The slot named is not in the acting seat's hand."""


class BadResolution(IllegalAction):
    """The driver's answer does not match the request outstanding."""


class UnknownAction(IllegalAction):
    """Not an action of this game."""
