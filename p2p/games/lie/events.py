"""The Lie's own table events (the fronts it proves are the shared `CardsVerified`)."""

from __future__ import annotations

from dataclasses import dataclass

from fairdeal.p2p.table.core.api import Notice


@dataclass(frozen=True, slots=True)
class ClaimVoid(Notice):
    """The Lie's Phase 1 (T3): `seat`'s claim of table slot `slot` took no card, because `winner`
    won the tie of that step, or (None) the card was taken a step before. `text` says the same
    with seat and slot numbers, for a front end that knows no names."""

    seat: int = 0
    slot: int = 0
    winner: int | None = None
