"""Typed errors for illegal actions. Each names the seat at fault and says why in plain words.

Raising never changes anything: states are immutable, the caller keeps the state it had.
"""

from __future__ import annotations

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


class LimitExceeded(IllegalAction):
    """L6: the announcement is above the current limit."""


class CannotDoubtEmptyPile(IllegalAction):
    """L7: nobody can doubt an empty pile."""


class MustPlayFaceUp(IllegalAction):
    """L12: under the face-up obligation no card may be played face-down."""


class BadClaim(IllegalAction):
    """The claimed kind cannot be played face-up now (numbers/gloats only under L12)."""


class FalseClaim(BadClaim):
    """A face-up claim that the seat's own cards contradict (L12): sent, it would be a cheat.

    Only `legal.check_action` raises it: the public state cannot know a hidden face, so the
    table would accept the play and then stop the game with a Violation when the face shows.
    """


class AnnounceOutOfRange(IllegalAction):
    """L6 as bounded by fairdeal: an announcement is an integer from ANNOUNCE_MIN up."""


class BadTarget(IllegalAction):
    """The target seat is missing, is oneself, or is not allowed for this card."""


class GiveAwayTooFewCards(IllegalAction):
    """L11: give away 1 needs at least 3 cards in hand before it is played."""


class BadGiveCard(IllegalAction):
    """L11: the card given must be another card of one's own hand."""


class BadLarryCall(IllegalAction):
    """L15: "Larry" may only be called by a play that leaves exactly one card."""


class MustDoubtOrAccept(IllegalAction):
    """L16: after a player went out, the next seat may only doubt or accept."""


class NothingToAccept(IllegalAction):
    """AcceptOut is only possible right after a player went out (L16)."""


class BadResolution(IllegalAction):
    """The driver's answer does not match the request outstanding."""


class UnknownAction(IllegalAction):
    """Not an action of this game."""
