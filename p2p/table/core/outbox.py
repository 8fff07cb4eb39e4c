"""The driver's small records: the envelope the log takes next, and what this seat must send.

Kept apart from p2p/table/core/driver.py so that the driver's parts (serving.py, owing.py, ...) can
use them; the driver's module still offers them under the same names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fairdeal.p2p.net import kinds

DECK = kinds.DECK  # body: a fair-deck message (protocol.md section 6), in every game


@dataclass(frozen=True, slots=True)
class Expect:
    """The next envelope of the log: its seat, its kind, and (for DECK) the message kind."""

    seat: int
    kind: str
    deck_kind: str | None = None

    def __str__(self) -> str:
        what = self.deck_kind or self.kind
        return f"{what} from seat {self.seat}"


@dataclass(frozen=True, slots=True)
class Publish:
    """An envelope this seat must sign and publish. `claims`: the engine slot it asks to be
    dealt to this seat (The Lie's claim, T3), so that a peer can time how long the card's front
    takes to reach it (`CardsVerified("claim")`)."""

    kind: str
    body: Any
    claims: int | None = None


@dataclass(frozen=True, slots=True)
class Private:
    """A give-away's `deck.forward` for seat `to` only, over the encrypted channel: the peer
    signs it (p2p.table.core.forwards) for the engine's Transfer `transfer` of engine slot
    `slot`."""

    to: int
    body: Any
    transfer: int
    slot: int
