"""What a seat can do (player actions) and how a driver answers requests (resolutions).

Actions name hidden cards by deck slot. A face-up play *claims* a kind; the claim is checked
against the face once it is revealed (a false claim is a provable cheat, see events.Violation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fairdeal.engine.codec import Bounds
from fairdeal.engine.larry.cards import CardKind
from fairdeal.engine.requests import Ack, Faces, Resolution

__all__ = [
    "AcceptOut",
    "Ack",
    "Action",
    "Doubt",
    "Faces",
    "PlayFaceDown",
    "PlayFaceUp",
    "Resolution",
]

# L6 says any integer not above the limit may be announced; fairdeal bounds that to a range no
# honest game leaves (with the L1 deck every honest total that may be announced lies in -12..7),
# so that no typed number or peer's message can overflow the wire format (protocol.md 7, RULES.md).
ANNOUNCE_MIN = -99
ANNOUNCE_MAX = 99


@dataclass(frozen=True, slots=True)
class Doubt:
    """L9/L16: doubt the announced total; only the seat to act, only with a non-empty pile (L7)."""


@dataclass(frozen=True, slots=True)
class PlayFaceDown:
    """L6: play `slot` face-down announcing `announce` (an integer from ANNOUNCE_MIN up to the
    limit, which is never above ANNOUNCE_MAX).

    `larry` is the L15 call: it must be true exactly when this play leaves one card in hand.
    """

    slot: int
    announce: Annotated[int, Bounds(ANNOUNCE_MIN, ANNOUNCE_MAX)]
    larry: bool = False


@dataclass(frozen=True, slots=True)
class PlayFaceUp:
    """L6/L10-L13: play `slot` face-up, claiming it is a card of kind `claim`.

    Action claims: `target` is the other seat for face_up, pick_up_2 and give_away_1; `give` is the
    slot handed over with give_away_1 (L11). Under an L12 obligation the claim may also be
    "number" (the total becomes last total + value) or "gloat" (only when the hand holds nothing
    but gloat cards).
    """

    slot: int
    claim: CardKind
    target: int | None = None
    give: int | None = None
    larry: bool = False


@dataclass(frozen=True, slots=True)
class AcceptOut:
    """L16: the seat after a player who went out does not doubt; the hand ends."""


Action = Doubt | PlayFaceDown | PlayFaceUp | AcceptOut
