"""The Lie's typed errors; the shared ones (NotYourTurn, GameIsOver, …) are re-exported here."""

from __future__ import annotations

from fairdeal.engine import errors as _shared
from fairdeal.engine.errors import *  # noqa: F403 (the shared errors, named here too)
from fairdeal.engine.errors import IllegalAction

__all__ = [
    "BadCombination",
    "HandFull",
    "MixedColours",
    "MustLead",
    "NotAdjacent",
    "NotBuilding",
    "NotGreater",
    "NotPlaying",
    "NothingToPlace",
    "PlaceFirst",
    "SlotTaken",
    "WrongColour",
]
__all__ += _shared.__all__


class NotBuilding(IllegalAction):
    """T3: cards are claimed only in Phase 1."""


class SlotTaken(IllegalAction):
    """T3: the slot is not on the table (another seat took it first, or it never was there)."""


class HandFull(IllegalAction):
    """T3: a player stops at a full hand (12 cards)."""


class PlaceFirst(IllegalAction):
    """T3: the next card is taken only after the last one is placed."""


class NothingToPlace(IllegalAction):
    """T3: Place puts the card one took at an end of the hand; this seat holds none unplaced."""


class NotPlaying(IllegalAction):
    """T5: cards are played and passed only in Phase 2."""


class BadCombination(IllegalAction):
    """T5: a play is 1 to 3 cards."""


class NotAdjacent(IllegalAction):
    """T5: the cards must lie next to each other in the hand, named left to right."""


class MustLead(IllegalAction):
    """T5: the leader must play at least one card."""


class MixedColours(IllegalAction):
    """T5: the cards of a combination share one colour (checked on the seat's own faces)."""


class WrongColour(IllegalAction):
    """T5: after the lead, only the lead colour may be played (checked on own faces)."""


class NotGreater(IllegalAction):
    """T5: a play must form a greater number than the trick's best (checked on own faces)."""
