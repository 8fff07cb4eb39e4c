"""The Lie's cards the fair deck opened, as the table's verified-card events.

A card a claim dealt to this seat (its front known to it alone, T3), a combination played (T5)
and every seat's prizes at the end of the game (T10) are shown with their proofs;
`LieTable` (p2p/games/lie/table.py) reports them through these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairdeal.engine.lie.events import GameOver, Played
from fairdeal.p2p.table.api import CardsVerified, ProofStatus, VerifiedCard


def own_card(slot: int, seat: int, face: int) -> CardsVerified:
    """The card a claim dealt to `seat` (this seat), every other seat's share proved."""
    card = VerifiedCard(slot, seat, face, False, ProofStatus.VERIFIED)
    return CardsVerified("claim", seat, (card,))


def opened_cards(event: Any, prizes: Sequence[Sequence[int]]) -> list[CardsVerified]:
    """The verified-card events of one engine event (none for any other event); `prizes`:
    every seat's prize slots, in seat order (the state's `prizes`)."""
    if isinstance(event, Played):
        cards = tuple(
            VerifiedCard(slot, event.seat, face, True, ProofStatus.VERIFIED)
            for slot, face in zip(event.slots, event.cards, strict=True)
        )
        return [CardsVerified("play", event.seat, cards)]
    if not isinstance(event, GameOver):
        return []
    return [
        CardsVerified(
            "prizes",
            seat,
            tuple(
                VerifiedCard(slot, seat, face, True, ProofStatus.VERIFIED)
                for slot, face in zip(slots, faces, strict=True)
            ),
        )
        for seat, (slots, faces) in enumerate(zip(prizes, event.prizes, strict=True))
    ]
