"""The Lie's Phase 1 keys (T3): move over the table, take a card, place it at an end of the hand;
a lost race and a refused move said in the hint."""

from __future__ import annotations

from fairdeal.engine.lie import (
    Action,
    Claim,
    IllegalAction,
    LieView,
    Phase,
    Place,
    Side,
    SlotTaken,
)
from fairdeal.ui.games.lie.drawing import LieTableDrawing
from fairdeal.ui.games.lie.widgets.cards import back_label
from fairdeal.ui.games.lie.widgets.table_grid import COLUMNS, LieTableGrid
from fairdeal.ui.wording import seat_names


class LiePhase1Keys(LieTableDrawing):
    """The Lie's table screen's Phase 1 (T3) part."""

    # -- Phase 1 -----------------------------------------------------------------------------------
    def action_cursor(self, dx: int, dy: int) -> None:
        view = self.current_view()
        if view is None:
            return
        state = view.state
        on_table = set(state.table)
        layout = state.layout
        self.message = ""
        if dx:
            position = self.cursor + dx
            while 0 <= position < len(layout) and layout[position] not in on_table:
                position += dx
            if 0 <= position < len(layout):
                self.cursor = position
        else:
            row = self.cursor + dy * COLUMNS
            while 0 <= row < len(layout):
                start = row - row % COLUMNS
                column = self.cursor % COLUMNS
                candidates = [
                    p
                    for p in range(start, min(start + COLUMNS, len(layout)))
                    if layout[p] in on_table
                ]
                if candidates:
                    self.cursor = min(candidates, key=lambda p: abs(p % COLUMNS - column))
                    break
                row += dy * COLUMNS
        self.refresh_table()

    async def action_claim(self) -> None:
        view = self.current_view()
        if view is None or view.phase is not Phase.BUILD:
            return
        if view.unplaced is not None:
            self.action_place_first()
            return
        if not view.can_claim:
            self.message = (
                "Your claims fill your hand once they settle (T3): wait for their races."
                if view.pending_claims
                else "Your hand is full (T3): wait for the others."
            )
            self.refresh_table()
            return
        state = view.state
        if not state.layout:
            return
        slot = state.layout[self.cursor]
        if slot not in state.table:
            self._lost_race(view, slot)
            return
        try:
            await self.session.act(Claim(slot))
            # A networked claim takes effect once settled (T3, protocol.md 10.11); until then
            # another seat's claim of the same card may win the race.
            after = self.session.view()
            if after.unplaced != slot and slot not in after.state.hands[view.seat]:
                self._claimed.add(slot)
        except SlotTaken:
            self._lost_race(self.session.view(), slot)
            return
        except IllegalAction as error:
            self._refuse(error)
            return
        self.message = ""
        self.refresh_table()

    def action_place_first(self) -> None:
        """A card is taken and not placed: the next is taken only after it is (T3)."""
        self.app.bell()
        self.message = "✗ Place your new card first (← or →): then take the next (T3)."
        self.refresh_table()

    async def action_place(self, side: str) -> None:
        """T3: put the taken card, its front seen, at the `side` end of the hand."""
        view = self.current_view()
        if view is None or view.phase is not Phase.BUILD or view.unplaced is None:
            return
        if view.unplaced_face is None:
            self.app.bell()
            self.message = "Your new card's front is still on its way: place it once seen (T3)."
            self.refresh_table()
            return
        await self._send(Place(Side(side)))

    async def _send(self, action: Action) -> None:
        """Send this seat's action; a refusal rings and says why (nothing changed), else the
        hint line clears."""
        try:
            await self.session.act(action)
        except IllegalAction as error:
            self._refuse(error)
            return
        self.message = ""
        self.refresh_table()

    def _refuse(self, error: IllegalAction) -> None:
        self.app.bell()
        self.message = f"✗ Not allowed: {seat_names(error.reason, self.names)}"
        self.refresh_table()

    def _lost_race(self, view: LieView, slot: int) -> None:
        """Someone else got the card first (T3): say who; nothing changed."""
        self.app.bell()
        state = view.state
        holder = next(
            (s for s, hand in enumerate(state.hands) if slot in hand or state.unplaced[s] == slot),
            None,
        )
        back = back_label(view.state.backs[slot], self.letters(view)) if slot in view.backs else ""
        who = self.names[holder] if holder is not None else "Someone"
        self.message = f"✗ {who} got that {back} first. Pick another card."
        self.refresh_table()

    async def on_lie_table_grid_clicked(self, message: LieTableGrid.Clicked) -> None:
        self.cursor = message.position
        self.message = ""
        await self.action_claim()
