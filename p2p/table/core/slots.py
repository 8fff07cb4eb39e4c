"""Which fair-deck card each engine slot is: the engine counts slots 0..n, the fair deck names
its masked cards by list and index (p2p/deck), and a grouped deck's slots keep a public back.

One table holds one `SlotMap`; the request server's side (serving.py) fills it when a deck is
made or reshuffled, and the games read it through the driver's `masked_slot`/`engine_slot`.
"""

from __future__ import annotations

from fairdeal.p2p.deck import Slot


class SlotMap:
    """Engine slot <-> masked card, and each engine slot's public back (grouped decks)."""

    def __init__(self) -> None:
        self._masked: dict[int, Slot] = {}
        self._engine: dict[Slot, int] = {}
        self._back: dict[int, int] = {}

    def map(self, slot: int, masked: Slot, back: int | None = None) -> None:
        """Engine slot `slot` is the fair deck's card `masked` (of public back `back`)."""
        self._masked[slot] = masked
        self._engine[masked] = slot
        if back is not None:
            self._back[slot] = back

    def masked(self, slot: int) -> Slot:
        """The fair deck's card behind engine slot `slot` (KeyError: none yet)."""
        return self._masked[slot]

    def get(self, slot: int) -> Slot | None:
        """The fair deck's card behind engine slot `slot`, if it has one."""
        return self._masked.get(slot)

    def engine(self, masked: Slot) -> int:
        """The engine slot the fair deck's card `masked` stands for."""
        return self._engine[masked]

    def back(self, slot: int) -> int:
        """The public back of engine slot `slot` (a grouped deck's)."""
        return self._back[slot]
