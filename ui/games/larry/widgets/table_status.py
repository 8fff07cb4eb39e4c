"""The middle of the table: limit and direction, announced total, pick-up and discard counts.

The panel draws itself from what it is given (the view, the seats, the setup step under way):
each is reactive, and a change to any draws it again; the screen only assigns them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from fairdeal.engine.larry import LarryView, Phase
from fairdeal.p2p.table.core.api import SeatInfo, SetupProgress
from fairdeal.ui.games.larry.narrator import direction_text
from fairdeal.ui.widgets.setup_progress import setup_finished, setup_text


class TableStatus(Static):
    # drawn by `draw` (its size is the top row's, fitted by the screen: no layout per change)
    view: reactive[LarryView | None] = reactive(None, layout=False, repaint=False)
    seats: reactive[tuple[SeatInfo, ...]] = reactive(tuple, layout=False, repaint=False)
    setup: reactive[SetupProgress | None] = reactive(None, layout=False, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Table"

    def draw(self) -> None:
        view, seats = self.view, self.seats
        if view is None:
            return  # no table yet: nothing to draw
        text = Text()
        text.append("Limit ")
        text.append(f" {view.limit} ", style="bold reverse")
        text.append(f"  {direction_text(view.direction)}\n")
        text.append_text(total_text(view, seats))
        text.append("\n")
        text.append(
            f"Pick-up {view.pickup_count} · Discard {view.discard_count} · Pile {view.pile_size}\n"
        )
        text.append(f"Hand {view.hand_no}", style="dim")
        if view.options.short_game:
            text.append(" (short game)", style="dim")
        if view.phase is Phase.GAME_OVER:
            text.append(" · GAME OVER", style="bold")
        elif self.setup is not None and not setup_finished(self.setup):
            text.append(f" · {setup_text(self.setup, seats)}", style="dim")
        self.update(text, layout=False)

    watch_view = watch_seats = watch_setup = draw


def total_text(view: LarryView, seats: Sequence[SeatInfo]) -> Text:
    """The pile's total and who said it. Only a face-down card announces (L6); a pile topped by a
    face-up card has a total nobody said, so it is not shown as "Announced"."""
    text = Text()
    if not view.pile:
        text.append("Total ")
        text.append("0", style="bold")
        text.append(" · a new round (L7)")
        return text
    last = seats[view.pile_seats[-1]].name
    face_up = view.pile[-1][0] in view.state.revealed
    text.append("Total " if face_up else "Announced ")
    text.append(str(view.announced), style="bold")
    text.append(f" ({last} played face-up)" if face_up else f" (by {last})")
    if view.last_player is not None and view.last_player != view.pile_seats[-1]:
        # an action card played since makes its player the one a doubt is against (L6)
        text.append(f"; doubt goes to {seats[view.last_player].name}, who played last (L6)")
    return text
