"""Larry's deal layout, stated once: which position of a new deck goes to which seat and slot.

A hand's `NewDeck(slots)` fills `slots[i]` with the card at position i of the shuffled deck (the
oracle's deck order, the fair deck's list index). `deal_layout` says where each position goes;
the rules deal by it and the scenario runner builds deck orders by it, so the two cannot
disagree.
"""

from __future__ import annotations

from typing import NamedTuple


class DealLayout(NamedTuple):
    """Deck positions per seat (each hand in deal order) and of the pick-up pile (top first)."""

    hands: tuple[tuple[int, ...], ...]
    pickup: tuple[int, ...]

    def slots(self, first_slot: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """The same layout as slot ids, for a deck whose position 0 is slot `first_slot`."""
        hands = tuple(tuple(first_slot + p for p in hand) for hand in self.hands)
        return hands, tuple(first_slot + p for p in self.pickup)

    def seat_of(self, position: int) -> int | None:
        """The seat dealt deck position `position`, or None for the pick-up pile."""
        for seat, hand in enumerate(self.hands):
            if position in hand:
                return seat
        return None


def deal_layout(players: int, per_player: int, deck_size: int) -> DealLayout:
    """L3, every hand alike: seat s gets positions s·k … s·k + k − 1, the rest is the pick-up
    pile in position order, drawn from its front."""
    if players * per_player > deck_size:
        raise ValueError(f"a deck of {deck_size} cannot deal {players} hands of {per_player}")
    hands = tuple(
        tuple(range(seat * per_player, (seat + 1) * per_player)) for seat in range(players)
    )
    return DealLayout(hands, tuple(range(players * per_player, deck_size)))
