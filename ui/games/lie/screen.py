"""The Lie's table: Phase 1, a race for the cards on the table (T3); Phase 2, tricks (T5-T7).

Phase 1 (T3): the cursor and Enter (or a click) take a card; its front shows beside the hand,
and ← → (or a d) place it at that end of the hand; only then may the next card be taken.

Like the Larry table, the screen keeps no game state of its own beyond what it shows (the trick
on display, the round results, the proofs of the fronts revealed): it redraws from
`session.view()` on every `StateChanged`, and a worker follows `session.events()`. Modal views
(round scores, the final scores, a fault) queue up and show one at a time. A session that can
hold its bots until the player is ready (`ready`, the local table) is told so whenever a round's
Phase 1 is on screen with nothing in front of it.

At a networked table, as at Larry's: the seats keying and shuffling (`SetupProgress`) before the
first state and between rounds; each claimed front arriving (`CardsVerified` "claim": ·· until
the others' shares are in); every played combination's proof, ✓ or ✗ ("play"); the prizes turned
over with their proofs at the end ("prizes"); the fault screen when a seat cheats; the seats
waiting, disconnected or gone, and leaving (TablePresence). A local table has nothing to prove:
its fronts carry no mark.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from fairdeal.engine.lie import (
    Action,
    Claim,
    IllegalAction,
    LieView,
    Pass,
    Phase,
    Place,
    Play,
    Side,
    SlotTaken,
    check_action,
)
from fairdeal.ui.games.lie.choosing import legal_plays, run_ok
from fairdeal.ui.games.lie.drawing import LieTableDrawing
from fairdeal.ui.games.lie.widgets.cards import back_label
from fairdeal.ui.games.lie.widgets.hand import LieHandView
from fairdeal.ui.games.lie.widgets.table_grid import COLUMNS, LieTableGrid
from fairdeal.ui.screens.presence import table_bindings
from fairdeal.ui.wording import seat_names


class LieTableScreen(LieTableDrawing):
    """The Lie's table: the core (table_core.py), drawn (drawing.py), and the keys of both
    phases (here)."""

    DEFAULT_CSS = """
    LieTableScreen { layout: vertical; overflow: hidden; }
    LieTableScreen #lie-status { height: auto; max-height: 2; padding: 0 1;
                                 background: $primary 30%; }
    LieTableScreen #lie-grid { height: 8; border: round $secondary; padding: 0 1; }
    LieTableScreen #lie-middle { height: 1fr; min-height: 2; }
    LieTableScreen #lie-trick { width: 1fr; height: 100%; border: round $secondary;
                                padding: 0 1; }
    LieTableScreen #lie-log { width: 1fr; height: 1fr; border: round $surface-lighten-2;
                              padding: 0 1; }
    LieTableScreen #lie-log.-compact { border: none; border-top: round $surface-lighten-2;
                                       min-height: 2; }
    LieTableScreen #lie-players { height: auto; border: round $primary; padding: 0 1; }
    LieTableScreen #lie-hand { height: 5; border: round $primary; padding: 0 1; }
    LieTableScreen #lie-hint { height: auto; max-height: 2; padding: 0 1; background: $panel; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Phase 1 (T3): a taken card is placed first (← → or a d), before the cursor moves on;
        # with nothing to place, move over the table and take a card with Enter.
        Binding("left,a", "place('left')", "Place ◀left", key_display="←/a"),
        Binding("right,d", "place('right')", "Place right▶", key_display="→/d"),
        Binding("left", "cursor(-1, 0)", "Move", key_display="←→↑↓"),
        Binding("right", "cursor(1, 0)", show=False),
        Binding("up", "cursor(0, -1)", show=False),
        Binding("down", "cursor(0, 1)", show=False),
        Binding("enter,space", "claim", "Take", key_display="⏎"),
        Binding("enter,space", "place_first", show=False),  # while placing: says why not
        # Phase 2 (T5): choose 1-3 adjacent cards of one colour, play or pass.
        Binding("left", "select(-1)", "Card", key_display="←→"),
        Binding("right", "select(1)", show=False),
        Binding("up,plus", "grow(1)", "More/fewer", key_display="↑↓"),
        Binding("down,minus", "grow(-1)", show=False),
        Binding("tab", "next_play", "Next legal"),
        Binding("enter", "play", "Play"),
        Binding("p", "pass_go", "Pass"),
        # Always.
        *table_bindings(show_new_game=True),
    ]

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

    # -- Phase 2 -----------------------------------------------------------------------------------
    def action_select(self, step: int) -> None:
        view = self._phase_2_view()
        if view is None:
            return
        count = len(view.state.hands[view.seat])
        self.sel_start = (self.sel_start + step) % count
        self.message = ""
        self._clamp_selection(view)
        self.refresh_table()

    def action_grow(self, delta: int) -> None:
        view = self._phase_2_view()
        if view is None:
            return
        length = self.sel_len + delta
        if run_ok(view, self.sel_start, length):
            self.sel_len = length
            self.message = ""
        elif delta > 0:
            self.message = "✗ A combination is 1-3 adjacent cards of one colour (T5)."
        self.refresh_table()

    def action_next_play(self) -> None:
        view = self._phase_2_view()
        if view is None:
            return
        plays = legal_plays(view)
        if not plays:
            self.message = "No legal play: press p to pass."
        else:
            later = [play for play in plays if play > (self.sel_start, self.sel_len)]
            self.sel_start, self.sel_len = (later or plays)[0]
            self.message = ""
        self.refresh_table()

    async def on_lie_hand_view_clicked(self, message: LieHandView.Clicked) -> None:
        """Phase 1, a card to place: a click on the left half of the hand places it at the left
        end, on its right half (or on the new card) at the right end (T3). Phase 2: click a card
        to choose it; click a neighbour of the same colour to add it, a chosen card at either end
        to drop it."""
        building = self.current_view()
        if building is not None and building.phase is Phase.BUILD:
            if building.unplaced is not None:
                await self.action_place("right" if message.right_half else "left")
            return
        view = self._phase_2_view()
        if view is None or message.index >= len(view.state.hands[view.seat]):
            return
        index, start, stop = message.index, self.sel_start, self.sel_start + self.sel_len
        if start <= index < stop and self.sel_len > 1:
            if index == start:
                self.sel_start, self.sel_len = start + 1, self.sel_len - 1
            elif index == stop - 1:
                self.sel_len -= 1
            else:
                self.sel_start, self.sel_len = index, 1
        elif index == start - 1 and run_ok(view, index, self.sel_len + 1):
            self.sel_start, self.sel_len = index, self.sel_len + 1
        elif index == stop and run_ok(view, start, self.sel_len + 1):
            self.sel_len += 1
        else:
            self.sel_start, self.sel_len = index, 1
        self.message = ""
        self.refresh_table()

    async def action_play(self) -> None:
        view = self._phase_2_view()
        if view is None:
            return
        action = Play(self._selected_slots(view))
        try:
            check_action(view, action)  # our own fronts first: never send a play they contradict
        except IllegalAction as error:
            self._refuse(error)
            return
        await self._send(action)

    async def action_pass_go(self) -> None:
        view = self._phase_2_view()
        if view is None:
            return
        await self._send(Pass())
