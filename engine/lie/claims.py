"""T3's one rule for taking a card from the table: whether a seat may claim now, and why not.

The engine's own check of a Claim (engine/lie/rules.py), the view's `can_claim` and the legal
actions (engine/lie/view.py, engine/lie/legal.py) all ask `claim_refusal`; so may a table or an
app that keeps claims of its own still being decided (`settling`).
"""

from __future__ import annotations

from fairdeal.engine.lie import errors as E
from fairdeal.engine.lie.state import BUILD, LieState


def claim_refusal(
    state: LieState, seat: int, *, settling: int = 0, placing: bool = False
) -> E.IllegalAction | None:
    """Why `seat` may not take a card now, as the typed error a Claim would raise; None: it may.

    `settling`: claims of this seat a networked table has sent and not decided yet; they count
    against the hand. `placing`: the same move also places the seat's last card taken (a
    networked step carries both), so an unplaced card whose front is known does not forbid it.
    Which slot is claimed is not asked here: a slot no longer on the table is SlotTaken.
    """
    if state.phase is not BUILD:
        return E.NotBuilding(seat, "cards are taken from the table only in Phase 1 (T3)")
    if not state.claims_open():
        return E.WaitingForDriver(seat, "the table is still being laid out")
    unplaced = state.unplaced[seat]
    if unplaced is not None:
        if not placing:
            return E.PlaceFirst(
                seat, f"place your last card (slot {unplaced}) before taking another (T3)"
            )
        if not state.front_known(seat):
            return E.WaitingForDriver(seat, f"the front of slot {unplaced} is still being dealt")
    size = state.options.hand_size
    # LieState.held written out (this is asked on every claim): placed, unplaced, settling.
    if len(state.hands[seat]) + (unplaced is not None) + settling >= size:
        return E.HandFull(seat, f"your hand is complete: {size} cards (T3)")
    return None
