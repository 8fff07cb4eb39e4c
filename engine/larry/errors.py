"""Larry's typed errors; the shared ones (NotYourTurn, GameIsOver, …) are re-exported here so the
rules can name every error through one module.
"""

from __future__ import annotations

from fairdeal.engine import errors as _shared
from fairdeal.engine.errors import *  # noqa: F403 (the shared errors, named here too)
from fairdeal.engine.errors import IllegalAction

__all__ = [
    "AnnounceOutOfRange",
    "BadClaim",
    "BadGiveCard",
    "BadLarryCall",
    "BadTarget",
    "CannotDoubtEmptyPile",
    "FalseClaim",
    "GiveAwayTooFewCards",
    "LimitExceeded",
    "MustDoubtOrAccept",
    "MustPlayFaceUp",
    "NothingToAccept",
]
__all__ += _shared.__all__


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
